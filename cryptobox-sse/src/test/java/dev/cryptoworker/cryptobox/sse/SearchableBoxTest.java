package dev.cryptoworker.cryptobox.sse;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.crypto.tink.subtle.Hkdf;
import dev.cryptoworker.cryptobox.AssociatedData;
import dev.cryptoworker.cryptobox.BoxKind;
import dev.cryptoworker.cryptobox.CiphertextChecks;
import dev.cryptoworker.cryptobox.EqualityOnCiphertext;
import dev.cryptoworker.cryptobox.KeyIdPrefix;
import dev.cryptoworker.cryptobox.IndexedSearch;
import dev.cryptoworker.cryptobox.KeyRing;
import dev.cryptoworker.cryptobox.StoredFormat;
import dev.cryptoworker.cryptobox.TestKeys;
import dev.cryptoworker.cryptobox.ValueCondition;
import dev.cryptoworker.cryptobox.ValueIndex;
import dev.cryptoworker.cryptobox.VersionedKey;
import dev.cryptoworker.cryptobox.search.CounterTree;
import dev.cryptoworker.cryptobox.search.SubtreeToken;
import dev.cryptoworker.cryptobox.std.RandomizedBox;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;

class SearchableBoxTest {
  private static final HexFormat HEX = HexFormat.of();
  private static final byte[] AD = AssociatedData.of("value", utf8("patients"), utf8("row-1"));
  private static final byte[] COLUMN = utf8("patients/f/mainId");

  private static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private static VersionedKey key(int id) {
    return TestKeys.random(id, SearchableBox.KEY_LENGTH_BYTES);
  }

  private static SearchableBox box(VersionedKey key) throws GeneralSecurityException {
    return SearchableBox.create(KeyRing.of(key), CounterTree.BINARY);
  }

  private static ValueIndex onlyIndex(SearchableBox box, String value, byte[] column) {
    List<ValueIndex> indexes = box.indexesOf(utf8(value), column);
    assertEquals(1, indexes.size());
    return indexes.get(0);
  }

  /** Everything an index shows, as one comparable string. */
  private static String describe(ValueIndex index) {
    StringBuilder s = new StringBuilder()
        .append(Integer.toHexString(index.keyId())).append('/')
        .append(HEX.formatHex(index.counterName())).append('/')
        .append(Long.toHexString(index.initialCounter())).append('/')
        .append(HEX.formatHex(index.entryKey(0))).append('/')
        .append(HEX.formatHex(index.entryKey(CounterTree.MAX_ENTRIES - 1)));
    for (SubtreeToken t : index.searchTokens(3)) {
      s.append('/').append(HEX.formatHex(t.toBytes()));
    }
    return s.toString();
  }

  /** Fails if any part of {@code a} equals the same part of {@code b}. */
  private static void assertUnrelated(ValueIndex a, ValueIndex b, String why) {
    assertFalse(Arrays.equals(a.counterName(), b.counterName()), why + ": counter names");
    assertTrue(a.initialCounter() != b.initialCounter(), why + ": counter masks");
    assertFalse(Arrays.equals(a.entryKey(0), b.entryKey(0)), why + ": entry keys");
  }

  @Test
  void roundTripsInStdFormat() throws Exception {
    VersionedKey k = key(0x01020304);
    SearchableBox box = box(k);
    assertEquals(BoxKind.SSE, box.kind());
    for (int n : new int[] {0, 1, 16, 17, 1000, 1 << 16}) {
      byte[] m = TestKeys.randomBytes(n);
      byte[] c = box.encrypt(m, AD);
      assertEquals(n + 5 + 12 + 16, c.length, "overhead is prefix + IV + tag, as STD");
      assertArrayEquals(KeyIdPrefix.of(0x01020304), Arrays.copyOf(c, KeyIdPrefix.LENGTH));
      assertArrayEquals(m, box.decrypt(c, AD));
    }
  }

  @Test
  void isRandomized() throws Exception {
    SearchableBox box = box(key(7));
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < 1000; i++) {
      assertTrue(seen.add(HEX.formatHex(box.encrypt(utf8("same"), AD))), "ciphertext repeated");
    }
  }

  @Test
  void bindsAssociatedData() throws Exception {
    SearchableBox box = box(key(7));
    byte[] c = box.encrypt(utf8("x"), AD);
    GeneralSecurityException e = assertThrows(GeneralSecurityException.class,
        () -> box.decrypt(c, AssociatedData.of("value", utf8("patients"), utf8("row-2"))));
    assertTrue(e.getMessage().contains("authentication failed"), e.getMessage());
  }

  @Test
  void rejectsTamperedAndTruncatedCiphertextsClearly() throws Exception {
    SearchableBox box = box(key(7));
    byte[] c = box.encrypt(utf8("patient record"), AD);
    CiphertextChecks.assertAlterationsRejected(c, t -> box.decrypt(t, AD));

    byte[] flipped = c.clone();
    flipped[c.length - 1] ^= 1;
    assertTrue(assertThrows(GeneralSecurityException.class, () -> box.decrypt(flipped, AD))
        .getMessage().contains("authentication failed"));
    byte[] truncated = Arrays.copyOf(c, 20);
    String message = assertThrows(GeneralSecurityException.class, () -> box.decrypt(truncated, AD)).getMessage();
    assertTrue(message.contains("truncated") && message.contains("20 bytes"), message);
    byte[] format = c.clone();
    format[0] = 0x02;
    message = assertThrows(GeneralSecurityException.class, () -> box.decrypt(format, AD)).getMessage();
    assertTrue(message.contains("format"), message);
  }

  @Test
  void wrongKeyFails() throws Exception {
    byte[] c = box(key(7)).encrypt(utf8("x"), AD);
    String sameId = assertThrows(GeneralSecurityException.class, () -> box(key(7)).decrypt(c, AD)).getMessage();
    assertTrue(sameId.contains("authentication failed"), sameId);
    String otherId = assertThrows(GeneralSecurityException.class, () -> box(key(8)).decrypt(c, AD)).getMessage();
    assertTrue(otherId.contains("key id 7"), otherId);
  }

  @Test
  void rotationWritesWithThePrimaryReadsEveryKeyAndIndexesUnderEach() throws Exception {
    VersionedKey old = key(1);
    VersionedKey current = key(2);
    VersionedKey later = key(3);
    SearchableBox before = box(old);
    byte[] oldCiphertext = before.encrypt(utf8("old"), AD);
    SearchableBox rotated = SearchableBox.create(new KeyRing(current, List.of(old, current, later)), CounterTree.BINARY);

    assertArrayEquals(utf8("old"), rotated.decrypt(oldCiphertext, AD));
    byte[] fresh = rotated.encrypt(utf8("new"), AD);
    assertArrayEquals(KeyIdPrefix.of(2), Arrays.copyOf(fresh, KeyIdPrefix.LENGTH));
    assertArrayEquals(utf8("new"), rotated.decrypt(fresh, AD));
    String message = assertThrows(GeneralSecurityException.class, () -> box(current).decrypt(oldCiphertext, AD))
        .getMessage();
    assertTrue(message.contains("key id 1"), message);

    List<ValueIndex> indexes = rotated.indexesOf(utf8("alice"), COLUMN);
    assertEquals(List.of(2, 1, 3), indexes.stream().map(ValueIndex::keyId).toList(), "primary first, then ring order");
    assertUnrelated(indexes.get(0), indexes.get(1), "keys 2 and 1");
    assertUnrelated(indexes.get(0), indexes.get(2), "keys 2 and 3");
    assertUnrelated(indexes.get(1), indexes.get(2), "keys 1 and 3");
    // Entries written before the rotation are found with the old key's index.
    assertEquals(describe(onlyIndex(before, "alice", COLUMN)), describe(indexes.get(1)));
    assertEquals(describe(onlyIndex(box(current), "alice", COLUMN)), describe(indexes.get(0)));
  }

  @Test
  void indexesAreDeterministic() throws Exception {
    VersionedKey k = key(5);
    ValueIndex first = onlyIndex(box(k), "alice", COLUMN);
    ValueIndex again = onlyIndex(box(k), "alice", COLUMN);
    assertEquals(describe(first), describe(again));
    assertEquals(describe(first), describe(onlyIndex(box(k), "alice", COLUMN.clone())));
  }

  @Test
  void indexesDifferPerValueAndPerColumn() throws Exception {
    SearchableBox box = box(key(5));
    ValueIndex alice = onlyIndex(box, "alice", COLUMN);
    assertUnrelated(alice, onlyIndex(box, "alicf", COLUMN), "another value");
    assertUnrelated(alice, onlyIndex(box, "alice", utf8("patients/f/otherId")), "another column");
    assertUnrelated(alice, onlyIndex(box, "", COLUMN), "the empty value");
    // Column and value are length-prefixed: ("ab", "c") and ("a", "bc") are different indexes.
    assertUnrelated(onlyIndex(box, "c", utf8("ab")), onlyIndex(box, "bc", utf8("a")), "shifted boundary");
  }

  @Test
  void entryKeysOfOneValueAreDistinct() throws Exception {
    ValueIndex index = onlyIndex(box(key(5)), "alice", COLUMN);
    Set<String> keys = new HashSet<>();
    for (long c = 0; c < 1000; c++) {
      assertTrue(keys.add(HEX.formatHex(index.entryKey(c))), "entry key " + c + " repeats");
    }
  }

  /** How the client and the coprocessor use an index: increments number entries, tokens reach only older ones. */
  @Test
  void searchTokensReachTheEntriesInsertedBeforeTheSearchOnly() throws Exception {
    ValueIndex index = onlyIndex(box(key(5)), "alice", COLUMN);
    long counter = index.initialCounter();
    List<String> stored = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      counter++; // HBase's atomic increment
      stored.add(HEX.formatHex(index.entryKey(index.entryNumber(counter))));
    }
    List<SubtreeToken> tokens = index.searchTokens(index.count(counter));
    counter++;
    String later = HEX.formatHex(index.entryKey(index.entryNumber(counter)));

    List<String> reached = new ArrayList<>();
    for (SubtreeToken t : tokens) {
      CounterTree.expand(SubtreeToken.parse(t.toBytes()), leaf -> reached.add(HEX.formatHex(leaf)));
    }
    assertEquals(stored, reached);
    assertFalse(reached.contains(later), "an entry inserted after the search is reached by its tokens");
  }

  /** The value and index subkeys are HKDF outputs of the ring's key, neither of them the key itself. */
  @Test
  void valueAndIndexSubkeysAreDerivedAndIndependent() throws Exception {
    VersionedKey k = key(9);
    byte[] raw = TestKeys.bytesOf(k);
    byte[] valueKey = Hkdf.computeHkdf("HMACSHA256", raw, new byte[0], utf8("cryptoworker/sse/value"), 32);
    byte[] indexKey = Hkdf.computeHkdf("HMACSHA256", raw, new byte[0], utf8("cryptoworker/sse/index"), 32);
    SearchableBox box = box(k);
    byte[] c = box.encrypt(utf8("x"), AD);

    assertArrayEquals(utf8("x"), RandomizedBox.create(KeyRing.of(TestKeys.of(9, valueKey))).decrypt(c, AD));
    for (byte[] notTheValueKey : List.of(raw, indexKey)) {
      RandomizedBox other = RandomizedBox.create(KeyRing.of(TestKeys.of(9, notTheValueKey)));
      assertThrows(GeneralSecurityException.class, () -> other.decrypt(c, AD));
    }

    ValueIndex index = onlyIndex(box, "alice", COLUMN);
    assertArrayEquals(Arrays.copyOf(hmac(indexKey, "sse-counter", "alice"), 16), index.counterName());
    assertEquals(ByteBuffer.wrap(hmac(indexKey, "sse-counter-mask", "alice")).getLong(), index.initialCounter());
    byte[] root = Arrays.copyOf(hmac(indexKey, "sse-root", "alice"), CounterTree.SEED_BYTES);
    assertArrayEquals(CounterTree.BINARY.leaf(root, 17), index.entryKey(17));
    for (byte[] notTheIndexKey : List.of(raw, valueKey)) {
      assertFalse(Arrays.equals(Arrays.copyOf(hmac(notTheIndexKey, "sse-counter", "alice"), 16), index.counterName()));
    }
  }

  private static byte[] hmac(byte[] key, String purpose, String value) throws GeneralSecurityException {
    Mac mac = Mac.getInstance("HmacSHA256");
    mac.init(new SecretKeySpec(key, "HmacSHA256"));
    return mac.doFinal(AssociatedData.of(purpose, COLUMN, utf8(value)));
  }

  /**
   * Counter rows and entry keys already stored must stay findable: the derivation must never
   * change. Expected values computed with Python's hmac and an RFC 5869 HKDF written out.
   */
  @Test
  void matchesAnIndependentImplementation() throws Exception {
    byte[] raw = new byte[32];
    for (int i = 0; i < raw.length; i++) {
      raw[i] = (byte) i;
    }
    SearchableBox box = box(TestKeys.of(0x0a0b0c0d, raw));
    ValueIndex index = onlyIndex(box, "alice", COLUMN);
    assertEquals(0x0a0b0c0d, index.keyId());
    assertEquals("d60c70d1632851abaaa8f6c5f4a02967", HEX.formatHex(index.counterName()));
    assertEquals(0xe09ea34d0327a85fL, index.initialCounter());
    assertEquals("8c9a6cd395414e180879f0d526d76777", HEX.formatHex(index.entryKey(0)));
    assertEquals("31239612e83ddfde131e0107fb75f0d0", HEX.formatHex(index.entryKey(5)));
    byte[] valueKey = HEX.parseHex("1be46876f1a9cd7a20edbc8061442ee3daf116e173655f0cc175208804ac43b4");
    byte[] c = box.encrypt(utf8("alice"), AD);
    assertArrayEquals(utf8("alice"), RandomizedBox.create(KeyRing.of(TestKeys.of(0x0a0b0c0d, valueKey))).decrypt(c, AD));
  }

  /**
   * Format 5 derives name, mask, root and entry 0's key from one HMAC-SHA512 under a subkey of its
   * own, and stores values under XAES-256-GCM behind the 5-byte key-id prefix. Expected values
   * computed with Python's hmac and an RFC 5869 HKDF written out.
   */
  @Test
  void formatFiveDerivesTheIndexFromOneMacAsAnIndependentImplementationDoes() throws Exception {
    byte[] raw = new byte[32];
    for (int i = 0; i < raw.length; i++) {
      raw[i] = (byte) i;
    }
    SearchableBox box = SearchableBox.create(KeyRing.of(TestKeys.of(0x0a0b0c0d, raw)), StoredFormat.V5);
    ValueIndex index = onlyIndex(box, "alice", COLUMN);
    assertEquals("544dd8f43703796fd05b130bfe715082", HEX.formatHex(index.counterName()));
    assertEquals(0x99eaa2831b362707L, index.initialCounter());
    assertEquals("871bd1d40adeb4398c9cf6659575ddf1", HEX.formatHex(index.entryKey(0)));
    byte[] root = HEX.parseHex("35eaf0136f9ea6a1553884aacc2fb1f3");
    assertArrayEquals(CounterTree.WIDE.leaf(root, 4), index.entryKey(5));
    assertEquals(describe(index), describe(box.writeIndex(utf8("alice"), COLUMN)), "writes use the same index");

    byte[] c = box.encrypt(utf8("alice"), AD);
    assertEquals(5 + 24 + 5 + 16, c.length, "prefix, XAES nonce, value, tag");
    assertArrayEquals(KeyIdPrefix.of(0x0a0b0c0d), Arrays.copyOf(c, 5));
    byte[] valueKey = HEX.parseHex("1be46876f1a9cd7a20edbc8061442ee3daf116e173655f0cc175208804ac43b4");
    assertArrayEquals(utf8("alice"), RandomizedBox.createWithKeyIdPrefix(
        KeyRing.of(TestKeys.of(0x0a0b0c0d, valueKey)), true).decrypt(c, AD));
  }

  /** Format 5's tokens: entry 0 as a one-leaf token, then the tree's cover of the rest. */
  @Test
  void formatFiveSearchTokensReachTheEntriesInsertedBeforeTheSearchOnly() throws Exception {
    ValueIndex index = onlyIndex(SearchableBox.create(KeyRing.of(key(5)), StoredFormat.V5), "alice", COLUMN);
    for (int n : new int[] {0, 1, 2, 17, 300}) {
      Set<String> stored = new HashSet<>();
      for (int e = 0; e < n; e++) {
        stored.add(HEX.formatHex(index.entryKey(e)));
      }
      Set<String> reached = new HashSet<>();
      for (SubtreeToken t : index.searchTokens(n)) {
        CounterTree.expand(SubtreeToken.parse(t.toBytes()), leaf -> assertTrue(reached.add(HEX.formatHex(leaf))));
      }
      assertEquals(stored, reached, n + " entries");
      assertFalse(reached.contains(HEX.formatHex(index.entryKey(n))), "entry " + n + " is reached before it exists");
    }
  }

  @Test
  void refusesKeysOfTheWrongLength() {
    GeneralSecurityException e = assertThrows(GeneralSecurityException.class,
        () -> box(TestKeys.random(1, 16)));
    assertTrue(e.getMessage().contains("SSE") && e.getMessage().contains("32-byte")
        && e.getMessage().contains("got 16"), e.getMessage());
    VersionedKey good = key(2);
    assertThrows(GeneralSecurityException.class,
        () -> SearchableBox.create(new KeyRing(good, List.of(TestKeys.random(1, 64), good)), CounterTree.BINARY),
        "an old key of 64 bytes");
  }

  @Test
  void leavesTheRingsKeysIntact() throws Exception {
    VersionedKey current = key(2);
    KeyRing ring = new KeyRing(current, List.of(key(1), current));
    CiphertextChecks.assertKeysLeftIntact(ring, keys -> SearchableBox.create(keys, CounterTree.BINARY), utf8("x"));
    assertEquals(describe(SearchableBox.create(ring, CounterTree.BINARY).indexesOf(utf8("v"), COLUMN).get(1)),
        describe(SearchableBox.create(ring, CounterTree.BINARY).indexesOf(utf8("v"), COLUMN).get(1)));
  }

  /**
   * Searches answer equality with one value's indexes under every key, primary first, and nothing
   * else; a row passes the check only if its value equals the operand byte for byte.
   */
  @Test
  void answersEqualityOnlyAndChecksRowsByteForByte() throws Exception {
    VersionedKey current = key(2);
    SearchableBox box = SearchableBox.create(new KeyRing(current, List.of(key(1), current)), StoredFormat.V5);
    ValueCondition alice = new ValueCondition(ValueCondition.Operator.EQUAL, utf8("alice"));
    List<ValueIndex> indexes = box.searchIndexes(alice, COLUMN).orElseThrow();
    assertEquals(2, indexes.size());
    assertEquals(describe(box.writeIndex(utf8("alice"), COLUMN)), describe(indexes.get(0)), "primary first");
    assertTrue(box.searchIndexes(new ValueCondition(ValueCondition.Operator.STARTS_WITH, utf8("al")), COLUMN).isEmpty());
    assertTrue(box.satisfies(alice, utf8("alice")));
    assertFalse(box.satisfies(alice, utf8("Alice")));
    assertFalse(box.satisfies(alice, utf8("alice ")));
  }

  @Test
  void isSearchableButOffersNoEqualityOnCiphertext() throws Exception {
    SearchableBox box = box(key(1));
    assertTrue(box.capability(IndexedSearch.class).isPresent());
    assertFalse(box.capability(EqualityOnCiphertext.class).isPresent());
  }

  @Test
  void isThreadSafe() throws Exception {
    SearchableBox box = box(key(1));
    String expected = describe(onlyIndex(box, "alice", COLUMN));
    CiphertextChecks.runConcurrently(4, () -> {
      for (int i = 0; i < 200; i++) {
        byte[] value = utf8("value-" + i);
        assertArrayEquals(value, box.decrypt(box.encrypt(value, AD), AD));
        assertEquals(expected, describe(onlyIndex(box, "alice", COLUMN)));
      }
      return null;
    });
  }
}
