package dev.cryptoworker.cryptobox.ashe;

import dev.cryptoworker.cryptobox.BoxKind;
import dev.cryptoworker.cryptobox.expansion.DeclaredColumn;
import dev.cryptoworker.cryptobox.expansion.FamilyExpansion.CellValue;
import dev.cryptoworker.cryptobox.expansion.FamilyStore;
import dev.cryptoworker.cryptobox.expansion.PresplitMeasure;
import dev.cryptoworker.cryptobox.expansion.StoredPart;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The stored form of one SPLASHE dimension {@code d} and of the measures it splays. Each frequent
 * value {@code f} (basic SPLASHE: every declared value) has an ASHE 0/1 indicator {@code d NUL f}
 * and, per measure {@code s}, a splayed ASHE cell {@code s NUL f}. Enhanced SPLASHE (some values
 * declared frequent) stores the other, infrequent, values in one shared slot: an ASHE indicator
 * {@code d NUL NUL count} and, per measure, {@code s NUL NUL sum} (the row's measure if its value is
 * infrequent, else 0), told apart by a DET token {@code d NUL NUL token} of the row's value. A row
 * of a frequent value shows, in its token, the infrequent value all writers have shown least
 * ({@link InfrequentPadding}), with 0 in the shared slot, so tokens appear equally often; its
 * value, for reads, is the ASHE number {@code d NUL NUL value} (its index in the declared list).
 * Every row stores the same cells whatever its value. Declared values never contain NUL, so the
 * shared slot's names cannot collide with a value's.
 */
final class SplayedDimension {
  private static final byte SEPARATOR = 0;
  private static final String TOKEN = "\0token";
  private static final String COUNT = "\0count";
  private static final String VALUE = "\0value";
  private static final String SUM = "\0sum";
  private static final Optional<BoxKind> NUMBERS = Optional.of(BoxKind.ASHE);

  private final String name;
  private final List<String> values;
  private final List<String> frequent;
  private final List<String> infrequent;
  private final List<String> splays;
  /** Null for basic SPLASHE. */
  private final InfrequentPadding padding;

  SplayedDimension(DeclaredColumn column, FamilyStore store) {
    this.name = column.name();
    this.values = column.values();
    this.frequent = column.frequent().isEmpty() ? values : column.frequent();
    this.infrequent = values.stream().filter(v -> !frequent.contains(v)).toList();
    this.splays = column.splays();
    this.padding = infrequent.isEmpty() ? null
        : new InfrequentPadding(infrequent, store.sharedCounts(qualifier(name, TOKEN)));
  }

  String name() {
    return name;
  }

  List<String> splays() {
    return splays;
  }

  List<String> values() {
    return values;
  }

  boolean enhanced() {
    return padding != null;
  }

  /** The stored qualifier of {@code base}'s cell for {@code part} (a declared value or a shared slot's). */
  static byte[] qualifier(String base, String part) {
    byte[] b = base.getBytes(StandardCharsets.UTF_8);
    byte[] v = part.getBytes(StandardCharsets.UTF_8);
    byte[] out = Arrays.copyOf(b, b.length + 1 + v.length);
    out[b.length] = SEPARATOR;
    System.arraycopy(v, 0, out, b.length + 1, v.length);
    return out;
  }

  /** The base column of a stored splayed qualifier, or null if it has no separator. */
  static String base(byte[] qualifier) {
    int i = separator(qualifier);
    return i < 0 ? null : new String(qualifier, 0, i, StandardCharsets.UTF_8);
  }

  /** The part after the base column's name and separator. */
  private static String part(byte[] qualifier) {
    int i = separator(qualifier);
    return new String(qualifier, i + 1, qualifier.length - i - 1, StandardCharsets.UTF_8);
  }

  private static int separator(byte[] qualifier) {
    for (int i = 0; i < qualifier.length; i++) {
      if (qualifier[i] == SEPARATOR) {
        return i;
      }
    }
    return -1;
  }

  /**
   * Plans the tokens of a batch whose rows hold {@code rowValues}, for the {@link #encodeDimension}
   * calls that follow on this thread until {@link #endBatch}.
   */
  void beginBatch(List<String> rowValues) throws IOException {
    if (enhanced()) {
      padding.begin(rowValues);
    }
  }

  void endBatch() {
    if (enhanced()) {
      padding.end();
    }
  }

  /** The stored qualifier of the enhanced dimension's token. */
  byte[] tokenQualifier() {
    return qualifier(name, TOKEN);
  }

  /**
   * The infrequent value a stored token shows.
   *
   * @throws GeneralSecurityException if it decrypts to another value
   */
  String tokenValue(FamilyStore store, byte[] row, byte[] stored) throws IOException, GeneralSecurityException {
    String value = new String(store.decodeValue(row, tokenQualifier(), stored), StandardCharsets.UTF_8);
    if (!infrequent.contains(value)) {
      throw new GeneralSecurityException("the token decrypts to none of the " + infrequent.size()
          + " infrequent values: the stored cells were altered");
    }
    return value;
  }

  /** Sets the shared counts of the tokens to {@code stored}; returns by how much they moved. */
  long recount(Map<String, Long> stored) throws IOException {
    return padding.recount(stored);
  }

  /** The stored cells of the dimension holding {@code value}, a declared value. */
  List<CellValue> encodeDimension(FamilyStore store, byte[] row, String value, long ts) throws IOException {
    List<CellValue> out = new ArrayList<>();
    for (String f : frequent) {
      out.add(number(store, qualifier(name, f), ts, f.equals(value) ? 1 : 0));
    }
    if (enhanced()) {
      boolean isInfrequent = infrequent.contains(value);
      String shown = padding.shown(value);
      byte[] token = qualifier(name, TOKEN);
      out.add(new CellValue(token, ts, store.encodeValue(row, token, shown.getBytes(StandardCharsets.UTF_8))));
      out.add(number(store, qualifier(name, COUNT), ts, isInfrequent ? 1 : 0));
      out.add(number(store, qualifier(name, VALUE), ts, values.indexOf(value)));
    }
    return out;
  }

  /** The splayed cells of measure {@code measure} holding {@code m} in a row whose dimension holds {@code value}. */
  List<CellValue> encodeSplays(FamilyStore store, String measure, long m, String value, long ts) throws IOException {
    List<CellValue> out = new ArrayList<>();
    for (String f : frequent) {
      out.add(number(store, qualifier(measure, f), ts, f.equals(value) ? m : 0));
    }
    if (enhanced()) {
      out.add(number(store, qualifier(measure, SUM), ts, infrequent.contains(value) ? m : 0));
    }
    return out;
  }

  private static CellValue number(FamilyStore store, byte[] q, long ts, long n) throws IOException {
    return new CellValue(q, ts, store.encodeNumber(q, n));
  }

  /** The dimension's stored qualifiers: those a read needs, or ({@code forDelete}) all. */
  List<byte[]> dimensionQualifiers(boolean forDelete) {
    List<byte[]> out = new ArrayList<>();
    if (enhanced()) {
      out.add(qualifier(name, VALUE));
      if (!forDelete) {
        return out;
      }
      out.add(qualifier(name, TOKEN));
      out.add(qualifier(name, COUNT));
    }
    for (String f : frequent) {
      out.add(qualifier(name, f));
    }
    return out;
  }

  /** The splayed qualifiers of {@code measure}, deleted with it. */
  List<byte[]> splayQualifiers(String measure) {
    List<byte[]> out = new ArrayList<>();
    for (String f : frequent) {
      out.add(qualifier(measure, f));
    }
    if (enhanced()) {
      out.add(qualifier(measure, SUM));
    }
    return out;
  }

  /** What a stored qualifier of the dimension itself holds: its token is DET, the rest ASHE numbers. */
  StoredPart dimensionPart(byte[] storedQualifier) {
    return enhanced() && TOKEN.equals(part(storedQualifier)) ? StoredPart.ownBox(name, BoxKind.DET)
        : new StoredPart(name, NUMBERS);
  }

  /**
   * The dimension's value from one of its stored cells, or empty if the cell does not say it (basic:
   * an indicator of 0; enhanced: every cell but the value's).
   *
   * @throws GeneralSecurityException if the cell decrypts to what no writer stores
   */
  Optional<String> decodeDimension(FamilyStore store, byte[] row, CellValue stored)
      throws IOException, GeneralSecurityException {
    String part = part(stored.qualifier());
    if (enhanced()) {
      if (!VALUE.equals(part)) {
        return Optional.empty();
      }
      long index = store.decodeNumber(row, stored.qualifier(), stored.value());
      if (index < 0 || index >= values.size()) {
        throw new GeneralSecurityException("the value's index decrypts to " + index + ", outside the "
            + values.size() + " declared values: the stored cells were altered");
      }
      return Optional.of(values.get((int) index));
    }
    long indicator = store.decodeNumber(row, stored.qualifier(), stored.value());
    if (indicator == 0) {
      return Optional.empty();
    }
    if (indicator != 1) {
      throw new GeneralSecurityException("indicator decrypts to " + indicator
          + ", neither 0 nor 1: the stored cells were altered");
    }
    return Optional.of(part);
  }

  /**
   * How {@code measure} is split: a frequent value's own columns over every row; an infrequent
   * value's shared columns over the rows whose token is that value's.
   */
  PresplitMeasure presplit(String measure) {
    List<PresplitMeasure.Part> parts = new ArrayList<>();
    for (String v : values) {
      parts.add(frequent.contains(v) ? new PresplitMeasure.Part(v, qualifier(measure, v), qualifier(name, v))
          : new PresplitMeasure.Part(v, qualifier(measure, SUM), qualifier(name, COUNT), Optional.of(
              new PresplitMeasure.RowCondition(qualifier(name, TOKEN), v.getBytes(StandardCharsets.UTF_8)))));
    }
    return new PresplitMeasure(name, parts);
  }
}
