package dev.cryptoworker.cryptobox.ope;

import dev.cryptoworker.cryptobox.DateValues;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;
import java.util.Arrays;

/**
 * Maps values to sequences of unsigned 64-bit order keys whose lexicographic order is the value
 * order, and back.
 *
 * <ul>
 *   <li>LONG, INT, DATE: one key; signed numbers (DATE: epoch milliseconds) with the sign bit
 *       flipped, so unsigned order is signed order.
 *   <li>BYTES (and UTF-8 strings, whose byte order is code-point order): 7-byte chunks; each key
 *       holds 56 bits of chunk data (zero-padded) and a code: 0-7 for the length of a last chunk,
 *       8 for a full chunk followed by more. A proper prefix therefore sorts first, and equal
 *       prefixes give equal leading keys.
 * </ul>
 */
final class OrderKeys {
  static final int CHUNK = 7;
  static final int MORE = 8;

  private OrderKeys() {}

  static long[] of(OrderPreservingBox.Encoding encoding, byte[] value) {
    switch (encoding) {
      case LONG:
        requireLength(value, 8, "a long");
        return new long[] {ByteBuffer.wrap(value).getLong() ^ Long.MIN_VALUE};
      case INT:
        requireLength(value, 4, "an int");
        return new long[] {((long) ByteBuffer.wrap(value).getInt()) ^ Long.MIN_VALUE};
      case DATE:
        return new long[] {DateValues.epochMillis(value) ^ Long.MIN_VALUE};
      case BYTES:
        return chunks(value);
      default:
        throw new AssertionError(encoding);
    }
  }

  private static void requireLength(byte[] value, int n, String what) {
    if (value.length != n) {
      throw new IllegalArgumentException(what + " must be " + n + " bytes, got " + value.length);
    }
  }

  private static long[] chunks(byte[] value) {
    int n = value.length / CHUNK + 1; // a value of exactly k*7 bytes ends with an empty chunk
    long[] keys = new long[n];
    for (int j = 0; j < n; j++) {
      int start = j * CHUNK;
      int len = Math.min(CHUNK, value.length - start);
      long data = 0;
      for (int i = 0; i < CHUNK; i++) {
        data = (data << 8) | (i < len ? value[start + i] & 0xff : 0);
      }
      keys[j] = (data << 8) | (j < n - 1 ? MORE : len);
    }
    return keys;
  }

  /** The value of decrypted keys; for BYTES the caller stops at the first key with code 0-7. */
  static byte[] value(OrderPreservingBox.Encoding encoding, long[] keys, int count) throws GeneralSecurityException {
    switch (encoding) {
      case LONG:
        return ByteBuffer.allocate(8).putLong(keys[0] ^ Long.MIN_VALUE).array();
      case INT:
        long v = keys[0] ^ Long.MIN_VALUE;
        if (v != (int) v) {
          throw new GeneralSecurityException("decrypted value is not an int");
        }
        return ByteBuffer.allocate(4).putInt((int) v).array();
      case BYTES:
        ByteArrayOutputStream out = new ByteArrayOutputStream(count * CHUNK);
        for (int j = 0; j < count; j++) {
          int code = (int) (keys[j] & 0xff);
          boolean last = j == count - 1;
          if (last ? code > CHUNK : code != MORE) {
            throw new GeneralSecurityException("malformed chunk code " + code + " in OPE string");
          }
          int len = last ? code : CHUNK;
          long data = keys[j] >>> 8;
          for (int i = 0; i < CHUNK; i++) {
            byte b = (byte) (data >>> (8 * (CHUNK - 1 - i)));
            if (i < len) {
              out.write(b);
            } else if (b != 0) {
              throw new GeneralSecurityException("malformed padding in OPE string chunk");
            }
          }
        }
        return out.toByteArray();
      default:
        throw new GeneralSecurityException("a " + encoding + " value cannot be recovered from its order key");
    }
  }

  /** Whether key {@code k} of a BYTES value is its last one. */
  static boolean isLastChunk(long k) {
    return (k & 0xff) != MORE;
  }

  /** The order keys of the smallest value greater than {@code value}, or null if there is none. */
  static long[] successorKeys(OrderPreservingBox.Encoding encoding, byte[] value) {
    if (encoding == OrderPreservingBox.Encoding.BYTES) {
      return of(encoding, Arrays.copyOf(value, value.length + 1)); // v || 0x00
    }
    long k = of(encoding, value)[0];
    long max = (encoding == OrderPreservingBox.Encoding.INT ? Integer.MAX_VALUE : Long.MAX_VALUE) ^ Long.MIN_VALUE;
    return k == max ? null : new long[] {k + 1};
  }
}
