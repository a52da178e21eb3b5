package dev.cryptoworker.cryptobox.ashe;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Collections;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;

/**
 * The identifiers of a sum, one {@link IdSet} per lease nonce: ASHE's PRF input is the pair (nonce,
 * identifier), so runs only telescope within one nonce. Keyless, like {@link IdSet}; nonces in
 * unsigned order. Mutable and not thread-safe.
 *
 * <p>Bytes: when every identifier is under nonce 0 (legacy cells only), exactly {@link IdSetCodec}'s
 * form, as before nonces existed, so earlier clients still read sums of legacy cells. Otherwise
 * {@code 0x02 || group count || per group: nonce (8) || length || IdSetCodec bytes}, counts and
 * lengths as variable-byte integers, nonces strictly increasing; {@code 0x02} stands where
 * IdSetCodec's layout byte (0 or 1) would, so an earlier client refuses such a sum instead of
 * decrypting it wrongly.
 */
public final class IdSetsByNonce {
  private static final int GROUPED = 2;
  private static final int MIN_GROUP_BYTES = 8 + 1 + 2;

  private final TreeMap<Long, IdSet> sets = new TreeMap<>(Long::compareUnsigned);
  private long size;
  // The set of the last nonce added to: a region's cells come in long stretches of one nonce.
  private long lastNonce;
  private IdSet last;

  /**
   * Adds identifier {@code id} under {@code nonce}.
   *
   * @throws IllegalArgumentException if the pair is already present, or {@code id} is not positive
   */
  public IdSetsByNonce add(long nonce, long id) {
    if (last == null || nonce != lastNonce) {
      last = sets.computeIfAbsent(nonce, n -> new IdSet());
      lastNonce = nonce;
    }
    last.add(id);
    size++;
    return this;
  }

  /**
   * Adds every pair of {@code other}.
   *
   * @throws IllegalArgumentException if a pair is in both
   */
  public IdSetsByNonce addAll(IdSetsByNonce other) {
    for (Map.Entry<Long, IdSet> e : other.sets.entrySet()) {
      sets.computeIfAbsent(e.getKey(), n -> new IdSet()).addAll(e.getValue());
      size += e.getValue().size();
    }
    return this;
  }

  /** The number of identifiers, over every nonce. */
  public long size() {
    return size;
  }

  /** The identifier set of each nonce that has one, in unsigned nonce order (a read-only view). */
  public NavigableMap<Long, IdSet> byNonce() {
    return Collections.unmodifiableNavigableMap(sets);
  }

  /** The bytes described above. */
  public byte[] toBytes() {
    if (sets.isEmpty() || (sets.size() == 1 && sets.firstKey() == 0)) {
      return IdSetCodec.encode(sets.isEmpty() ? new IdSet() : sets.firstEntry().getValue());
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(GROUPED);
    IdSetCodec.writeVarLong(out, sets.size());
    for (Map.Entry<Long, IdSet> e : sets.entrySet()) {
      byte[] ids = IdSetCodec.encode(e.getValue());
      out.writeBytes(ByteBuffer.allocate(8).putLong(e.getKey()).array());
      IdSetCodec.writeVarLong(out, ids.length);
      out.writeBytes(ids);
    }
    return out.toByteArray();
  }

  /**
   * Parses {@link #toBytes()}.
   *
   * @throws IllegalArgumentException if malformed: truncated, trailing bytes, a count beyond the
   *     input, an empty group, nonces not strictly increasing, or a lone nonce-0 group in the
   *     grouped form
   */
  public static IdSetsByNonce parse(byte[] bytes) {
    IdSetsByNonce out = new IdSetsByNonce();
    if (bytes.length == 0 || bytes[0] != GROUPED) {
      IdSet legacy = IdSetCodec.decode(bytes);
      if (legacy.size() > 0) {
        out.put(0, legacy);
      }
      return out;
    }
    int[] pos = {1};
    long groups = IdSetCodec.readVarLong(bytes, pos);
    if (groups < 1 || groups > bytes.length / MIN_GROUP_BYTES) {
      throw new IllegalArgumentException("identifier sets claim " + groups + " nonces in " + bytes.length + " bytes");
    }
    for (long g = 0; g < groups; g++) {
      if (bytes.length - pos[0] < 8) {
        throw new IllegalArgumentException("identifier sets truncated");
      }
      long nonce = ByteBuffer.wrap(bytes, pos[0], 8).getLong();
      pos[0] += 8;
      if (!out.sets.isEmpty() && Long.compareUnsigned(nonce, out.sets.lastKey()) <= 0) {
        throw new IllegalArgumentException("identifier sets: nonces out of order or repeated");
      }
      long length = IdSetCodec.readVarLong(bytes, pos);
      if (length < 1 || length > bytes.length - pos[0]) {
        throw new IllegalArgumentException("identifier sets: a group of " + length + " bytes in "
            + (bytes.length - pos[0]) + " remaining");
      }
      IdSet set = IdSetCodec.decode(Arrays.copyOfRange(bytes, pos[0], pos[0] + (int) length));
      pos[0] += (int) length;
      if (set.size() == 0) {
        throw new IllegalArgumentException("identifier sets: an empty group");
      }
      out.put(nonce, set);
    }
    if (pos[0] != bytes.length) {
      throw new IllegalArgumentException("trailing bytes after identifier sets");
    }
    if (groups == 1 && out.sets.firstKey() == 0) {
      throw new IllegalArgumentException("identifier sets: legacy identifiers alone in the grouped form");
    }
    return out;
  }

  private void put(long nonce, IdSet set) {
    sets.put(nonce, set);
    size += set.size();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof IdSetsByNonce s && sets.equals(s.sets);
  }

  @Override
  public int hashCode() {
    return sets.hashCode();
  }

  @Override
  public String toString() {
    return "IdSetsByNonce" + sets;
  }
}
