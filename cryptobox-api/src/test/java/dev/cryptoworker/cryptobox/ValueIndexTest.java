package dev.cryptoworker.cryptobox;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cryptoworker.cryptobox.search.CounterTree;
import dev.cryptoworker.cryptobox.search.SubtreeToken;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.Arrays;
import java.util.Base64;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.stream.LongStream;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class ValueIndexTest {
  private static final HexFormat HEX = HexFormat.of();
  private static final byte[] NAME = HEX.parseHex("a1a2a3a4a5a6a7a8a9aaabacadaeafb0");
  private static final byte[] ROOT = HEX.parseHex("c1c2c3c4c5c6c7c8c9cacbcccdcecfd0");
  private static final long ALL = CounterTree.MAX_ENTRIES;

  /** Masks at the edges of two's complement, where mask + count wraps around. */
  static LongStream masks() {
    return LongStream.concat(
        LongStream.of(0, 1, -1, Long.MAX_VALUE, Long.MAX_VALUE - 1, Long.MAX_VALUE - ALL + 1, Long.MIN_VALUE,
            -ALL, -ALL + 1, 0x0123456789abcdefL),
        new SplittableRandom().longs(4));
  }

  private static ValueIndex index(long mask) {
    return new ValueIndex(0x0badcafe, NAME, mask, ROOT, CounterTree.BINARY);
  }

  @ParameterizedTest
  @MethodSource("masks")
  void countUndoesTheMaskAcrossWrapAround(long mask) {
    ValueIndex index = index(mask);
    assertEquals(mask, index.initialCounter());
    for (long count : new long[] {0, 1, 2, 1000, (1L << 31) - 1, 1L << 31, ALL - 1, ALL}) {
      long stored = mask + count; // what HBase holds after count increments: wraps like a Java long
      assertEquals(count, index.count(stored), "mask " + mask + ", count " + count);
      if (count > 0) {
        assertEquals(count - 1, index.entryNumber(stored), "mask " + mask + ", count " + count);
      }
    }
    assertEquals(0, index.entryNumber(index.initialCounter() + 1));
  }

  @ParameterizedTest
  @MethodSource("masks")
  void successiveIncrementsNumberEntriesFromZero(long mask) {
    ValueIndex index = index(mask);
    long stored = index.initialCounter();
    for (long expected = 0; expected < 20; expected++) {
      stored++;
      assertEquals(expected, index.entryNumber(stored));
      assertEquals(expected + 1, index.count(stored));
    }
  }

  @Test
  void aCounterThatWrapsPastLongMaxValueStillCounts() {
    ValueIndex index = index(Long.MAX_VALUE);
    assertEquals(1, index.count(Long.MIN_VALUE));
    assertEquals(0, index.entryNumber(Long.MIN_VALUE));
    assertEquals(ALL, index.count(Long.MAX_VALUE + ALL));
    assertTrue(Long.MAX_VALUE + ALL < 0, "the stored value wrapped");
  }

  @ParameterizedTest
  @MethodSource("masks")
  void countRefusesValuesThatAreNotMaskPlusZeroToTwoToThe32(long mask) {
    ValueIndex index = index(mask);
    for (long off : new long[] {-1, -2, ALL + 1, ALL + 2, Long.MIN_VALUE, Long.MAX_VALUE, -ALL}) {
      long stored = mask + off;
      assertThrows(IllegalStateException.class, () -> index.count(stored), "mask " + mask + ", offset " + off);
      assertThrows(IllegalStateException.class, () -> index.entryNumber(stored), "mask " + mask + ", offset " + off);
    }
    assertThrows(IllegalStateException.class, () -> index.entryNumber(index.initialCounter()),
        "an incremented counter cannot read zero");
  }

  @Test
  void entryKeysAndTokensAreTheTreesBelowTheRoot() {
    ValueIndex index = index(42);
    for (long c : new long[] {0, 1, 77, ALL - 1}) {
      assertArrayEquals(CounterTree.BINARY.leaf(ROOT, c), index.entryKey(c), "entry " + c);
    }
    List<SubtreeToken> tokens = index.searchTokens(1000);
    List<SubtreeToken> cover = CounterTree.BINARY.cover(ROOT, 1000);
    assertEquals(cover.size(), tokens.size());
    for (int i = 0; i < cover.size(); i++) {
      assertArrayEquals(cover.get(i).toBytes(), tokens.get(i).toBytes());
    }
  }

  @Test
  void keepsItsOwnCopies() {
    byte[] name = NAME.clone();
    byte[] root = ROOT.clone();
    ValueIndex index = new ValueIndex(1, name, 0, root, CounterTree.BINARY);
    name[0] ^= 1;
    root[0] ^= 1;
    assertArrayEquals(NAME, index.counterName());
    assertArrayEquals(CounterTree.BINARY.leaf(ROOT, 3), index.entryKey(3));
    index.counterName()[1] ^= 1;
    assertArrayEquals(NAME, index.counterName());
    assertEquals(1, index.keyId());
  }

  @Test
  void toStringShowsNeitherRootNorCounterName() {
    String s = index(0x5555).toString();
    for (byte[] secret : List.of(ROOT, NAME)) {
      assertFalse(s.contains(HEX.formatHex(secret)), s);
      assertFalse(s.toLowerCase().contains(HEX.formatHex(secret, 0, 4)), s);
      assertFalse(s.contains(Arrays.toString(secret)), s);
      assertFalse(s.contains(Base64.getEncoder().encodeToString(secret)), s);
      assertFalse(s.contains(new String(secret, StandardCharsets.ISO_8859_1)), s);
    }
    assertTrue(s.contains("badcafe"), "names its key id: " + s);
  }

  @Test
  void refusesARootOfTheWrongLength() {
    for (int n : new int[] {0, 1, CounterTree.SEED_BYTES - 1, CounterTree.SEED_BYTES + 1, 32}) {
      assertThrows(IllegalArgumentException.class, () -> new ValueIndex(1, NAME, 0, new byte[n], CounterTree.BINARY), n + " bytes");
    }
  }

  private static final byte[] FIRST = HEX.parseHex("e1e2e3e4e5e6e7e8e9eaebecedeeeff0");

  private static ValueIndex laned() {
    return new ValueIndex(7, NAME, 0x55aa55aa55aa55aaL, ROOT, CounterTree.WIDE, FIRST, true);
  }

  private static byte[] hmac(byte[] key, String label, byte[] lane) throws GeneralSecurityException {
    Mac mac = Mac.getInstance("HmacSHA256");
    mac.init(new SecretKeySpec(key, "HmacSHA256"));
    mac.update(label.getBytes(StandardCharsets.US_ASCII));
    return mac.doFinal(lane);
  }

  /** A lane's counter, mask, first entry key and tree root, written out from the javadoc with Mac. */
  @Test
  void aLaneIsDerivedFromTheValueRootAsDocumented() throws GeneralSecurityException {
    byte[] laneId = HEX.parseHex("0102030405060708090a0b0c");
    ValueIndex lane = laned().lane(laneId);
    byte[] secrets = hmac(ROOT, "lane", laneId);
    assertArrayEquals(HEX.parseHex("a1a2a3a4a5a6a7a8a9aaabacadaeafb00102030405060708090a0b0c"), lane.counterName());
    assertEquals(ByteBuffer.wrap(hmac(ROOT, "lane-mask", laneId)).getLong(), lane.initialCounter());
    assertArrayEquals(Arrays.copyOfRange(secrets, 16, 32), lane.entryKey(0));
    for (long entry : new long[] {1, 2, 17, 4097}) {
      assertArrayEquals(CounterTree.WIDE.leaf(Arrays.copyOf(secrets, 16), entry - 1), lane.entryKey(entry), "entry " + entry);
    }
    assertFalse(lane.hasWriterLanes());
    assertEquals(7, lane.keyId());
  }

  @Test
  void lanesOfOneValueShareNoEntryKeyAndEachLaneTokenCoversItsOwnEntries() {
    ValueIndex value = laned();
    ValueIndex a = value.lane(HEX.parseHex("000000000000000000000001"));
    ValueIndex b = value.lane(HEX.parseHex("000000000000000000000002"));
    Set<String> keysOfA = new HashSet<>();
    for (long e = 0; e < 40; e++) {
      keysOfA.add(HEX.formatHex(a.entryKey(e)));
    }
    for (long e = 0; e < 40; e++) {
      assertFalse(keysOfA.contains(HEX.formatHex(b.entryKey(e))), "entry " + e + " of lane b is one of lane a's");
      assertFalse(keysOfA.contains(HEX.formatHex(value.entryKey(e))), "entry " + e + " of the value's own tree");
    }
    Set<String> reached = new HashSet<>();
    for (SubtreeToken t : a.searchTokens(40)) {
      CounterTree.expand(t, leaf -> reached.add(HEX.formatHex(leaf)));
    }
    assertEquals(keysOfA, reached);
  }

  @Test
  void aCounterRowNamesItsLaneOnlyWithTheValueNameAndALaneIdsLength() {
    ValueIndex value = laned();
    byte[] laneId = HEX.parseHex("aabbccddeeff001122334455");
    ValueIndex lane = value.lane(laneId);
    assertArrayEquals(lane.entryKey(3), value.laneOfCounter(lane.counterName()).orElseThrow().entryKey(3));
    assertTrue(value.laneOfCounter(NAME).isEmpty(), "the value's own name is no lane");
    assertTrue(value.laneOfCounter(Arrays.copyOf(lane.counterName(), 27)).isEmpty(), "a short lane id");
    byte[] other = lane.counterName();
    other[0] ^= 1;
    assertTrue(value.laneOfCounter(other).isEmpty(), "another value's lane");
    assertTrue(index(0).laneOfCounter(lane.counterName()).isEmpty(), "an index without lanes");
    assertThrows(IllegalStateException.class, () -> index(0).lane(laneId));
    assertThrows(IllegalArgumentException.class, () -> value.lane(new byte[11]));
    assertThrows(IllegalArgumentException.class,
        () -> new ValueIndex(7, NAME, 0, ROOT, CounterTree.WIDE, null, true));
  }

  /** A writer's lane id, written out from the javadoc with javax.crypto.Mac; other epochs and keys give other ids. */
  @Test
  void aLaneIdIsTheDocumentedHmacOfEpochAndCounterName() throws GeneralSecurityException {
    byte[] key = HEX.parseHex("000102030405060708090a0b0c0d0e0f");
    Mac mac = Mac.getInstance("HmacSHA256");
    mac.init(new SecretKeySpec(key, "HmacSHA256"));
    byte[] expected = Arrays.copyOf(mac.doFinal(ByteBuffer.allocate(8 + NAME.length).putLong(3).put(NAME).array()),
        ValueIndex.LANE_ID_BYTES);
    ValueIndex value = laned();
    assertArrayEquals(expected, value.laneId(key, 3));
    assertFalse(Arrays.equals(expected, value.laneId(key, 4)), "another epoch");
    byte[] other = key.clone();
    other[0] ^= 1;
    assertFalse(Arrays.equals(expected, value.laneId(other, 3)), "another writer");
  }
}
