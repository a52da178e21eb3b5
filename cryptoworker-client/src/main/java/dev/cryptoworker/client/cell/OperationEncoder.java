package dev.cryptoworker.client.cell;

import dev.cryptoworker.client.SecureScans;
import dev.cryptoworker.client.UnsupportedSecureOperationException;
import dev.cryptoworker.client.codec.ColumnExpansion;
import dev.cryptoworker.client.codec.TableCodec;
import dev.cryptoworker.client.migrate.MigratingColumns;
import dev.cryptoworker.client.spi.BulkLoadBatch;
import dev.cryptoworker.cryptobox.CryptoBox;
import dev.cryptoworker.cryptobox.EqualityOnCiphertext;
import dev.cryptoworker.cryptobox.OrderOnCiphertext;
import dev.cryptoworker.cryptobox.PlaintextStorage;
import dev.cryptoworker.cryptobox.ValueIndex;
import dev.cryptoworker.searchindex.spi.SearchIndex;
import java.io.IOException;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableSet;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.CompareOperator;
import org.apache.hadoop.hbase.client.Append;
import org.apache.hadoop.hbase.client.CheckAndMutate;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Increment;
import org.apache.hadoop.hbase.client.Mutation;
import org.apache.hadoop.hbase.client.OperationWithAttributes;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Row;
import org.apache.hadoop.hbase.client.RowMutations;
import org.apache.hadoop.hbase.io.TimeRange;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * Encode for write and point-read operations: rewrites Put, Delete, Get, RowMutations and
 * CheckAndMutate so that HBase sees only ciphertext, and refuses what cannot be done on it.
 */
public final class OperationEncoder {
  private final TableCodec codec;
  private final FilterTranslator filters;
  /** The families whose expansions plan batches: fixed with the codec, so found once, not per batch. */
  private final List<byte[]> planningFamilies;

  public OperationEncoder(TableCodec codec, FilterTranslator filters) {
    this.codec = codec;
    this.filters = filters;
    this.planningFamilies = planningFamilies(codec);
  }

  /** Encodes a row key for a point operation (Get, Delete, check), which STD keys cannot serve. */
  byte[] encodePointRow(byte[] row, String operation) throws IOException {
    CryptoBox rowBox = codec.rowBox();
    if (rowBox.capability(EqualityOnCiphertext.class).isEmpty()) {
      throw new UnsupportedSecureOperationException(
          codec.table(), codec.describeRowKey(),
          operation + " by row key is impossible: " + rowBox.kind() + " row keys are randomized, so equal"
              + " keys are stored as different bytes; " + rowBox.kind() + "-keyed tables support only full scans");
    }
    return codec.encodeRow(row);
  }

  Put encode(Put put) throws IOException {
    byte[] row = put.getRow();
    codec.checkRowType(row);
    Put out = encodeCells(put, new Put(codec.encodeRow(row), put.getTimestamp()));
    copyMutationSettings(put, out);
    return out;
  }

  /** Adds the stored cells of {@code put}'s cells to {@code out} (whose row is already the stored one). */
  public Put encodeCells(Put put, Put out) throws IOException {
    for (Map.Entry<byte[], List<Cell>> e : put.getFamilyCellMap().entrySet()) {
      codec.expansion(e.getKey()).encode(put.getRow(), e.getKey(), e.getValue(), out);
    }
    return out;
  }

  /**
   * Shows the family expansions that plan batches ({@link ColumnExpansion#plansBatches}, enhanced
   * SPLASHE's padding) the puts among {@code actions}, for the {@link #encode(Put)} calls that
   * follow on this thread; call {@link #endBatch} after them, whatever happens.
   */
  void beginBatch(List<? extends Row> actions) throws IOException {
    if (planningFamilies.isEmpty()) {
      return;
    }
    Map<byte[], List<List<Cell>>> rows = new TreeMap<>(Bytes.BYTES_COMPARATOR);
    for (byte[] family : planningFamilies) {
      rows.put(family, new ArrayList<>());
    }
    for (Row action : actions) {
      if (action instanceof Put put) {
        put.getFamilyCellMap().forEach((family, cells) -> {
          List<List<Cell>> of = rows.get(family);
          if (of != null) {
            of.add(cells);
          }
        });
      }
    }
    for (Map.Entry<byte[], List<List<Cell>>> e : rows.entrySet()) {
      expansion(codec, e.getKey()).beginBatch(e.getValue());
    }
  }

  void endBatch() {
    for (byte[] family : planningFamilies) {
      expansion(codec, family).endBatch();
    }
  }

  private static List<byte[]> planningFamilies(TableCodec codec) {
    List<byte[]> out = new ArrayList<>();
    for (String family : codec.schema().families().keySet()) {
      byte[] name = Bytes.toBytes(family);
      if (expansion(codec, name).plansBatches()) {
        out.add(name);
      }
    }
    return List.copyOf(out);
  }

  /** The expansion of a family the schema lists. */
  private static ColumnExpansion expansion(TableCodec codec, byte[] family) {
    try {
      return codec.expansion(family);
    } catch (UnsupportedSecureOperationException e) {
      throw new IllegalStateException("the schema lists a family the codec lacks", e);
    }
  }

  /**
   * Takes the search-index entry numbers of every searchable value the puts among {@code actions}
   * write, in one round trip, for the {@link #encode(Put)} calls that follow on this thread; call
   * {@link #releaseSearchEntries} after them. {@code forBulkLoad}: what the entries need written
   * before the rows is kept for {@link #releaseSearchEntriesForBulkLoad} instead, not written.
   */
  void takeSearchEntriesAhead(List<? extends Row> actions, boolean forBulkLoad) throws IOException {
    if (!codec.hasSearchIndex()) {
      return; // no searchable cell to find (8% of a DET load's client CPU went to looking)
    }
    Map<Cell, ValueIndex> indexes = new IdentityHashMap<>();
    for (Row action : actions) {
      if (action instanceof Put put) {
        try {
          addSearchIndexes(put, indexes);
        } catch (IOException | RuntimeException e) {
          // This put cannot be encoded either: it fails alone when it is (one batch contract).
        }
      }
    }
    if (indexes.isEmpty()) {
      return;
    }
    if (forBulkLoad) {
      codec.searchIndex().orElseThrow().takeAheadForBulkLoad(indexes);
    } else {
      codec.searchIndex().orElseThrow().takeAhead(indexes);
    }
  }

  private void addSearchIndexes(Put put, Map<Cell, ValueIndex> out) throws IOException {
    Map<Cell, ValueIndex> indexes = new IdentityHashMap<>();
    for (Map.Entry<byte[], List<Cell>> e : put.getFamilyCellMap().entrySet()) {
      for (Cell cell : e.getValue()) {
        byte[] qualifier = CellUtil.cloneQualifier(cell);
        if (codec.isSearchable(e.getKey(), qualifier)) {
          indexes.put(cell, codec.writeIndex(e.getKey(), qualifier, CellUtil.cloneValue(cell)));
        }
      }
    }
    out.putAll(indexes); // all of the put's or none, as its encode will fail or not
  }

  void releaseSearchEntries() throws IOException {
    if (codec.searchIndex().isPresent()) {
      codec.searchIndex().get().releaseTaken();
    }
  }

  /**
   * Ends a batch whose entries were taken for a bulk load: the cells its rows need stored before
   * them, if any, with the table they belong to.
   */
  Optional<BulkLoadBatch.CellsOfTable> releaseSearchEntriesForBulkLoad() throws IOException {
    if (codec.searchIndex().isEmpty()) {
      return Optional.empty();
    }
    SearchIndex index = codec.searchIndex().get();
    List<Put> counts = index.releaseTakenForBulkLoad();
    return counts.isEmpty() ? Optional.empty() : Optional.of(new BulkLoadBatch.CellsOfTable(index.counterTable(), counts));
  }

  /** The stored qualifiers of a column: an expanded column (SPLASHE) has several. */
  private List<byte[]> storedQualifiers(byte[] family, byte[] qualifier, boolean forDelete) throws IOException {
    return codec.expansion(family).storedQualifiers(family, qualifier, forDelete);
  }

  Delete encode(Delete delete) throws IOException {
    Delete out = new Delete(encodePointRow(delete.getRow(), "Delete"), delete.getTimestamp());
    for (Map.Entry<byte[], List<Cell>> e : delete.getFamilyCellMap().entrySet()) {
      byte[] family = e.getKey();
      codec.familySchema(family); // refuses families outside the schema
      for (Cell cell : e.getValue()) {
        long ts = cell.getTimestamp();
        switch (cell.getType()) {
          case DeleteFamily:
            out.addFamily(family, ts);
            break;
          case DeleteFamilyVersion:
            out.addFamilyVersion(family, ts);
            break;
          case DeleteColumn:
            for (byte[] q : storedQualifiers(family, CellUtil.cloneQualifier(cell), true)) {
              out.addColumns(family, q, ts);
            }
            break;
          case Delete:
            for (byte[] q : storedQualifiers(family, CellUtil.cloneQualifier(cell), true)) {
              out.addColumn(family, q, ts);
            }
            break;
          default:
            throw new IllegalArgumentException("unexpected cell type in a Delete: " + cell.getType());
        }
      }
    }
    copyMutationSettings(delete, out);
    return out;
  }

  /** Increments and appends compute on stored bytes: only possible on PLAIN columns. */
  Increment encode(Increment increment) throws IOException {
    Increment out = new Increment(encodePointRow(increment.getRow(), "Increment"));
    for (Map.Entry<byte[], List<Cell>> e : increment.getFamilyCellMap().entrySet()) {
      for (Cell cell : e.getValue()) {
        byte[] qualifier = CellUtil.cloneQualifier(cell);
        requirePlainColumn(e.getKey(), qualifier, "Increment");
        out.addColumn(
            e.getKey(), codec.encodeQualifier(e.getKey(), qualifier), Bytes.toLong(CellUtil.cloneValue(cell)));
      }
    }
    TimeRange tr = increment.getTimeRange();
    out.setTimeRange(tr.getMin(), tr.getMax());
    out.setReturnResults(increment.isReturnResults());
    copyMutationSettings(increment, out);
    return out;
  }

  Append encode(Append append) throws IOException {
    Append out = new Append(encodePointRow(append.getRow(), "Append"));
    for (Map.Entry<byte[], List<Cell>> e : append.getFamilyCellMap().entrySet()) {
      for (Cell cell : e.getValue()) {
        byte[] qualifier = CellUtil.cloneQualifier(cell);
        requirePlainColumn(e.getKey(), qualifier, "Append");
        out.addColumn(e.getKey(), codec.encodeQualifier(e.getKey(), qualifier), CellUtil.cloneValue(cell));
      }
    }
    TimeRange tr = append.getTimeRange();
    out.setTimeRange(tr.getMin(), tr.getMax());
    out.setReturnResults(append.isReturnResults());
    copyMutationSettings(append, out);
    return out;
  }

  private void requirePlainColumn(byte[] family, byte[] qualifier, String operation) throws IOException {
    if (codec.capability(family, qualifier, PlaintextStorage.class).isEmpty()) {
      throw new UnsupportedSecureOperationException(
          codec.table(), codec.describeColumn(family, qualifier),
          operation + " computes on stored bytes on the server, which is impossible on an encrypted"
              + " column; read, modify and write (with checkAndMutate) instead");
    }
  }

  Mutation encodeMutation(Mutation m) throws IOException {
    if (m instanceof Put) {
      return encode((Put) m);
    } else if (m instanceof Delete) {
      return encode((Delete) m);
    } else if (m instanceof Increment) {
      return encode((Increment) m);
    } else if (m instanceof Append) {
      return encode((Append) m);
    }
    throw new IllegalArgumentException("unsupported mutation type " + m.getClass().getName());
  }

  RowMutations encode(RowMutations rm) throws IOException {
    RowMutations out = new RowMutations(encodePointRow(rm.getRow(), "RowMutations"), rm.getMutations().size());
    for (Mutation m : rm.getMutations()) {
      out.add(encodeMutation(m));
    }
    return out;
  }

  Get encode(Get get) throws IOException {
    Get out = new Get(encodePointRow(get.getRow(), "Get"));
    for (Map.Entry<byte[], NavigableSet<byte[]>> e : get.getFamilyMap().entrySet()) {
      byte[] family = e.getKey();
      codec.familySchema(family);
      if (e.getValue() == null || e.getValue().isEmpty()) {
        out.addFamily(family);
      } else {
        for (byte[] q : e.getValue()) {
          for (byte[] stored : storedQualifiers(family, q, false)) {
            out.addColumn(family, stored);
          }
        }
      }
    }
    TimeRange tr = get.getTimeRange();
    if (!tr.isAllTime()) {
      out.setTimeRange(tr.getMin(), tr.getMax());
    }
    for (Map.Entry<byte[], TimeRange> e : get.getColumnFamilyTimeRange().entrySet()) {
      out.setColumnFamilyTimeRange(e.getKey(), e.getValue().getMin(), e.getValue().getMax());
    }
    out.readVersions(get.getMaxVersions());
    out.setMaxResultsPerColumnFamily(get.getMaxResultsPerColumnFamily());
    out.setRowOffsetPerColumnFamily(get.getRowOffsetPerColumnFamily());
    out.setCacheBlocks(get.getCacheBlocks());
    out.setCheckExistenceOnly(get.isCheckExistenceOnly());
    out.setConsistency(get.getConsistency());
    out.setReplicaId(get.getReplicaId());
    out.setIsolationLevel(get.getIsolationLevel());
    out.setPriority(get.getPriority());
    copyAttributes(get, out);
    FilterTranslator.Translation t =
        filters.translate(get.getFilter(), SecureScans.allowsClientSideEvaluation(get, filters.options()));
    if (t.clientResidual() != null) {
      throw new UnsupportedSecureOperationException(
          codec.table(), "filter " + get.getFilter().getClass().getSimpleName(),
          "Get filters must run on the server; this one cannot run on ciphertext. Use a Scan with"
              + " client-side evaluation instead");
    }
    out.setFilter(t.serverFilter());
    return out;
  }

  CheckAndMutate encode(CheckAndMutate cam) throws IOException {
    byte[] row = cam.getRow();
    CheckAndMutate.Builder b = CheckAndMutate.newBuilder(encodePointRow(row, "checkAndMutate"));
    if (cam.hasFilter() ? MigratingColumns.touchedBy(cam.getFilter(), codec)
        : codec.isMigrating(cam.getFamily(), cam.getQualifier())) {
      throw new UnsupportedSecureOperationException(codec.table(), "checkAndMutate condition",
          "it compares a column being migrated, whose stored cells are in two forms the server cannot compare"
              + " with one operand; retry when the migration is done");
    }
    if (cam.hasFilter()) {
      FilterTranslator.Translation t = filters.translate(cam.getFilter(), false);
      b.ifMatches(t.serverFilter());
    } else {
      byte[] family = cam.getFamily();
      byte[] qualifier = cam.getQualifier();
      byte[] value = cam.getValue();
      byte[] storedValue = value == null ? null : conditionOperand(row, family, qualifier, cam.getCompareOp(), value);
      b.ifMatches(family, codec.encodeQualifier(family, qualifier), cam.getCompareOp(), storedValue);
    }
    TimeRange tr = cam.getTimeRange();
    if (tr != null && !tr.isAllTime()) {
      b.timeRange(tr);
    }
    Row action = cam.getAction();
    if (action instanceof Put) {
      return b.build(encode((Put) action));
    } else if (action instanceof Delete) {
      return b.build(encode((Delete) action));
    } else if (action instanceof Increment) {
      return b.build(encode((Increment) action));
    } else if (action instanceof Append) {
      return b.build(encode((Append) action));
    } else if (action instanceof RowMutations) {
      return b.build(encode((RowMutations) action));
    }
    throw new IllegalArgumentException("unsupported checkAndMutate action " + action.getClass().getName());
  }

  /**
   * The stored operand of a checkAndMutate condition: as written on PLAIN columns; the primary
   * key's ciphertext where stored bytes are deterministic (any comparison if they also keep order,
   * OPE without companion; EQUAL/NOT_EQUAL otherwise, DET).
   */
  private byte[] conditionOperand(byte[] row, byte[] family, byte[] qualifier, CompareOperator op, byte[] value)
      throws IOException {
    CryptoBox box = codec.valueBox(family, qualifier);
    if (box.capability(PlaintextStorage.class).isPresent()) {
      return value;
    }
    boolean deterministic = box.capability(EqualityOnCiphertext.class).isPresent();
    boolean ordered = box.capability(OrderOnCiphertext.class).isPresent();
    boolean equality = op == CompareOperator.EQUAL || op == CompareOperator.NOT_EQUAL;
    if (!deterministic || (!ordered && !equality)) {
      throw new UnsupportedSecureOperationException(
          codec.table(), codec.describeColumn(family, qualifier),
          "checkAndMutate condition " + op + " cannot be evaluated on " + box.kind()
              + " ciphertext (supported: any comparison on PLAIN columns and OPE columns without companion,"
              + " EQUAL/NOT_EQUAL on DET columns, existence checks on any column)");
    }
    return codec.equalityOperands(family, qualifier, value).get(0);
  }

  /** Encodes one action of a batch. */
  Row encodeAction(Row action) throws IOException {
    if (action instanceof Get) {
      return encode((Get) action);
    } else if (action instanceof Mutation) {
      return encodeMutation((Mutation) action);
    } else if (action instanceof RowMutations) {
      return encode((RowMutations) action);
    } else if (action instanceof CheckAndMutate) {
      return encode((CheckAndMutate) action);
    }
    throw new IllegalArgumentException("unsupported batch action " + action.getClass().getName());
  }

  private static void copyMutationSettings(Mutation from, Mutation to) {
    to.setDurability(from.getDurability());
    if (from.getTTL() != Long.MAX_VALUE) {
      to.setTTL(from.getTTL());
    }
    to.setPriority(from.getPriority());
    copyAttributes(from, to);
  }

  static void copyAttributes(OperationWithAttributes from, OperationWithAttributes to) {
    for (Map.Entry<String, byte[]> a : from.getAttributesMap().entrySet()) {
      if (!SecureScans.isOption(a.getKey())) {
        to.setAttribute(a.getKey(), a.getValue());
      }
    }
  }

  /** A family map with qualifiers encoded, for Scan. */
  Map<byte[], NavigableSet<byte[]>> encodeFamilyMap(Map<byte[], NavigableSet<byte[]>> in) throws IOException {
    TreeMap<byte[], NavigableSet<byte[]>> out = new TreeMap<>(Bytes.BYTES_COMPARATOR);
    for (Map.Entry<byte[], NavigableSet<byte[]>> e : in.entrySet()) {
      codec.familySchema(e.getKey());
      if (e.getValue() == null) {
        out.put(e.getKey(), null);
      } else {
        NavigableSet<byte[]> qs = new TreeSet<>(Bytes.BYTES_COMPARATOR);
        for (byte[] q : e.getValue()) {
          qs.addAll(storedQualifiers(e.getKey(), q, false));
        }
        out.put(e.getKey(), qs);
      }
    }
    return out;
  }
}
