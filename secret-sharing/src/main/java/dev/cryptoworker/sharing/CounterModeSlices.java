package dev.cryptoworker.sharing;

import java.security.GeneralSecurityException;
import javax.crypto.Cipher;

/**
 * AES-CTR over long inputs in slices of {@value #SLICE} bytes. HotSpot swaps in its AES-CTR
 * intrinsic only when it compiles the JDK's counter-mode method, which it does after many calls: fed
 * megabytes per call, that method stays interpreted-speed for hundreds of calls (about 250 MB/s on
 * this class of machine, against several GB/s compiled); fed slices, it is compiled at once.
 */
final class CounterModeSlices {
  static final int SLICE = 16 << 10;
  private static final byte[] ZEROS = new byte[SLICE];

  private CounterModeSlices() {}

  /** The key stream itself (CTR over zeros) into {@code out[offset..offset+length)}. */
  static void keystream(Cipher cipher, byte[] out, int offset, int length) throws GeneralSecurityException {
    for (int done = 0; done < length; done += SLICE) {
      slice(cipher, ZEROS, 0, Math.min(SLICE, length - done), out, offset + done);
    }
  }

  /** {@code cipher.update} over {@code in[inOffset..inOffset+length)} into {@code out} (in place allowed). */
  static void update(Cipher cipher, byte[] in, int inOffset, int length, byte[] out, int outOffset)
      throws GeneralSecurityException {
    for (int done = 0; done < length; done += SLICE) {
      slice(cipher, in, inOffset + done, Math.min(SLICE, length - done), out, outOffset + done);
    }
  }

  private static void slice(Cipher cipher, byte[] in, int inOffset, int n, byte[] out, int outOffset)
      throws GeneralSecurityException {
    int written = cipher.update(in, inOffset, n, out, outOffset);
    if (written != n) {
      throw new IllegalStateException("AES/CTR wrote " + written + " of " + n + " bytes");
    }
  }
}
