package dev.cryptoworker.client;

import dev.cryptoworker.cryptobox.BoxKind;
import dev.cryptoworker.schema.ColumnPolicy;
import dev.cryptoworker.schema.FamilySchema;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.NavigableSet;
import java.util.TreeMap;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
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
final class OperationEncoder {
  private final TableCodec codec;
  private final FilterTranslator filters;

  OperationEncoder(TableCodec codec, FilterTranslator filters) {
    this.codec = codec;
    this.filters = filters;
  }

  /** Encodes a row key for a point operation (Get, Delete, check), which STD keys cannot serve. */
  byte[] encodePointRow(byte[] row, String operation) throws IOException {
    if (codec.rowKeyBox() == BoxKind.STD) {
      throw new UnsupportedSecureOperationException(
          codec.table(), "row key (STD)",
          operation + " by row key is impossible: STD row keys are randomized, so equal keys are"
              + " stored as different bytes; STD-keyed tables support only full scans");
    }
    return codec.encodeRow(row);
  }

  Put encode(Put put) throws IOException {
    byte[] row = put.getRow();
    byte[] storedRow = codec.encodeRow(row);
    Put out = new Put(storedRow, put.getTimestamp());
    for (Map.Entry<byte[], List<Cell>> e : put.getFamilyCellMap().entrySet()) {
      byte[] family = e.getKey();
      FamilySchema familySchema = codec.familySchema(family);
      if (familySchema.hasSplayedColumns()) {
        encodeSplayedFamily(row, family, familySchema, e.getValue(), out);
        continue;
      }
      for (Cell cell : e.getValue()) {
        byte[] qualifier = CellUtil.cloneQualifier(cell);
        out.addColumn(
            family,
            codec.encodeQualifier(family, qualifier),
            cell.getTimestamp(),
            codec.encodeValue(row, family, qualifier, CellUtil.cloneValue(cell)));
      }
    }
    copyMutationSettings(put, out);
    return out;
  }

  /**
   * SPLASHE: a dimension becomes its k ASHE indicators; a measure it splays is stored as itself
   * plus k splayed ASHE cells. Dimension and measures must be written together, so the splayed
   * cells always agree with the dimension.
   */
  private void encodeSplayedFamily(byte[] row, byte[] family, FamilySchema f, List<Cell> cells, Put out)
      throws IOException {
    Map<String, String> dimensionValues = new java.util.HashMap<>();
    java.util.Set<String> written = new java.util.HashSet<>();
    for (Cell cell : cells) {
      String name = Bytes.toString(CellUtil.cloneQualifier(cell));
      written.add(name);
      if (SplayedColumns.isDimension(f, name)) {
        String value = Bytes.toString(CellUtil.cloneValue(cell));
        if (!f.policyFor(name).values().contains(value)) {
          throw new IllegalArgumentException("table " + codec.table() + ", column " + f.name() + ":" + name
              + " (SPLASHE): value '" + value + "' is not one of " + f.policyFor(name).values());
        }
        dimensionValues.put(name, value);
      }
    }
    for (Cell cell : cells) {
      byte[] qualifier = CellUtil.cloneQualifier(cell);
      String name = Bytes.toString(qualifier);
      long ts = cell.getTimestamp();
      if (SplayedColumns.isDimension(f, name)) {
        ColumnPolicy p = f.policyFor(name);
        for (String measure : p.splays()) {
          if (!written.contains(measure)) {
            throw new IllegalArgumentException("table " + codec.table() + ", column " + f.name() + ":" + name
                + " (SPLASHE): write its splayed measure '" + measure + "' in the same Put");
          }
        }
        for (String v : p.values()) {
          byte[] q = SplayedColumns.qualifier(name, v);
          out.addColumn(family, q, ts, codec.encodeSplayed(family, q, v.equals(dimensionValues.get(name)) ? 1 : 0));
        }
        continue;
      }
      byte[] value = CellUtil.cloneValue(cell);
      out.addColumn(family, qualifier, ts, codec.encodeValue(row, family, qualifier, value));
      String dimension = f.splayedBy(name).orElse(null);
      if (dimension != null) {
        String current = dimensionValues.get(dimension);
        if (current == null) {
          throw new IllegalArgumentException("table " + codec.table() + ", column " + f.name() + ":" + name
              + " (ASHE, splayed by " + dimension + "): write the dimension '" + dimension + "' in the same Put");
        }
        long m = value.length == 4 ? Bytes.toInt(value) : Bytes.toLong(value);
        for (String v : f.policyFor(dimension).values()) {
          byte[] q = SplayedColumns.qualifier(name, v);
          out.addColumn(family, q, ts, codec.encodeSplayed(family, q, v.equals(current) ? m : 0));
        }
      }
    }
  }

  /** The stored qualifiers of a column: SPLASHE dimensions and splayed measures have several. */
  private List<byte[]> storedQualifiers(byte[] family, byte[] qualifier, boolean withSplays) throws IOException {
    FamilySchema f = codec.familySchema(family);
    String name = Bytes.toString(qualifier);
    if (!f.hasSplayedColumns()) {
      return List.of(codec.encodeQualifier(family, qualifier));
    }
    List<byte[]> out = new java.util.ArrayList<>();
    if (SplayedColumns.isDimension(f, name)) {
      for (String v : f.policyFor(name).values()) {
        out.add(SplayedColumns.qualifier(name, v));
      }
      return out;
    }
    out.add(qualifier);
    String dimension = f.splayedBy(name).orElse(null);
    if (withSplays && dimension != null) {
      for (String v : f.policyFor(dimension).values()) {
        out.add(SplayedColumns.qualifier(name, v));
      }
    }
    return out;
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
    if (codec.policy(family, qualifier).box() != BoxKind.PLAIN) {
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
    if (cam.hasFilter()) {
      FilterTranslator.Translation t = filters.translate(cam.getFilter(), false);
      b.ifMatches(t.serverFilter());
    } else {
      byte[] family = cam.getFamily();
      byte[] qualifier = cam.getQualifier();
      byte[] value = cam.getValue();
      ColumnPolicy policy = codec.policy(family, qualifier);
      byte[] storedValue = value;
      boolean exactOrderPreserving =
          policy.box() == BoxKind.OPE && !codec.orderPreservingBox(family, qualifier).hasCompanion();
      if (value != null && exactOrderPreserving) {
        // Deterministic and monotone, no companion bytes: every comparison holds on ciphertext.
        storedValue = codec.encodeValue(row, family, qualifier, value);
      } else if (value != null && policy.box() != BoxKind.PLAIN) {
        boolean equality =
            cam.getCompareOp() == org.apache.hadoop.hbase.CompareOperator.EQUAL
                || cam.getCompareOp() == org.apache.hadoop.hbase.CompareOperator.NOT_EQUAL;
        if (policy.box() != BoxKind.DET || !equality) {
          throw new UnsupportedSecureOperationException(
              codec.table(), codec.describeColumn(family, qualifier),
              "checkAndMutate condition " + cam.getCompareOp() + " cannot be evaluated on "
                  + policy.box() + " ciphertext (supported: any comparison on PLAIN columns and OPE"
                  + " columns without companion, EQUAL/NOT_EQUAL on DET columns, existence checks on any"
                  + " column)");
        }
        storedValue = codec.encodeDeterministicOperand(family, qualifier, value);
      }
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
      if (!a.getKey().equals(SecureScans.CLIENT_SIDE_ATTRIBUTE)) {
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
        NavigableSet<byte[]> qs = new java.util.TreeSet<>(Bytes.BYTES_COMPARATOR);
        for (byte[] q : e.getValue()) {
          qs.addAll(storedQualifiers(e.getKey(), q, false));
        }
        out.put(e.getKey(), qs);
      }
    }
    return out;
  }
}
