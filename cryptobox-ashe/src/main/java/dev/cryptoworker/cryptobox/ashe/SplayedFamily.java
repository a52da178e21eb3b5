package dev.cryptoworker.cryptobox.ashe;

import dev.cryptoworker.cryptobox.expansion.DeclaredColumn;
import dev.cryptoworker.cryptobox.expansion.FamilyExpansion;
import dev.cryptoworker.cryptobox.expansion.FamilyStore;
import dev.cryptoworker.cryptobox.expansion.PresplitMeasure;
import dev.cryptoworker.cryptobox.expansion.Recount;
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
 * SPLASHE's stored columns of one family: each dimension (a column that declares values) and the
 * measures it splays are stored as its {@link SplayedDimension} says; other columns as themselves.
 * Every row that has a dimension stores the same cells whatever its value, so the stored cells do
 * not reveal its frequencies.
 */
final class SplayedFamily implements FamilyExpansion {
  private final FamilyStore store;
  private final Map<String, DeclaredColumn> listed = new LinkedHashMap<>();
  private final Map<String, SplayedDimension> dimensions = new HashMap<>();
  /** Measure to the dimension that splays it. */
  private final Map<String, SplayedDimension> splayedBy = new HashMap<>();

  SplayedFamily(FamilyStore store) {
    this.store = store;
    for (DeclaredColumn c : store.columns()) {
      listed.put(c.name(), c);
      // A dimension is the column that declares values (the schema rules allow them only on SPLASHE).
      if (!c.values().isEmpty()) {
        SplayedDimension d = new SplayedDimension(c, store);
        dimensions.put(c.name(), d);
        for (String measure : c.splays()) {
          splayedBy.put(measure, d);
        }
      }
    }
  }

  /** The listed base column of a stored splayed qualifier, or null if it is not one. */
  private String base(byte[] qualifier) {
    String base = SplayedDimension.base(qualifier);
    return base != null && listed.containsKey(base) ? base : null;
  }

  private String column(String name) {
    return "table " + store.table() + ", column " + store.family() + ":" + name;
  }

  @Override
  public Optional<PresplitMeasure> presplit(byte[] measure) {
    String name = new String(measure, StandardCharsets.UTF_8);
    return Optional.ofNullable(splayedBy.get(name)).map(d -> d.presplit(name));
  }

  @Override
  public Optional<StoredPart> storedPart(byte[] storedQualifier) {
    String base = base(storedQualifier);
    if (base == null) {
      return Optional.empty();
    }
    SplayedDimension d = dimensions.get(base);
    return Optional.of(d != null ? d.dimensionPart(storedQualifier) : new StoredPart(base, Optional.empty()));
  }

  /**
   * A dimension becomes its stored cells; a measure it splays is stored as itself plus its splayed
   * cells. Dimension and measures must be written together, so the splayed cells always agree with
   * the dimension.
   */
  @Override
  public List<CellValue> encode(byte[] row, List<CellValue> cells) throws IOException {
    Map<String, String> dimensionValues = new HashMap<>();
    Set<String> written = new HashSet<>();
    for (CellValue cell : cells) {
      String name = new String(cell.qualifier(), StandardCharsets.UTF_8);
      written.add(name);
      SplayedDimension d = dimensions.get(name);
      if (d != null) {
        String value = new String(cell.value(), StandardCharsets.UTF_8);
        if (!d.values().contains(value)) {
          // Not the value: it is plaintext the column protects, and messages end up in logs.
          throw new IllegalArgumentException(column(name) + " (SPLASHE): the value is not one of the "
              + d.values().size() + " values the schema declares");
        }
        dimensionValues.put(name, value);
      }
    }
    List<CellValue> out = new ArrayList<>();
    for (CellValue cell : cells) {
      String name = new String(cell.qualifier(), StandardCharsets.UTF_8);
      long ts = cell.timestamp();
      SplayedDimension dimension = dimensions.get(name);
      if (dimension != null) {
        for (String measure : dimension.splays()) {
          if (!written.contains(measure)) {
            throw new IllegalArgumentException(column(name) + " (SPLASHE): write its splayed measure '" + measure
                + "' in the same Put");
          }
        }
        out.addAll(dimension.encodeDimension(store, row, dimensionValues.get(name), ts));
        continue;
      }
      out.add(new CellValue(cell.qualifier(), ts, store.encodeValue(row, cell.qualifier(), cell.value())));
      SplayedDimension splaying = splayedBy.get(name);
      if (splaying != null) {
        String current = dimensionValues.get(splaying.name());
        if (current == null) {
          throw new IllegalArgumentException(column(name) + " (ASHE, splayed by " + splaying.name()
              + "): write the dimension '" + splaying.name() + "' in the same Put");
        }
        byte[] value = cell.value();
        long m = value.length == Integer.BYTES ? ByteBuffer.wrap(value).getInt() : ByteBuffer.wrap(value).getLong();
        out.addAll(splaying.encodeSplays(store, name, m, current, ts));
      }
    }
    return out;
  }

  /** Enhanced SPLASHE pads; basic SPLASHE stores each row alone. */
  @Override
  public boolean plansBatches() {
    return dimensions.values().stream().anyMatch(SplayedDimension::enhanced);
  }

  /** Enhanced dimensions re-count their tokens. */
  @Override
  public Optional<Recount> recount() {
    List<SplayedDimension> enhanced = dimensions.values().stream().filter(SplayedDimension::enhanced).toList();
    return enhanced.isEmpty() ? Optional.empty() : Optional.of(new TokenRecount(store, enhanced));
  }

  /** Plans each dimension's tokens over the batch's rows that hold one of its declared values. */
  @Override
  public void beginBatch(List<List<CellValue>> rows) throws IOException {
    for (SplayedDimension d : dimensions.values()) {
      if (!d.enhanced()) {
        continue; // basic SPLASHE stores each row alone: nothing to plan
      }
      byte[] name = d.name().getBytes(StandardCharsets.UTF_8);
      List<String> rowValues = new ArrayList<>(rows.size());
      for (List<CellValue> row : rows) {
        for (CellValue cell : row) {
          if (Arrays.equals(name, cell.qualifier())) {
            String value = new String(cell.value(), StandardCharsets.UTF_8);
            if (d.values().contains(value)) { // a row whose value is not declared fails alone when encoded
              rowValues.add(value);
            }
          }
        }
      }
      d.beginBatch(rowValues);
    }
  }

  @Override
  public void endBatch() {
    for (SplayedDimension d : dimensions.values()) {
      d.endBatch();
    }
  }

  @Override
  public List<byte[]> storedQualifiers(byte[] qualifier, boolean forDelete) {
    String name = new String(qualifier, StandardCharsets.UTF_8);
    SplayedDimension dimension = dimensions.get(name);
    if (dimension != null) {
      return dimension.dimensionQualifiers(forDelete);
    }
    List<byte[]> out = new ArrayList<>();
    out.add(qualifier);
    SplayedDimension splaying = splayedBy.get(name);
    if (forDelete && splaying != null) {
      out.addAll(splaying.splayQualifiers(name));
    }
    return out;
  }

  /**
   * The cell that says a dimension's value becomes that value; its other cells and the splayed
   * copies of measures are internal and dropped.
   */
  @Override
  public Optional<CellValue> decode(byte[] row, CellValue stored) throws IOException, GeneralSecurityException {
    byte[] storedQualifier = stored.qualifier();
    String base = base(storedQualifier);
    if (base == null) {
      return Optional.of(new CellValue(storedQualifier, stored.timestamp(),
          store.decodeValue(row, storedQualifier, stored.value())));
    }
    SplayedDimension dimension = dimensions.get(base);
    if (dimension == null) {
      return Optional.empty();
    }
    return dimension.decodeDimension(store, row, stored).map(value -> new CellValue(
        base.getBytes(StandardCharsets.UTF_8), stored.timestamp(), value.getBytes(StandardCharsets.UTF_8)));
  }
}
