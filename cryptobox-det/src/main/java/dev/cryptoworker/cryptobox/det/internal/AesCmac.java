package dev.cryptoworker.cryptobox.det.internal;

import dev.cryptoworker.cryptobox.ThreadLocalCiphers;
import java.security.GeneralSecurityException;
import java.util.Arrays;
import javax.crypto.Cipher;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * AES-CMAC (RFC 4493) over one JDK CBC cipher per thread, whose key schedule the JDK reuses: CMAC
 * is CBC-MAC with the last block masked by a subkey. Used by AES-SIV's S2V and by the one-block
 * DET form's tweak.
 */
final class AesCmac {
  static final int BLOCK = 16;
  private static final byte[] ZERO_BLOCK = new byte[BLOCK];
  private static final IvParameterSpec ZERO_IV = new IvParameterSpec(ZERO_BLOCK);

  private final SecretKeySpec key;
  private final byte[] k1;
  private final byte[] k2;
  private final ThreadLocal<Cipher> cbc;

  /** CMAC under {@code key}, which is used for nothing else. */
  AesCmac(SecretKeySpec key) throws GeneralSecurityException {
    this.key = key;
    this.cbc = ThreadLocalCiphers.of("AES/CBC/NoPadding");
    Cipher ecb = Cipher.getInstance("AES/ECB/NoPadding");
    ecb.init(Cipher.ENCRYPT_MODE, key);
    byte[] l = ecb.doFinal(ZERO_BLOCK);
    this.k1 = dbl(l);
    this.k2 = dbl(k1);
    Arrays.fill(l, (byte) 0); // L = AES_K(0) derives both subkeys; only they are kept
  }

  /** Doubling in GF(2^128), RFC 5297 section 2.3. */
  static byte[] dbl(byte[] s) {
    byte[] out = new byte[BLOCK];
    for (int i = 0; i < BLOCK - 1; i++) {
      out[i] = (byte) ((s[i] << 1) | ((s[i + 1] & 0xff) >>> 7));
    }
    out[BLOCK - 1] = (byte) ((s[BLOCK - 1] << 1) ^ ((s[0] & 0x80) != 0 ? 0x87 : 0));
    return out;
  }

  static void xorInto(byte[] target, int at, byte[] mask) {
    for (int i = 0; i < BLOCK; i++) {
      target[at + i] ^= mask[i];
    }
  }

  /** The 16-byte CMAC of {@code message}. */
  byte[] mac(byte[] message) throws GeneralSecurityException {
    int blocks = Math.max(1, (message.length + BLOCK - 1) / BLOCK);
    boolean complete = message.length > 0 && message.length % BLOCK == 0;
    byte[] m = Arrays.copyOf(message, blocks * BLOCK);
    int last = (blocks - 1) * BLOCK;
    if (complete) {
      xorInto(m, last, k1);
    } else {
      m[message.length] = (byte) 0x80;
      xorInto(m, last, k2);
    }
    Cipher c = cbc.get();
    c.init(Cipher.ENCRYPT_MODE, key, ZERO_IV);
    byte[] chain = c.doFinal(m);
    return Arrays.copyOfRange(chain, chain.length - BLOCK, chain.length);
  }
}
