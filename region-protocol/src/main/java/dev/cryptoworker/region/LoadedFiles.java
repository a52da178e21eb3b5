package dev.cryptoworker.region;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Optional;

/**
 * What a bulk load's HFiles tell region servers about the cells they read back once the files are
 * loaded (search index cells, {@link SearchIndexCells}): a writer that keeps those cells in files
 * of their own marks every file it writes, in the HFile's file info, so that a region reads only
 * the few files that hold them instead of every loaded cell. A file without a mark (written by
 * older clients, or by HBase's own tools) may hold them anywhere.
 */
public final class LoadedFiles {
  private static final byte[] FILE_INFO_KEY = "CRYPTOWORKER_READ_BACK".getBytes(StandardCharsets.US_ASCII);

  /** A file's mark. */
  public enum Mark {
    /** The file holds read-back cells of its rows, and nothing else. */
    READ_BACK("cells"),
    /** The file holds no read-back cell. */
    NOTHING_TO_READ_BACK("none");

    private final byte[] value;

    Mark(String value) {
      this.value = value.getBytes(StandardCharsets.US_ASCII);
    }

    /** The file-info value of this mark. */
    public byte[] value() {
      return value.clone();
    }

    /** The mark whose file-info value is {@code value}; empty for no value, or one this version does not know. */
    public static Optional<Mark> of(byte[] value) {
      if (value != null) {
        for (Mark m : values()) {
          if (Arrays.equals(m.value, value)) {
            return Optional.of(m);
          }
        }
      }
      return Optional.empty();
    }
  }

  private LoadedFiles() {}

  /** The HFile file-info key of the mark. */
  public static byte[] fileInfoKey() {
    return FILE_INFO_KEY.clone();
  }
}
