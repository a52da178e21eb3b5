package dev.cryptoworker.cryptobox;

import java.nio.charset.StandardCharsets;

/**
 * Unambiguous encoding of the coordinates a ciphertext is bound to.
 *
 * <p>Every part is length-prefixed, so ("ab","c") and ("a","bc") never collide; the first part
 * names the purpose (cell value, row key, qualifier), so a ciphertext made for one purpose never
 * verifies as another.
 */
public final class AssociatedData {
  private AssociatedData() {}

  /** Encodes {@code purpose} followed by {@code parts}, each with a 4-byte length prefix. */
  public static byte[] of(String purpose, byte[]... parts) {
    byte[] name = purpose.getBytes(StandardCharsets.UTF_8);
    int length = 4 + name.length;
    for (byte[] part : parts) {
      length = Math.addExact(length, 4 + part.length);
    }
    byte[] out = new byte[length];
    int at = writePart(out, 0, name);
    for (byte[] part : parts) {
      at = writePart(out, at, part);
    }
    return out;
  }

  private static int writePart(byte[] out, int at, byte[] part) {
    int n = part.length;
    out[at] = (byte) (n >>> 24);
    out[at + 1] = (byte) (n >>> 16);
    out[at + 2] = (byte) (n >>> 8);
    out[at + 3] = (byte) n;
    System.arraycopy(part, 0, out, at + 4, n);
    return at + 4 + n;
  }
}
