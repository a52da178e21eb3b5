package dev.cryptoworker.client.codec;

import dev.cryptoworker.client.CellDecodingException;
import dev.cryptoworker.cryptobox.BoxKind;
import dev.cryptoworker.schema.ColumnPolicy;
import dev.cryptoworker.schema.FamilySchema;
import dev.cryptoworker.schema.ValueType;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * SPLASHE's stored columns, all in one place: dimension {@code d} with values v1..vk is stored as
 * ASHE 0/1 indicators {@code d NUL v}, and a measure {@code s} it splays as {@code s} (the total)
 * plus {@code s NUL v} (the value where the row's dimension is v, else 0). Every row that has the
 * dimension stores all k indicators and all k splayed cells, whatever its value, so the stored
 * cells reveal nothing about the dimension's frequencies.
 */
public final class SplayedColumns implements ColumnExpansion {
  static final byte SEPARATOR = 0;
  private static final ColumnPolicy INDICATOR_POLICY = ColumnPolicy.of(BoxKind.ASHE, ValueType.LONG); // kind: SPLASHE's indicators are ASHE

  private final TableCodec codec;
  private final FamilySchema family;
  private final String table;

  public SplayedColumns(TableCodec codec, FamilySchema family) {
    this.codec = codec;
    this.family = family;
    this.table = codec.table();
  }

  /** The stored qualifier of {@code base}'s copy for dimension value {@code value}. */
  private static byte[] qualifier(String base, String value) {
    byte[] b = base.getBytes(StandardCharsets.UTF_8);
    byte[] v = value.getBytes(StandardCharsets.UTF_8);
    byte[] out = Arrays.copyOf(b, b.length + 1 + v.length);
    out[b.length] = SEPARATOR;
    System.arraycopy(v, 0, out, b.length + 1, v.length);
    return out;
  }

  /** The base column of a stored splayed qualifier, or null if it is not one. */
  private static String base(byte[] qualifier) {
    for (int i = 0; i < qualifier.length; i++) {
      if (qualifier[i] == SEPARATOR) {
        return new String(qualifier, 0, i, StandardCharsets.UTF_8);
      }
    }
    return null;
  }

  /** The value part of a stored splayed qualifier. */
  private static String value(byte[] qualifier) {
    int i = Bytes.indexOf(qualifier, SEPARATOR);
    return new String(qualifier, i + 1, qualifier.length - i - 1, StandardCharsets.UTF_8);
  }

  /** A dimension is the column that declares values (the validator allows them only on SPLASHE). */
  private boolean isDimension(String qualifier) {
    return family.isListed(qualifier) && !family.policyFor(qualifier).values().isEmpty();
  }

  /** The dimension that splays {@code measure}, if any. */
  private Optional<String> dimensionOf(String measure) {
    return family.splayedBy(measure);
  }

  /** The declared values of {@code dimension}. */
  private List<String> valuesOf(String dimension) {
    return family.policyFor(dimension).values();
  }

  /** Sum of {@code measure NUL v}, count from the indicators {@code dimension NUL v}. */
  @Override
  public Optional<PresplitMeasure> presplit(byte[] measure) {
    String name = Bytes.toString(measure);
    return dimensionOf(name).map(dimension -> new PresplitMeasure(dimension, valuesOf(dimension).stream()
        .map(v -> new PresplitMeasure.Part(v, qualifier(name, v), qualifier(dimension, v))).toList()));
  }

  @Override
  public Optional<String> logicalColumn(byte[] storedQualifier) {
    String base = base(storedQualifier);
    return base != null && family.isListed(base) ? Optional.of(base) : Optional.empty();
  }

  @Override
  public Optional<ColumnPolicy> storedPolicy(byte[] storedQualifier) {
    return logicalColumn(storedQualifier).map(base -> isDimension(base) ? INDICATOR_POLICY : family.policyFor(base));
  }

  /**
   * A dimension becomes its k ASHE indicators; a measure it splays is stored as itself plus k
   * splayed ASHE cells. Dimension and measures must be written together, so the splayed cells
   * always agree with the dimension.
   */
  @Override
  public void encode(byte[] row, byte[] familyName, List<Cell> cells, Put out) throws IOException {
    Map<String, String> dimensionValues = new HashMap<>();
    Set<String> written = new HashSet<>();
    for (Cell cell : cells) {
      String name = Bytes.toString(CellUtil.cloneQualifier(cell));
      written.add(name);
      if (isDimension(name)) {
        String value = Bytes.toString(CellUtil.cloneValue(cell));
        if (!valuesOf(name).contains(value)) {
          // Not the value: it is plaintext the column protects, and messages end up in logs.
          throw new IllegalArgumentException("table " + table + ", column " + family.name() + ":" + name
              + " (SPLASHE): the value is not one of the " + valuesOf(name).size() + " values the schema declares");
        }
        dimensionValues.put(name, value);
      }
    }
    for (Cell cell : cells) {
      byte[] qualifier = CellUtil.cloneQualifier(cell);
      String name = Bytes.toString(qualifier);
      long ts = cell.getTimestamp();
      if (isDimension(name)) {
        for (String measure : family.policyFor(name).splays()) {
          if (!written.contains(measure)) {
            throw new IllegalArgumentException("table " + table + ", column " + family.name() + ":" + name
                + " (SPLASHE): write its splayed measure '" + measure + "' in the same Put");
          }
        }
        for (String v : valuesOf(name)) {
          byte[] q = qualifier(name, v);
          out.addColumn(familyName, q, ts, codec.encodeNumber(familyName, q, v.equals(dimensionValues.get(name)) ? 1 : 0));
        }
        continue;
      }
      byte[] value = CellUtil.cloneValue(cell);
      out.addColumn(familyName, qualifier, ts, codec.encodeValue(row, familyName, qualifier, value));
      String dimension = dimensionOf(name).orElse(null);
      if (dimension != null) {
        String current = dimensionValues.get(dimension);
        if (current == null) {
          throw new IllegalArgumentException("table " + table + ", column " + family.name() + ":" + name
              + " (ASHE, splayed by " + dimension + "): write the dimension '" + dimension + "' in the same Put");
        }
        long m = value.length == 4 ? Bytes.toInt(value) : Bytes.toLong(value);
        for (String v : valuesOf(dimension)) {
          byte[] q = qualifier(name, v);
          out.addColumn(familyName, q, ts, codec.encodeNumber(familyName, q, v.equals(current) ? m : 0));
        }
      }
    }
  }

  @Override
  public List<byte[]> storedQualifiers(byte[] familyName, byte[] qualifier, boolean forDelete) {
    String name = Bytes.toString(qualifier);
    List<byte[]> out = new ArrayList<>();
    if (isDimension(name)) {
      for (String v : valuesOf(name)) {
        out.add(qualifier(name, v));
      }
      return out;
    }
    out.add(qualifier);
    String dimension = dimensionOf(name).orElse(null);
    if (forDelete && dimension != null) {
      for (String v : valuesOf(dimension)) {
        out.add(qualifier(name, v));
      }
    }
    return out;
  }

  /**
   * An indicator of 1 becomes the dimension's value; indicators of 0 and the splayed copies of
   * measures are internal and dropped.
   */
  @Override
  public Cell decode(byte[] row, byte[] familyName, Cell stored) throws IOException {
    byte[] storedQualifier = CellUtil.cloneQualifier(stored);
    String base = logicalColumn(storedQualifier).orElse(null);
    if (base == null) {
      return OneCellPerColumn.decoded(row, familyName, storedQualifier, stored,
          codec.decodeValue(row, familyName, storedQualifier, CellUtil.cloneValue(stored)));
    }
    if (!isDimension(base)) {
      return null;
    }
    long indicator = codec.decodeNumber(row, familyName, storedQualifier, CellUtil.cloneValue(stored));
    if (indicator == 0) {
      return null;
    }
    if (indicator != 1) {
      throw new CellDecodingException(table, codec.printableRow(row),
          "column " + family.name() + ":" + base + " (SPLASHE)",
          "indicator decrypts to " + indicator + ", neither 0 nor 1: the stored cells were altered");
    }
    return OneCellPerColumn.decoded(row, familyName, Bytes.toBytes(base), stored, Bytes.toBytes(value(storedQualifier)));
  }
}
