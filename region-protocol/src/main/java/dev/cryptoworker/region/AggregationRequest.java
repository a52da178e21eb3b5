package dev.cryptoworker.region;

import java.io.ByteArrayOutputStream;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * What a client asks each region to aggregate: measure columns and how to add each, group-by
 * columns (all as stored), and whether to count rows and to form a group for rows lacking a group
 * value. Plain bytes (no protobuf), parsed defensively: a malformed request is refused, never
 * guessed.
 *
 * <p>Two wire forms. Version 1, what earlier clients send and what a request it can express is
 * still sent as (so that region servers of earlier versions answer it): {@code version (1) || mode
 * (1) || family || qualifier || groupFamily || groupQualifier}, each byte string with a 4-byte
 * length (empty group: no grouping); one measure, at most one group column, rows without the group
 * column skipped, no row count. Version 2, for the rest: {@code version (1) || measures (1) ||
 * (mode (1) || family || qualifier)* || groups (1) || (family || qualifier)* || flags (1)}, flags
 * bit 0: count rows, bit 1: form null groups.
 *
 * <p>Response: the scan returns, per region, one row whose cells are the partial results. Version 1:
 * in the measure's family, qualifier the group's stored bytes (empty without grouping), then for ASHE
 * the 4-byte key id. Version 2: qualifier the group tuple (per group column {@code 0} if the row
 * lacks it, else {@code 1 || length (4) || stored bytes}), the slot (1: the measure's index, or the
 * number of measures for the row count) and a 4-byte key id (0 unless ASHE). Values: for ASHE the
 * keyless sum ({@code AsheSum.toBytes()}), for PLAIN {@code sum (8) || count (8)}, for SHAMIR_P127 {@code
 * PrimeShareSum.toBytes()} ({@code index (1) || sum (16) || count (8)}), for the row count {@code count (8)}. {@link #responseQualifier} and {@link #responseKey} encode and decode them.
 *
 * @param measures the columns to add, at least one unless {@code countsRows}
 * @param groups the group-by columns (none: one group)
 * @param countsRows whether each region also counts its selected rows per group
 * @param formsNullGroups whether rows lacking a group column form groups of their own (SQL's null
 *     group) instead of being skipped
 */
public record AggregationRequest(List<Measure> measures, List<Column> groups, boolean countsRows,
    boolean formsNullGroups) implements RegionRequest {
  private static final byte VERSION_1 = 1;
  private static final byte VERSION_2 = 2;
  private static final int MAX_PART = 1 << 16;
  /** The most measures, and the most group columns, one request may name. */
  public static final int MAX_COLUMNS = 64;
  private static final byte ABSENT = 0;
  private static final byte PRESENT = 1;

  /** How values of a measure column are added. */
  public enum Mode {
    /** ASHE ciphertexts: added mod 2^64, identifier sets united (no key on the server). */
    ASHE,
    /** Plaintext 8-byte longs (or 4-byte ints): for unprotected columns and baselines. */
    PLAIN,
    /**
     * Shares of secret-sharing's SHAMIR_P127 (a SHARED table's cluster): their field elements added
     * mod 2^127 - 1 into one partial sum ({@code PrimeShareSum}), no key anywhere.
     */
    SHAMIR_P127
  }

  /** A stored column. */
  public record Column(byte[] family, byte[] qualifier) {
    public Column {
      if (family.length == 0 || qualifier.length == 0 || family.length > MAX_PART || qualifier.length > MAX_PART) {
        throw new IllegalArgumentException("a column needs a family and a qualifier of at most " + MAX_PART + " bytes");
      }
    }
  }

  /** A measure column and how its values are added. */
  public record Measure(Mode mode, Column column) {
    public Measure {
      Objects.requireNonNull(mode, "mode");
      Objects.requireNonNull(column, "column");
    }
  }

  /** Where a response cell belongs: its group (stored values, null where rows lack the column) and slot. */
  public record ResponseKey(List<byte[]> group, int slot) {}

  public AggregationRequest {
    measures = List.copyOf(measures);
    groups = List.copyOf(groups);
    if (measures.isEmpty() && !countsRows) {
      throw new IllegalArgumentException("an aggregation needs a measure or a row count");
    }
    if (measures.size() > MAX_COLUMNS || groups.size() > MAX_COLUMNS) {
      throw new IllegalArgumentException("at most " + MAX_COLUMNS + " measures and " + MAX_COLUMNS + " group columns");
    }
  }

  /** A request in version 1's terms (one measure, group column empty for none), as earlier clients send it. */
  public static AggregationRequest ofOneMeasure(Mode mode, byte[] family, byte[] qualifier, byte[] groupFamily,
      byte[] groupQualifier) {
    return new AggregationRequest(List.of(new Measure(mode, new Column(family, qualifier))),
        groupFamily.length == 0 ? List.of() : List.of(new Column(groupFamily, groupQualifier)), false, false);
  }

  public boolean grouped() {
    return !groups.isEmpty();
  }

  /** The slot of the row count in response keys: after the measures'. */
  public int rowCountSlot() {
    return measures.size();
  }

  /** Whether version 1, which earlier region servers answer, expresses this request. */
  private boolean firstVersion() {
    return measures.size() == 1 && groups.size() <= 1 && !countsRows && !formsNullGroups;
  }

  @Override
  public Kind kind() {
    return Kind.AGGREGATE;
  }

  /**
   * The qualifier of a region's partial result for {@code group} (stored values, null where the
   * row lacks the column) in {@code slot} under key version {@code keyId}.
   */
  public byte[] responseQualifier(List<byte[]> group, int slot, int keyId) {
    if (firstVersion()) {
      byte[] g = group.isEmpty() ? new byte[0] : group.get(0);
      return measures.get(0).mode() != Mode.ASHE ? g.clone()
          : ByteBuffer.allocate(g.length + 4).put(g).putInt(keyId).array();
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (byte[] value : group) {
      if (value == null) {
        out.write(ABSENT);
      } else {
        out.write(PRESENT);
        out.writeBytes(ByteBuffer.allocate(4).putInt(value.length).array());
        out.writeBytes(value);
      }
    }
    out.write(slot);
    out.writeBytes(ByteBuffer.allocate(4).putInt(keyId).array());
    return out.toByteArray();
  }

  /**
   * The group and slot of a response qualifier.
   *
   * @throws IllegalArgumentException if the qualifier is not a response to this request
   */
  public ResponseKey responseKey(byte[] responseQualifier) {
    if (firstVersion()) {
      boolean ashe = measures.get(0).mode() == Mode.ASHE;
      if (ashe && responseQualifier.length < 4) {
        throw new IllegalArgumentException("an ASHE partial's qualifier ends with a 4-byte key id");
      }
      byte[] g = ashe ? Arrays.copyOf(responseQualifier, responseQualifier.length - 4) : responseQualifier.clone();
      return new ResponseKey(grouped() ? Collections.singletonList(g) : List.of(), 0);
    }
    try {
      ByteBuffer b = ByteBuffer.wrap(responseQualifier);
      List<byte[]> group = new ArrayList<>();
      for (int i = 0; i < groups.size(); i++) {
        byte flag = b.get();
        if (flag == ABSENT && formsNullGroups) {
          group.add(null);
        } else if (flag == PRESENT) {
          group.add(bytes(b));
        } else {
          throw new IllegalArgumentException("bad group flag " + flag + " in a partial's qualifier");
        }
      }
      int slot = Byte.toUnsignedInt(b.get());
      b.getInt();
      if (b.hasRemaining() || slot > rowCountSlot() || (slot == rowCountSlot() && !countsRows)) {
        throw new IllegalArgumentException("malformed partial qualifier");
      }
      return new ResponseKey(group, slot);
    } catch (BufferUnderflowException e) {
      throw new IllegalArgumentException("partial qualifier truncated");
    }
  }

  @Override
  public byte[] toBytes() {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    if (firstVersion()) {
      Measure m = measures.get(0);
      out.write(VERSION_1);
      out.write(m.mode().ordinal());
      writeColumn(out, m.column());
      if (grouped()) {
        writeColumn(out, groups.get(0));
      } else {
        out.writeBytes(new byte[8]);
      }
      return out.toByteArray();
    }
    out.write(VERSION_2);
    out.write(measures.size());
    for (Measure m : measures) {
      out.write(m.mode().ordinal());
      writeColumn(out, m.column());
    }
    out.write(groups.size());
    for (Column c : groups) {
      writeColumn(out, c);
    }
    out.write((countsRows ? 1 : 0) | (formsNullGroups ? 2 : 0));
    return out.toByteArray();
  }

  private static void writeColumn(ByteArrayOutputStream out, Column c) {
    for (byte[] part : new byte[][] {c.family(), c.qualifier()}) {
      out.writeBytes(ByteBuffer.allocate(4).putInt(part.length).array());
      out.writeBytes(part);
    }
  }

  /**
   * Parses a request of either version.
   *
   * @throws IllegalArgumentException if malformed
   */
  public static AggregationRequest parse(byte[] bytes) {
    try {
      ByteBuffer b = ByteBuffer.wrap(bytes);
      byte version = b.get();
      if (version == VERSION_1) {
        Mode mode = mode(b.get());
        byte[][] parts = new byte[4][];
        for (int i = 0; i < 4; i++) {
          parts[i] = bytes(b);
        }
        if (b.hasRemaining() || parts[0].length == 0 || parts[1].length == 0
            || (parts[2].length == 0) != (parts[3].length == 0)) {
          throw new IllegalArgumentException("malformed aggregation request");
        }
        return ofOneMeasure(mode, parts[0], parts[1], parts[2], parts[3]);
      }
      if (version != VERSION_2) {
        throw new IllegalArgumentException("unsupported aggregation request version " + version);
      }
      List<Measure> measures = new ArrayList<>();
      for (int n = Byte.toUnsignedInt(b.get()); measures.size() < n; ) {
        Mode mode = mode(b.get());
        measures.add(new Measure(mode, new Column(bytes(b), bytes(b))));
      }
      List<Column> groups = new ArrayList<>();
      for (int n = Byte.toUnsignedInt(b.get()); groups.size() < n; ) {
        groups.add(new Column(bytes(b), bytes(b)));
      }
      byte flags = b.get();
      if (b.hasRemaining() || (flags & ~3) != 0) {
        throw new IllegalArgumentException("malformed aggregation request");
      }
      return new AggregationRequest(measures, groups, (flags & 1) != 0, (flags & 2) != 0);
    } catch (BufferUnderflowException e) {
      throw new IllegalArgumentException("aggregation request truncated");
    }
  }

  private static Mode mode(byte b) {
    if (b < 0 || b >= Mode.values().length) {
      throw new IllegalArgumentException("unknown aggregation mode " + b);
    }
    return Mode.values()[b];
  }

  private static byte[] bytes(ByteBuffer b) {
    int n = b.getInt();
    if (n < 0 || n > MAX_PART || n > b.remaining()) {
      throw new IllegalArgumentException("bad length " + n + " in aggregation request");
    }
    byte[] out = new byte[n];
    b.get(out);
    return out;
  }
}
