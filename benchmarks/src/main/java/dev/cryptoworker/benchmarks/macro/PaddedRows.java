package dev.cryptoworker.benchmarks.macro;

import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * Plain rows as long as ciphertexts, and in their order, for control loads: a plain table of them
 * is the ceiling of any encryption that stores that many bytes, so a benchmark can tell the cost
 * of the bytes from the cost of the cryptography.
 */
final class PaddedRows {
  /** A DET row key's bytes before its body: a one-byte key header and a 16-byte SIV or block. */
  static final int DET_PREFIX_BYTES = 17;

  /** One digest per thread: a row is padded in the timed load, so its cost counts against the control. */
  private static final ThreadLocal<MessageDigest> SHA256 = ThreadLocal.withInitial(() -> {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("this JDK has no SHA-256", e);
    }
  });

  private PaddedRows() {}

  /**
   * A row key shaped as a DET one: a header byte, then 16 bytes of SHA-256 of {@code key}, which
   * put rows in pseudorandom order; then {@code key} itself if {@code withBody} (SIV keeps a body
   * as long as the key; format 2's one-block form of keys of at most 8 bytes has none).
   */
  static byte[] detShapedKey(byte[] key, boolean withBody) {
    byte[] prefix = Bytes.add(new byte[] {1}, Arrays.copyOf(sha256(key), DET_PREFIX_BYTES - 1));
    return withBody ? Bytes.add(prefix, key) : prefix;
  }

  /** {@code put} under row key {@code row}, with {@code valueBytes} zero bytes more in each value of {@code columns}. */
  static Put padded(Put put, byte[] row, Set<String> columns, int valueBytes) {
    Put out = new Put(row);
    for (List<Cell> cells : put.getFamilyCellMap().values()) {
      for (Cell c : cells) {
        byte[] value = CellUtil.cloneValue(c);
        boolean pad = columns.contains(Bytes.toString(CellUtil.cloneQualifier(c)));
        out.addColumn(CellUtil.cloneFamily(c), CellUtil.cloneQualifier(c),
            pad ? Bytes.add(value, new byte[valueBytes]) : value);
      }
    }
    return out;
  }

  static byte[] sha256(byte[] bytes) {
    return SHA256.get().digest(bytes);
  }
}
