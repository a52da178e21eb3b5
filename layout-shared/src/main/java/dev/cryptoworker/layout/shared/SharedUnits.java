package dev.cryptoworker.layout.shared;

import dev.cryptoworker.client.CellDecodingException;
import dev.cryptoworker.client.codec.TableCodec;
import dev.cryptoworker.client.inspect.InspectedCell;
import dev.cryptoworker.client.spi.RowWalk;
import dev.cryptoworker.client.spi.StoredUnits;
import dev.cryptoworker.schema.ColumnPolicy;
import dev.cryptoworker.sharing.Reconstruction;
import dev.cryptoworker.sharing.SecretSharing;
import dev.cryptoworker.sharing.ShareDecodingException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * A SHARED table's stored cells for inspection and audits: every share on every cluster, every
 * version, each with what its version decodes to together with the other clusters' shares, or why it
 * does not (a corrupt share, shares that do not decode, too few shares of a version).
 */
final class SharedUnits implements StoredUnits {
  private static final int SCAN_CACHING = 100;

  private final SharedLayout layout;
  private final TableCodec codec;
  private final ColumnSchemes schemes;
  private final List<String> clusters;
  private final List<Integer> keysetKeyIds;
  private final boolean rowKeyed;

  SharedUnits(SharedLayout layout, TableCodec codec, Collection<Integer> keysetKeyIds) {
    this.layout = layout;
    this.codec = codec;
    this.schemes = layout.schemes();
    this.clusters = layout.clusterNames();
    this.keysetKeyIds = List.copyOf(keysetKeyIds);
    this.rowKeyed = !codec.rowKeysInPlaintext();
  }

  @Override
  public List<InspectedCell> row(byte[] row) throws IOException {
    codec.checkRowType(row);
    byte[] storedRow = codec.encodeRow(row);
    List<Table> tables = layout.storedTables();
    Result[] perCluster = new Result[tables.size()];
    for (int i = 0; i < perCluster.length; i++) {
      try {
        perCluster[i] = tables.get(i).get(new Get(storedRow).readAllVersions());
      } catch (IOException e) {
        throw new IOException("table " + codec.table() + ": cluster " + clusters.get(i) + " does not answer; inspecting"
            + " shares needs every cluster: " + e.getMessage(), e);
      }
    }
    return units(storedRow, perCluster);
  }

  @Override
  public RowWalk.Rows<List<InspectedCell>> rows(byte[] after) throws IOException {
    return layout.everyCluster(after, new Scan().readAllVersions().setCaching(SCAN_CACHING), "an audit of shares")
        .map(merged -> units(merged.row(), merged.perCluster()));
  }

  /** Every share of one stored row, grouped by column and version to decode them together. */
  private List<InspectedCell> units(byte[] storedRow, Result[] perCluster) {
    byte[] row;
    String rowProblem = null;
    try {
      row = codec.decodeRow(storedRow);
    } catch (CellDecodingException e) {
      row = null;
      rowProblem = e.getMessage();
    }
    // (family, stored qualifier, timestamp) -> cluster -> share
    Map<String, Map<Integer, Cell>> versions = new LinkedHashMap<>();
    for (int i = 0; i < perCluster.length; i++) {
      if (perCluster[i] == null || perCluster[i].isEmpty()) {
        continue;
      }
      for (Cell c : perCluster[i].rawCells()) {
        String key = Bytes.toStringBinary(CellUtil.cloneFamily(c)) + ":" + Bytes.toStringBinary(CellUtil.cloneQualifier(c))
            + "@" + c.getTimestamp();
        versions.computeIfAbsent(key, k -> new LinkedHashMap<>()).put(i, c);
      }
    }
    List<InspectedCell> out = new ArrayList<>();
    for (Map<Integer, Cell> version : versions.values()) {
      out.addAll(version(row, rowProblem, version));
    }
    return out;
  }

  /** The shares of one version of one column, each told what they decode to together, or why not. */
  private List<InspectedCell> version(byte[] row, String rowProblem, Map<Integer, Cell> shares) {
    Cell any = shares.values().iterator().next();
    byte[] family = CellUtil.cloneFamily(any);
    byte[] qualifier = null;
    byte[] value = null;
    String problem = rowProblem;
    List<Integer> corrupt = List.of();
    boolean protectedQualifier = false;
    try {
      protectedQualifier = codec.familySchema(family).protectQualifiers();
      if (problem == null) {
        qualifier = codec.decodeQualifier(row, family, CellUtil.cloneQualifier(any));
        SecretSharing sharing = schemes.of(family, CellUtil.cloneQualifier(any));
        if (shares.size() < sharing.threshold()) {
          problem = "only " + shares.size() + " of the " + sharing.threshold() + " shares needed hold this version"
              + " (a write that reached too few clusters, or a delete some missed): run the table's repair";
        } else {
          Map<Integer, byte[]> bytes = new HashMap<>();
          shares.forEach((i, c) -> bytes.put(i, CellUtil.cloneValue(c)));
          Reconstruction joined = sharing.join(bytes, null);
          corrupt = List.copyOf(joined.corruptShares());
          value = layout.decodeJoined(row, family, qualifier, joined.value());
        }
      }
    } catch (ShareDecodingException e) {
      problem = "table " + codec.table() + ": the shares of this version do not decode: " + e.getMessage();
    } catch (IOException | RuntimeException e) {
      problem = e.getMessage();
    }
    List<InspectedCell> out = new ArrayList<>();
    for (Map.Entry<Integer, Cell> share : shares.entrySet()) {
      int i = share.getKey();
      Cell cell = share.getValue();
      boolean bad = corrupt.contains(i);
      out.add(InspectedCell.builder(cell, InspectedCell.Kind.SHARE).cluster(clusters.get(i)).row(row)
          .qualifier(qualifier).value(bad ? null : value).policy(policy(family, qualifier))
          .problem(bad ? "table " + codec.table() + ": corrupt share on cluster " + clusters.get(i)
              + " (it disagrees with the other clusters' shares, which decode): run the table's repair" : problem)
          .protectedQualifier(protectedQualifier)
          .keyIds(new InspectedCell.KeyIds(codec.keyIdOf(CellUtil.cloneRow(cell), codec.schema().rowKeyPolicy().box(),
              keysetKeyIds), codec.qualifierKeyIdOf(CellUtil.cloneQualifier(cell), keysetKeyIds), OptionalInt.empty()))
          .expects(rowKeyed, false)
          .note("share " + (i + 1) + " of " + clusters.size())
          .build());
    }
    return out;
  }

  private ColumnPolicy policy(byte[] family, byte[] qualifier) {
    try {
      return qualifier == null ? null : codec.policy(family, qualifier);
    } catch (IOException e) {
      return null;
    }
  }
}
