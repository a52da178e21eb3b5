package dev.cryptoworker.cryptobox.ashe;

import dev.cryptoworker.cryptobox.BoxKind;
import dev.cryptoworker.cryptobox.expansion.DeclaredColumn;
import dev.cryptoworker.cryptobox.expansion.FamilyExpansion;
import dev.cryptoworker.cryptobox.expansion.FamilyStore;
import dev.cryptoworker.cryptobox.expansion.PresplitMeasure;
import dev.cryptoworker.cryptobox.expansion.StoredPart;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * SPLASHE's stored columns, all in one place: dimension {@code d} with values v1..vk is stored as
 * ASHE 0/1 indicators {@code d NUL v}, and a measure {@code s} it splays as {@code s} (the total)
 * plus {@code s NUL v} (the value where the row's dimension is v, else 0). Every row that has the
 * dimension stores all k indicators and all k splayed cells, whatever its value, so the stored
 * cells reveal nothing about the dimension's frequencies.
 */
final class SplayedFamily implements FamilyExpansion {
  private static final byte SEPARATOR = 0;
  private static final Optional<BoxKind> INDICATORS = Optional.of(BoxKind.ASHE);

  private final FamilyStore store;
  private final Map<String, DeclaredColumn> listed = new LinkedHashMap<>();
  /** Measure to the dimension that splays it. */
  private final Map<String, String> splayedBy = new HashMap<>();

  SplayedFamily(FamilyStore store) {
    this.store = store;
    for (DeclaredColumn c : store.columns()) {
      listed.put(c.name(), c);
      for (String measure : c.splays()) {
        splayedBy.put(measure, c.name());
      }
    }
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

  private static int separator(byte[] qualifier) {
    for (int i = 0; i < qualifier.length; i++) {
      if (qualifier[i] == SEPARATOR) {
        return i;
      }
    }
    return -1;
  }

  /** The listed base column of a stored splayed qualifier, or null if it is not one. */
  private String base(byte[] qualifier) {
    int i = separator(qualifier);
    String base = i < 0 ? null : new String(qualifier, 0, i, StandardCharsets.UTF_8);
    return base != null && listed.containsKey(base) ? base : null;
  }

  /** The value part of a stored splayed qualifier. */
  private static String value(byte[] qualifier) {
    int i = separator(qualifier);
    return new String(qualifier, i + 1, qualifier.length - i - 1, StandardCharsets.UTF_8);
  }

  /** A dimension is the column that declares values (the schema rules allow them only on SPLASHE). */
  private boolean isDimension(String qualifier) {
    DeclaredColumn c = listed.get(qualifier);
    return c != null && !c.values().isEmpty();
  }

  private List<String> valuesOf(String dimension) {
    return listed.get(dimension).values();
  }

  private String column(String name) {
    return "table " + store.table() + ", column " + store.family() + ":" + name;
  }

  /** Sum of {@code measure NUL v}, count from the indicators {@code dimension NUL v}. */
  @Override
  public Optional<PresplitMeasure> presplit(byte[] measure) {
    String name = new String(measure, StandardCharsets.UTF_8);
    return Optional.ofNullable(splayedBy.get(name)).map(dimension -> new PresplitMeasure(dimension,
        valuesOf(dimension).stream().map(v -> new PresplitMeasure.Part(v, qualifier(name, v), qualifier(dimension, v)))
            .toList()));
  }

  @Override
  public Optional<StoredPart> storedPart(byte[] storedQualifier) {
    String base = base(storedQualifier);
    return base == null ? Optional.empty()
        : Optional.of(new StoredPart(base, isDimension(base) ? INDICATORS : Optional.empty()));
  }

  /**
   * A dimension becomes its k ASHE indicators; a measure it splays is stored as itself plus k
   * splayed ASHE cells. Dimension and measures must be written together, so the splayed cells
   * always agree with the dimension.
   */
  @Override
  public List<CellValue> encode(byte[] row, List<CellValue> cells) throws IOException {
    Map<String, String> dimensionValues = new HashMap<>();
    Set<String> written = new HashSet<>();
    for (CellValue cell : cells) {
      String name = new String(cell.qualifier(), StandardCharsets.UTF_8);
      written.add(name);
      if (isDimension(name)) {
        String value = new String(cell.value(), StandardCharsets.UTF_8);
        if (!valuesOf(name).contains(value)) {
          // Not the value: it is plaintext the column protects, and messages end up in logs.
          throw new IllegalArgumentException(column(name) + " (SPLASHE): the value is not one of the "
              + valuesOf(name).size() + " values the schema declares");
        }
        dimensionValues.put(name, value);
      }
    }
    List<CellValue> out = new ArrayList<>();
    for (CellValue cell : cells) {
      String name = new String(cell.qualifier(), StandardCharsets.UTF_8);
      long ts = cell.timestamp();
      if (isDimension(name)) {
        for (String measure : listed.get(name).splays()) {
          if (!written.contains(measure)) {
            throw new IllegalArgumentException(column(name) + " (SPLASHE): write its splayed measure '" + measure
                + "' in the same Put");
          }
        }
        for (String v : valuesOf(name)) {
          byte[] q = qualifier(name, v);
          out.add(new CellValue(q, ts, store.encodeNumber(q, v.equals(dimensionValues.get(name)) ? 1 : 0)));
        }
        continue;
      }
      out.add(new CellValue(cell.qualifier(), ts, store.encodeValue(row, cell.qualifier(), cell.value())));
      String dimension = splayedBy.get(name);
      if (dimension != null) {
        String current = dimensionValues.get(dimension);
        if (current == null) {
          throw new IllegalArgumentException(column(name) + " (ASHE, splayed by " + dimension
              + "): write the dimension '" + dimension + "' in the same Put");
        }
        byte[] value = cell.value();
        long m = value.length == Integer.BYTES ? ByteBuffer.wrap(value).getInt() : ByteBuffer.wrap(value).getLong();
        for (String v : valuesOf(dimension)) {
          byte[] q = qualifier(name, v);
          out.add(new CellValue(q, ts, store.encodeNumber(q, v.equals(current) ? m : 0)));
        }
      }
    }
    return out;
  }

  @Override
  public List<byte[]> storedQualifiers(byte[] qualifier, boolean forDelete) {
    String name = new String(qualifier, StandardCharsets.UTF_8);
    List<byte[]> out = new ArrayList<>();
    if (isDimension(name)) {
      for (String v : valuesOf(name)) {
        out.add(qualifier(name, v));
      }
      return out;
    }
    out.add(qualifier);
    String dimension = splayedBy.get(name);
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
  public Optional<CellValue> decode(byte[] row, CellValue stored) throws IOException, GeneralSecurityException {
    byte[] storedQualifier = stored.qualifier();
    String base = base(storedQualifier);
    if (base == null) {
      return Optional.of(new CellValue(storedQualifier, stored.timestamp(),
          store.decodeValue(row, storedQualifier, stored.value())));
    }
    if (!isDimension(base)) {
      return Optional.empty();
    }
    long indicator = store.decodeNumber(row, storedQualifier, stored.value());
    if (indicator == 0) {
      return Optional.empty();
    }
    if (indicator != 1) {
      throw new GeneralSecurityException("indicator decrypts to " + indicator
          + ", neither 0 nor 1: the stored cells were altered");
    }
    return Optional.of(new CellValue(base.getBytes(StandardCharsets.UTF_8), stored.timestamp(),
        value(storedQualifier).getBytes(StandardCharsets.UTF_8)));
  }
}
