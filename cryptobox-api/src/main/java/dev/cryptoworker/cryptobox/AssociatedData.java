package dev.cryptoworker.cryptobox;

import java.io.ByteArrayOutputStream;
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
    ByteArrayOutputStream out = new ByteArrayOutputStream(64);
    writePart(out, purpose.getBytes(StandardCharsets.UTF_8));
    for (byte[] part : parts) {
      writePart(out, part);
    }
    return out.toByteArray();
  }

  private static void writePart(ByteArrayOutputStream out, byte[] part) {
    int n = part.length;
    out.write(n >>> 24);
    out.write(n >>> 16);
    out.write(n >>> 8);
    out.write(n);
    out.write(part, 0, n);
  }
}
