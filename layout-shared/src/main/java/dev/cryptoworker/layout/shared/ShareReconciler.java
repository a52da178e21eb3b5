package dev.cryptoworker.layout.shared;

import dev.cryptoworker.client.CellDecodingException;
import dev.cryptoworker.client.codec.TableCodec;
import dev.cryptoworker.client.spi.MergedRows;
import dev.cryptoworker.sharing.Reconstruction;
import dev.cryptoworker.sharing.SecretSharing;
import dev.cryptoworker.sharing.ShareDecodingException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.function.LongConsumer;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.util.Bytes;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns one stored row as each cluster returned it into the logical row: per cell, the newest
 * version that at most r answering clusters lack ({@link NewestVersion}) is decoded from its shares
 * if enough clusters hold it; the cell is absent if every version held is lacked by more than r (a
 * delete, or writes that never reached a write quorum); otherwise the read fails, naming the cell
 * and the clusters, rather than return an older version as if it were the newest.
 */
final class ShareReconciler {
  private static final Logger LOG = LoggerFactory.getLogger(ShareReconciler.class);

  /**
   * A read that met newer versions on some clusters and too few shares of the version before on the
   * others: a write under way (or one that too few clusters took, where others also lack the cell).
   */
  static final class WriteUnderWay extends IOException {
    private static final long serialVersionUID = 1L;

    WriteUnderWay(String message) {
      super(message);
    }
  }

  /** Decodes a joined value (AES_RS: decrypts the dispersed ciphertext). */
  @FunctionalInterface
  interface ValueDecoder {
    byte[] decode(byte[] row, byte[] family, byte[] qualifier, byte[] joined) throws IOException;
  }

  private final TableCodec codec;
  private final ColumnSchemes schemes;
  private final List<String> clusters;
  private final int r;
  /** The threshold, and more than r: fewer might all have missed the newest acknowledged write. */
  private final int needed;
  private final ValueDecoder values;
  private final LongConsumer decodedVersions;

  /** {@code decodedVersions} is told the timestamp of every version decoded (the write clock reads them). */
  ShareReconciler(TableCodec codec, ColumnSchemes schemes, int r, List<String> clusters, ValueDecoder values,
      LongConsumer decodedVersions) {
    this.codec = codec;
    this.schemes = schemes;
    this.clusters = clusters;
    this.r = r;
    this.needed = Math.max(schemes.threshold(), r + 1);
    this.values = values;
    this.decodedVersions = decodedVersions;
  }

  /** The answering clusters, for messages. */
  String describe(boolean[] answered) {
    List<String> up = new ArrayList<>();
    List<String> down = new ArrayList<>();
    for (int i = 0; i < answered.length; i++) {
      (answered[i] ? up : down).add(clusters.get(i));
    }
    return "answering: " + up + ", not answering: " + down;
  }

  /**
   * The logical row of {@code storedRow} from each cluster's stored row ({@code perCluster[i]}
   * null: cluster i did not answer; empty: it holds nothing of the row).
   */
  Result reconcile(byte[] storedRow, Result[] perCluster) throws IOException {
    boolean[] answered = new boolean[perCluster.length];
    int answering = 0;
    for (int i = 0; i < perCluster.length; i++) {
      answered[i] = perCluster[i] != null;
      answering += answered[i] ? 1 : 0;
    }
    if (answering < needed) {
      throw new IOException("table " + codec.table() + ": " + answering + " of " + perCluster.length
          + " clusters answered, " + needed + " needed to decode and rule out newer writes on the others ("
          + describe(answered) + ")");
    }
    Collection<Cell[]> byColumn = MergedRows.byColumn(perCluster);
    if (byColumn.isEmpty()) {
      return Result.EMPTY_RESULT;
    }
    byte[] row = codec.decodeRow(storedRow);
    List<Cell> out = new ArrayList<>();
    for (Cell[] versions : byColumn) {
      Cell cell = decode(row, versions, answered);
      if (cell != null) {
        out.add(cell);
      }
    }
    out.sort(org.apache.hadoop.hbase.CellComparator.getInstance());
    return Result.create(out);
  }

  private String where(byte[] row, byte[] family) {
    return "table " + codec.table() + ", row " + codec.printableRow(row) + ", family " + Bytes.toStringBinary(family);
  }

  private Cell decode(byte[] row, Cell[] versions, boolean[] answered) throws IOException {
    OptionalLong chosen = NewestVersion.of(versions, answered, r);
    if (chosen.isEmpty()) {
      return null; // deleted, or writes that reached too few clusters; repair removes the strays
    }
    long newest = chosen.getAsLong();
    Map<Integer, byte[]> shares = new HashMap<>();
    Cell any = null;
    int newer = 0;
    for (int i = 0; i < versions.length; i++) {
      if (versions[i] != null && versions[i].getTimestamp() == newest) {
        shares.put(i, CellUtil.cloneValue(versions[i]));
        any = versions[i];
      } else if (versions[i] != null && versions[i].getTimestamp() > newest) {
        newer++;
      }
    }
    byte[] family = CellUtil.cloneFamily(any);
    SecretSharing sharing = schemes.of(family, CellUtil.cloneQualifier(any));
    if (shares.size() < sharing.threshold()) {
      String message = where(row, family) + ": the newest version at most r = " + r + " answering clusters lack ("
          + newest + ") has " + shares.size() + " of the " + sharing.threshold() + " shares needed"
          + (newer > 0 ? ", and " + newer + " clusters hold newer versions too few others have" : "") + " ("
          + describe(answered) + "); an older version is not returned in its place: bring the clusters back, or"
          + " repair the table";
      throw newer > 0 ? new WriteUnderWay(message) : new IOException(message);
    }
    byte[] qualifier = codec.decodeQualifier(row, family, CellUtil.cloneQualifier(any));
    Reconstruction joined;
    try {
      joined = sharing.join(shares, null);
    } catch (ShareDecodingException e) {
      throw new CellDecodingException(codec.table(), codec.printableRow(row),
          codec.describeColumn(family, qualifier), "shares do not decode: " + e.getMessage());
    }
    if (!joined.corruptShares().isEmpty()) {
      List<String> bad = new ArrayList<>();
      joined.corruptShares().forEach(i -> bad.add(clusters.get(i)));
      LOG.warn("Table {}, {}: corrupt shares on clusters {} corrected; repair those clusters", codec.table(),
          codec.describeColumn(family, qualifier), bad);
    }
    byte[] value = values.decode(row, family, qualifier, joined.value());
    decodedVersions.accept(newest);
    return new KeyValue(row, family, qualifier, newest, value);
  }
}
