package dev.cryptoworker.cryptobox.search;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class CounterTreeTest {
  private static final HexFormat HEX = HexFormat.of();
  private static final byte[] ROOT = HEX.parseHex("000102030405060708090a0b0c0d0e0f");
  private static final long ALL = CounterTree.MAX_ENTRIES;
  private static final SplittableRandom RANDOM = new SplittableRandom();

  private static final List<CounterTree> TREES = List.of(CounterTree.BINARY, CounterTree.WIDE);

  /** Counts of every size, the edges of the tree included; random ones show their value in the test name. */
  static Stream<Arguments> counts() {
    LongStream fixed = LongStream.of(0, 1, 2, 3, 5, 8, 15, 16, 17, 1000, 4096, 4097, 1L << 31, ALL - 4097, ALL - 1, ALL);
    long[] all = LongStream.concat(fixed, LongStream.concat(RANDOM.longs(3, 0, 3000), RANDOM.longs(12, 0, ALL + 1)))
        .toArray();
    return withEachTree(all);
  }

  /** Counts small enough to expand every token. */
  static Stream<Arguments> smallCounts() {
    return withEachTree(LongStream.concat(LongStream.of(0, 1, 2, 3, 5, 8, 16, 17, 1000, 4097),
        RANDOM.longs(3, 0, 3000)).toArray());
  }

  private static Stream<Arguments> withEachTree(long[] counts) {
    return TREES.stream().flatMap(tree -> LongStream.of(counts).mapToObj(n -> Arguments.of(tree, n)));
  }

  private static int digitBits(CounterTree tree) {
    return Integer.numberOfTrailingZeros(tree.arity());
  }

  /**
   * The PRG written out from the class's javadoc: child d is half d mod 2 of HMAC-SHA256(seed,
   * empty) in the binary tree, and of HMAC-SHA256(seed, one byte d / 2) in the wide one.
   */
  private static byte[] child(CounterTree tree, byte[] seed, int digit) throws GeneralSecurityException {
    Mac mac = Mac.getInstance("HmacSHA256");
    mac.init(new SecretKeySpec(seed, "HmacSHA256"));
    byte[] both = tree == CounterTree.BINARY ? mac.doFinal() : mac.doFinal(new byte[] {(byte) (digit >>> 1)});
    int half = digit & 1;
    return Arrays.copyOfRange(both, half * CounterTree.SEED_BYTES, (half + 1) * CounterTree.SEED_BYTES);
  }

  /** The node {@code heightBits} bits of entry number below {@code seed} on the path to its leaf {@code offset}. */
  private static byte[] descend(CounterTree tree, byte[] seed, int heightBits, long offset)
      throws GeneralSecurityException {
    int bits = digitBits(tree);
    byte[] node = seed;
    for (int h = heightBits - bits; h >= 0; h -= bits) {
      node = child(tree, node, (int) ((offset >>> h) & (tree.arity() - 1)));
    }
    return node;
  }

  /** The number of tokens in the fewest aligned subtrees covering [0, n): the sum of n's digits. */
  private static int digitSum(CounterTree tree, long n) {
    if (n == ALL) {
      return 1;
    }
    int sum = 0;
    for (long rest = n; rest > 0; rest >>>= digitBits(tree)) {
      sum += (int) (rest & (tree.arity() - 1));
    }
    return sum;
  }

  private static List<String> expandAll(List<SubtreeToken> tokens) {
    List<String> leaves = new ArrayList<>();
    for (SubtreeToken t : tokens) {
      CounterTree.expand(t, leaf -> leaves.add(HEX.formatHex(leaf)));
    }
    return leaves;
  }

  private static String leafHex(CounterTree tree, byte[] root, long index) {
    return HEX.formatHex(tree.leaf(root, index));
  }

  private static String leafHex(byte[] root, long index) {
    return leafHex(CounterTree.BINARY, root, index);
  }

  @ParameterizedTest
  @MethodSource("counts")
  void coverTilesExactlyZeroToCountWithTheFewestNodes(CounterTree tree, long n) {
    List<SubtreeToken> cover = tree.cover(ROOT, n);
    long next = 0;
    for (SubtreeToken t : cover) {
      assertTrue(t.height() >= 0 && t.height() <= CounterTree.ENTRY_BITS, t.toString());
      assertEquals(0, t.height() % digitBits(tree), "a node of " + tree + ": " + t);
      assertEquals(tree, t.tree());
      assertEquals(1L << t.height(), t.leafCount(), t.toString());
      assertEquals(next, t.firstLeaf(), "tokens must be disjoint and contiguous, in leaf order: " + cover);
      assertEquals(0, t.firstLeaf() % t.leafCount(), "a token is a tree node, aligned to its size: " + t);
      next += t.leafCount();
    }
    assertEquals(n, next, "the tokens must reach exactly [0, " + n + "): " + cover);
    assertEquals(digitSum(tree, n), cover.size(), "the fewest aligned subtrees covering [0, n)");
  }

  /** For counts too large to expand: each token's first and last leaf are the tree's leaves there. */
  @ParameterizedTest
  @MethodSource("counts")
  void everyTokenIsTheTreesNodeOverItsRange(CounterTree tree, long n) throws GeneralSecurityException {
    for (SubtreeToken t : tree.cover(ROOT, n)) {
      long last = t.firstLeaf() + t.leafCount() - 1;
      assertEquals(leafHex(tree, ROOT, t.firstLeaf()), HEX.formatHex(descend(tree, t.seed(), t.height(), 0)),
          t.toString());
      assertEquals(leafHex(tree, ROOT, last), HEX.formatHex(descend(tree, t.seed(), t.height(), t.leafCount() - 1)),
          t.toString());
    }
  }

  @ParameterizedTest
  @MethodSource("smallCounts")
  void expandingTheCoverYieldsExactlyTheFirstCountLeavesInOrder(CounterTree tree, long n) {
    List<String> expected = new ArrayList<>();
    for (long i = 0; i < n; i++) {
      expected.add(leafHex(tree, ROOT, i));
    }
    assertEquals(expected, expandAll(tree.cover(ROOT, n)));
  }

  /** Forward privacy: a search's tokens reach no entry inserted after it. */
  @ParameterizedTest
  @MethodSource("counts")
  void noTokenReachesLeafCountOrBeyond(CounterTree tree, long n) throws GeneralSecurityException {
    List<SubtreeToken> cover = tree.cover(ROOT, n);
    Set<String> seeds = new HashSet<>();
    for (SubtreeToken t : cover) {
      assertTrue(t.firstLeaf() + t.leafCount() <= n, t + " reaches past " + n);
      seeds.add(HEX.formatHex(t.seed()));
    }
    // No token is a node above a later leaf (its seed would derive that leaf).
    for (long later = n; later < Math.min(n + 2, ALL); later++) {
      for (int h = 0; h <= CounterTree.ENTRY_BITS; h += digitBits(tree)) {
        byte[] ancestor = descend(tree, ROOT, CounterTree.ENTRY_BITS - h, later >>> h);
        assertFalse(seeds.contains(HEX.formatHex(ancestor)),
            "a token of cover(" + n + ") is the height-" + h + " ancestor of leaf " + later);
      }
    }
  }

  @ParameterizedTest
  @MethodSource("smallCounts")
  void expandingTheCoverNeverYieldsLeafCountOrTheNextOne(CounterTree tree, long n) {
    List<String> reached = expandAll(tree.cover(ROOT, n));
    assertFalse(reached.contains(leafHex(tree, ROOT, n)), "cover(" + n + ") reaches leaf " + n);
    assertFalse(reached.contains(leafHex(tree, ROOT, n + 1)), "cover(" + n + ") reaches leaf " + (n + 1));
  }

  /**
   * The tree's own HMAC (two SHA-256 digests) and its per-thread paths against javax.crypto.Mac:
   * random roots, each asked for runs of consecutive leaves, jumps, repeats and going back, with
   * more roots than a thread keeps paths for.
   */
  @Test
  void leavesOfRandomRootsMatchTheJdkHmacInAnyOrder() throws GeneralSecurityException {
    List<byte[]> roots = new ArrayList<>();
    for (int i = 0; i < CounterTree.REMEMBERED_PATHS + 40; i++) {
      byte[] root = new byte[CounterTree.SEED_BYTES];
      RANDOM.nextBytes(root);
      roots.add(root);
    }
    for (int round = 0; round < 3; round++) {
      for (byte[] root : roots) {
        long start = RANDOM.nextInt(4) == 0 ? RANDOM.nextLong(ALL - 20) : RANDOM.nextLong(50);
        for (long index : new long[] {start, start + 1, start + 2, start + 2, start, start + 17, ALL - 1, 0}) {
          for (CounterTree tree : TREES) {
            assertEquals(HEX.formatHex(descend(tree, root, CounterTree.ENTRY_BITS, index)), leafHex(tree, root, index),
                tree + ", root " + HEX.formatHex(root) + ", leaf " + index);
          }
        }
      }
    }
  }

  /** Lane secrets are HMAC-SHA256 too: checked against javax.crypto.Mac for random seeds and messages. */
  @Test
  void prfIsTheJdkHmacAndRefusesMessagesANodeCouldHave() throws GeneralSecurityException {
    for (int i = 0; i < 50; i++) {
      byte[] seed = new byte[CounterTree.SEED_BYTES];
      RANDOM.nextBytes(seed);
      byte[] message = new byte[2 + RANDOM.nextInt(80)];
      RANDOM.nextBytes(message);
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(seed, "HmacSHA256"));
      assertEquals(HEX.formatHex(mac.doFinal(message)), HEX.formatHex(CounterTree.prf(seed, message)),
          message.length + "-byte message");
    }
    assertThrows(IllegalArgumentException.class, () -> CounterTree.prf(ROOT, new byte[1]));
    assertThrows(IllegalArgumentException.class, () -> CounterTree.prf(ROOT, new byte[0]));
  }

  /** Stored entries are keyed by these leaves: the tree must never change. Computed with Python's hmac. */
  @Test
  void leavesMatchAnIndependentImplementation() {
    assertEquals("7d146ff49fa7e3c5acb0714d3b202820", leafHex(ROOT, 0));
    assertEquals("63eea0422b071e5673194cb518cf43f7", leafHex(ROOT, 1));
    assertEquals("bd5c17119b8ca5fe72a30b7901b9bb61", leafHex(ROOT, 0x12345678L));
    assertEquals("77a4dbe9bfbfb2a4a812eb778fb8cb26", leafHex(ROOT, ALL - 1));
    assertEquals("8333c569babd9204eaef840fa8a6832c", leafHex(CounterTree.WIDE, ROOT, 0));
    assertEquals("742239e4ccfdbad129fa97ac3f34846b", leafHex(CounterTree.WIDE, ROOT, 1));
    assertEquals("32527c6421abc6c2caa70ba8f9edcf06", leafHex(CounterTree.WIDE, ROOT, 0x12345678L));
    assertEquals("015d01c1a80ed00201a13159ab4b9b68", leafHex(CounterTree.WIDE, ROOT, ALL - 1));
  }

  @Test
  void leavesAreDistinctAcrossIndexesAndRoots() {
    byte[] neighbour = ROOT.clone();
    neighbour[15] ^= 1;
    byte[] random = new byte[CounterTree.SEED_BYTES];
    RANDOM.nextBytes(random);
    long[] indexes = LongStream.concat(LongStream.range(0, 1024), LongStream.of(1L << 31, ALL - 2, ALL - 1)).toArray();
    Set<String> seen = new HashSet<>();
    for (CounterTree tree : TREES) {
      for (byte[] root : List.of(ROOT, neighbour, random)) {
        for (long i : indexes) {
          assertTrue(seen.add(leafHex(tree, root, i)), tree + ": leaf " + i + " repeats another leaf");
        }
      }
    }
    assertEquals(TREES.size() * 3 * indexes.length, seen.size());
  }

  @Test
  void leafIsDeterministicAndLeavesItsInputsAlone() {
    byte[] root = ROOT.clone();
    byte[] first = CounterTree.BINARY.leaf(root, 12345);
    first[0] ^= 1;
    assertEquals(leafHex(ROOT, 12345), leafHex(root, 12345));
    assertNotEquals(HEX.formatHex(first), leafHex(root, 12345));
    CounterTree.BINARY.cover(root, 777);
    CounterTree.expand(CounterTree.BINARY.cover(root, 5).get(0), leaf -> leaf[0] ^= 1);
    assertArrayEquals(ROOT, root, "the root must not change");
  }

  @Test
  void leafRejectsEntryNumbersOutsideTheTree() {
    for (long bad : new long[] {-1, Long.MIN_VALUE, ALL, ALL + 1, Long.MAX_VALUE}) {
      assertThrows(IllegalArgumentException.class, () -> CounterTree.BINARY.leaf(ROOT, bad), "entry " + bad);
    }
    assertDoesNotThrow(() -> CounterTree.BINARY.leaf(ROOT, 0));
    assertDoesNotThrow(() -> CounterTree.BINARY.leaf(ROOT, ALL - 1));
  }

  @Test
  void coverRejectsCountsOutsideTheTree() {
    for (long bad : new long[] {-1, Long.MIN_VALUE, ALL + 1, Long.MAX_VALUE}) {
      assertThrows(IllegalArgumentException.class, () -> CounterTree.BINARY.cover(ROOT, bad), "count " + bad);
    }
  }

  @ParameterizedTest
  @MethodSource("trees")
  void coverOfEveryEntryIsACopyOfTheRoot(CounterTree tree) {
    byte[] root = ROOT.clone();
    List<SubtreeToken> cover = tree.cover(root, ALL);
    assertEquals(1, cover.size());
    assertEquals(CounterTree.ENTRY_BITS, cover.get(0).height());
    assertEquals(0, cover.get(0).firstLeaf());
    root[0] ^= 1;
    assertArrayEquals(ROOT, cover.get(0).seed(), "the token must not share the caller's array");
    assertTrue(tree.cover(ROOT, 0).isEmpty());
  }

  static Stream<CounterTree> trees() {
    return TREES.stream();
  }

  @ParameterizedTest
  @MethodSource("trees")
  void tokensSurviveTheirWireForm(CounterTree tree) {
    List<SubtreeToken> tokens = new ArrayList<>(tree.cover(ROOT, ALL - 1)); // every height
    tokens.addAll(tree.cover(ROOT, ALL));
    tokens.addAll(tree.cover(ROOT, 1000));
    for (SubtreeToken t : tokens) {
      byte[] wire = t.toBytes();
      assertEquals(SubtreeToken.BYTES, wire.length);
      SubtreeToken parsed = SubtreeToken.parse(wire);
      assertEquals(tree, parsed.tree(), t.toString());
      assertEquals(t.height(), parsed.height(), t.toString());
      assertEquals(t.firstLeaf(), parsed.firstLeaf(), t.toString());
      assertArrayEquals(t.seed(), parsed.seed(), t.toString());
      assertArrayEquals(wire, parsed.toBytes(), t.toString());
      wire[20] ^= 1;
      assertArrayEquals(t.toBytes(), parsed.toBytes(), "the parsed token must not share the wire array");
    }
    List<SubtreeToken> small = tree.cover(ROOT, 1000);
    List<SubtreeToken> reparsed = new ArrayList<>();
    small.forEach(t -> reparsed.add(SubtreeToken.parse(t.toBytes())));
    assertEquals(expandAll(small), expandAll(reparsed));
  }

  private static byte[] wire(int height, long firstLeaf) {
    return ByteBuffer.allocate(SubtreeToken.BYTES).put((byte) height).putLong(firstLeaf)
        .put(new byte[CounterTree.SEED_BYTES]).array();
  }

  @Test
  void parseRejectsMalformedTokens() {
    for (int n : new int[] {0, SubtreeToken.BYTES - 1, SubtreeToken.BYTES + 1}) {
      assertThrows(IllegalArgumentException.class, () -> SubtreeToken.parse(new byte[n]), n + " bytes");
    }
    Object[][] bad = {
      {33, 0L, "height above the tree"},
      {0x7f, 0L, "height 127"},
      {0xff, 0L, "wide, height 127"},
      {0x81, 0L, "wide, height 1: not a node of the wide tree"},
      {0x80 | 30, 0L, "wide, height 30: not a node of the wide tree"},
      {0x80 | 36, 0L, "wide, height above the tree"},
      {0x80 | 4, 8L, "wide, first leaf not aligned"},
      {0x80 | 28, ALL, "wide, range beyond 2^32"},
      {0, -1L, "negative first leaf"},
      {4, Long.MIN_VALUE, "negative first leaf, aligned"},
      {1, 1L, "first leaf not aligned"},
      {3, 4L, "first leaf not aligned"},
      {31, 1L << 30, "first leaf not aligned"},
      {0, ALL, "leaf 2^32"},
      {1, ALL, "range beyond 2^32"},
      {31, ALL, "range beyond 2^32"},
      {32, ALL, "range beyond 2^32"},
      {0, Long.MAX_VALUE, "far beyond 2^32"},
    };
    for (Object[] c : bad) {
      byte[] bytes = wire((Integer) c[0], (Long) c[1]);
      assertThrows(IllegalArgumentException.class, () -> SubtreeToken.parse(bytes),
          c[2] + " (height " + c[0] + ", first leaf " + c[1] + ")");
    }
    for (long[] ok : new long[][] {{0, ALL - 1}, {31, 1L << 31}, {32, 0}, {1, ALL - 2}}) {
      SubtreeToken t = SubtreeToken.parse(wire((int) ok[0], ok[1]));
      assertEquals(ok[1] + (1L << ok[0]), t.firstLeaf() + t.leafCount(), "the last node of its height is valid");
      assertEquals(CounterTree.BINARY, t.tree());
    }
    for (long[] ok : new long[][] {{0, ALL - 1}, {28, 15L << 28}, {32, 0}, {4, ALL - 16}}) {
      SubtreeToken t = SubtreeToken.parse(wire(0x80 | (int) ok[0], ok[1]));
      assertEquals(ok[1] + (1L << ok[0]), t.firstLeaf() + t.leafCount(), "the last wide node of its height is valid");
      assertEquals(CounterTree.WIDE, t.tree());
    }
  }

  @Test
  void tokenToStringHidesTheSeed() {
    for (SubtreeToken t : CounterTree.BINARY.cover(ROOT, 1000)) {
      assertFalse(t.toString().contains(HEX.formatHex(t.seed())), t.toString());
      assertFalse(t.toString().contains(Arrays.toString(t.seed())), t.toString());
    }
  }
}
