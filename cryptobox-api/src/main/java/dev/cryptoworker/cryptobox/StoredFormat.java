package dev.cryptoworker.cryptobox;

import dev.cryptoworker.cryptobox.search.CounterTree;
import java.security.GeneralSecurityException;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.OptionalInt;
import java.util.stream.Collectors;

/**
 * How the keyed boxes (STD, DET, OPE) lay out a ciphertext's header, chosen per table and recorded
 * with it, so that tables keep the form they were written in.
 *
 * <ul>
 *   <li>{@link #V1}: the 5-byte {@link KeyIdPrefix} ({@code 0x01} and the 4-byte key id), byte for
 *       byte Tink's TINK output prefix. Every table created before format 2 existed.
 *   <li>{@link #V2}: a 1-byte header, the key id's low byte (the keys of a ring must differ in it;
 *       {@code cryptoworker keys rotate} picks ids that do), and DET values of at most 8 bytes as
 *       one enciphered AES block instead of SIV's 16 + n bytes. 4 bytes shorter per keyed
 *       ciphertext, 12 more for a DET row key of 8 bytes: the row key is repeated in every cell.
 *   <li>{@link #V3}: format 2, and SSE indexes keyed by the leaves of the {@link CounterTree#WIDE
 *       wide counter tree} (16 children per node, 8 levels, where formats 1 and 2 have 2 and 32),
 *       which costs a new value's first entry 8 HMACs instead of 32. Searches of a format-3 table
 *       need region servers with the coprocessor that reads wide tokens (this release on).
 *   <li>{@link #V4}: format 3, and STD values under XAES-256-GCM (192-bit nonces, a key derived
 *       per nonce) instead of AES-256-GCM's random 96-bit IVs, whose safe number per key was
 *       counted per process only: 12 bytes more per STD value ({@link #extendedNonces}).
 *   <li>{@link #V5}: format 4, and SSE values under XAES-256-GCM too ({@link
 *       #extendedNoncesForSearchableValues}), and each SSE value's counter name, counter mask, tree
 *       root and first entry key from one HMAC-SHA512 ({@link #oneMacSearchIndex}), so a new value
 *       costs one MAC where format 4 spends 3 and 8 tree nodes. Searches send the first entry as a
 *       one-leaf token, which region servers of format 3 on already read.
 *   <li>{@link #V6}: format 5, and writers number SSE entries in lanes of their own ({@link
 *       #writerLanes}), each lane's count a row of the counter table.
 *   <li>{@link #V7}: format 6, with the lane counts of a batch in one count-log cell of the counter
 *       table ({@link #countLogs}), which its regions index in memory, instead of a row per lane.
 *       Opt-in: its counter regions compact those logs into rows, which costs them about as much per
 *       new lane as format 6's rows (docs/performance.md).
 * </ul>
 *
 * ASHE and SSE cells keep format 1's header in all five: region servers parse them.
 */
public enum StoredFormat {
  V1(1, KeyIdPrefix.LENGTH),
  V2(2, 1),
  V3(3, 1),
  V4(4, 1),
  V5(5, 1),
  V6(6, 1),
  V7(7, 1);

  /** The format of tables created without saying. */
  public static final StoredFormat LATEST = V6;

  private final int number;
  private final int headerLength;

  StoredFormat(int number, int headerLength) {
    this.number = number;
    this.headerLength = headerLength;
  }

  /** The format's number, as recorded with a table and written in schemas. */
  public int number() {
    return number;
  }

  /**
   * The format numbered {@code number}.
   *
   * @throws IllegalArgumentException naming the known formats
   */
  public static StoredFormat of(int number) {
    for (StoredFormat f : values()) {
      if (f.number == number) {
        return f;
      }
    }
    throw new IllegalArgumentException("unknown stored format " + number + " (known: "
        + Arrays.stream(values()).map(f -> String.valueOf(f.number)).collect(Collectors.joining(", ")) + ")");
  }

  /** Bytes of the key header in front of every ciphertext. */
  public int headerLength() {
    return headerLength;
  }

  /** The header of ciphertexts made under key {@code keyId}. */
  public byte[] header(int keyId) {
    return this == V1 ? KeyIdPrefix.of(keyId) : new byte[] {(byte) keyId};
  }

  /** Whether DET encrypts values of at most {@code 8} bytes as one AES block. */
  public boolean oneBlockDeterministic() {
    return this != V1;
  }

  /** The shape of the counter trees whose leaves key SSE index entries. */
  public CounterTree counterTree() {
    return compareTo(V3) >= 0 ? CounterTree.WIDE : CounterTree.BINARY;
  }

  /**
   * Whether STD encrypts under XAES-256-GCM's 192-bit nonces (format 4), where the earlier formats
   * use AES-256-GCM's random 96-bit IVs.
   */
  public boolean extendedNonces() {
    return compareTo(V4) >= 0;
  }

  /** Whether SSE values are encrypted under XAES-256-GCM (format 5), where earlier formats use AES-256-GCM. */
  public boolean extendedNoncesForSearchableValues() {
    return compareTo(V5) >= 0;
  }

  /**
   * Whether SSE derives a value's counter name, mask, tree root and first entry key from one
   * HMAC-SHA512 (format 5), where earlier formats spend an HMAC-SHA256 on each of the first three
   * and key the first entry by a leaf of the tree.
   */
  public boolean oneMacSearchIndex() {
    return compareTo(V5) >= 0;
  }

  /**
   * Whether writers number SSE entries in lanes of their own (format 6, {@link
   * ValueIndex#lane}), where earlier formats take them from one shared counter per value.
   */
  public boolean writerLanes() {
    return compareTo(V6) >= 0;
  }

  /**
   * Whether a batch's SSE lane counts are one count-log cell of the counter table (format 7),
   * where format 6 writes a row per lane.
   */
  public boolean countLogs() {
    return compareTo(V7) >= 0;
  }

  /**
   * The key id whose header {@code stored} starts with, among {@code keys} (format 2 headers hold
   * only the id's low byte); empty if it has none or no key matches.
   */
  public OptionalInt keyIdOf(byte[] stored, KeyRing keys) {
    return keyIdOf(stored, keys.keys().stream().map(VersionedKey::keyId).toList());
  }

  /**
   * As {@link #keyIdOf(byte[], KeyRing)}, among the ids {@code keyIds} (for tools that know a
   * keyset's disabled keys too).
   */
  public OptionalInt keyIdOf(byte[] stored, Collection<Integer> keyIds) {
    if (this == V1) {
      return KeyIdPrefix.keyIdOf(stored);
    }
    if (stored.length < headerLength) {
      return OptionalInt.empty();
    }
    for (int id : keyIds) {
      if ((byte) id == stored[0]) {
        return OptionalInt.of(id);
      }
    }
    return OptionalInt.empty();
  }

  /** Whether {@code stored} starts with the header of key {@code keyId}. */
  public boolean madeUnder(byte[] stored, int keyId) {
    return KeyIdPrefix.isPrefixOf(header(keyId), stored);
  }

  /**
   * The key of {@code keys} that made {@code ciphertext}.
   *
   * @param minimumBodyLength the smallest valid ciphertext after the header
   * @throws GeneralSecurityException naming the reason: truncated, unknown format, unknown key
   */
  public VersionedKey keyFor(byte[] ciphertext, int minimumBodyLength, KeyRing keys)
      throws GeneralSecurityException {
    if (this == V1) {
      return KeyIdPrefix.keyFor(ciphertext, minimumBodyLength, keys);
    }
    if (ciphertext.length < headerLength + minimumBodyLength) {
      throw new GeneralSecurityException("ciphertext truncated: " + ciphertext.length + " bytes, at least "
          + (headerLength + minimumBodyLength) + " expected");
    }
    OptionalInt keyId = keyIdOf(ciphertext, keys);
    if (keyId.isEmpty()) {
      throw new GeneralSecurityException("ciphertext was made under a key id ending in byte 0x"
          + Integer.toHexString(ciphertext[0] & 0xff)
          + ", which this key provider does not have (wrong key or keyset)");
    }
    return keys.byId(keyId.getAsInt()).orElseThrow();
  }

  /**
   * Refuses a ring whose keys this format cannot tell apart (format 2: two ids with the same low
   * byte).
   *
   * @throws GeneralSecurityException naming both keys and what to do
   */
  public void requireDistinctHeaders(KeyRing keys, String box) throws GeneralSecurityException {
    if (this == V1) {
      return;
    }
    Map<Byte, Integer> seen = new HashMap<>();
    for (VersionedKey k : keys.keys()) {
      Integer other = seen.putIfAbsent((byte) k.keyId(), k.keyId());
      if (other != null) {
        throw new GeneralSecurityException(box + ": keys " + Integer.toUnsignedString(other, 16) + " and "
            + Integer.toUnsignedString(k.keyId(), 16) + " end in the same byte, which stored format 2 uses to"
            + " tell keys apart; disable one of them, or keep tables of this keyset in stored format 1");
      }
    }
  }
}
