package dev.cryptoworker.cryptobox;

import dev.cryptoworker.cryptobox.search.CounterTree;
import dev.cryptoworker.cryptobox.search.PrfOutput;
import dev.cryptoworker.cryptobox.search.SubtreeToken;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The index of one value of one column under one key: where its counter lives, how the counter is
 * masked at rest, and the keys of its entries.
 *
 * <p>Entry {@code c} (the value's c-th insert, from 0) is stored under {@link #entryKey(long)
 * entryKey(c)}, a leaf of a {@link CounterTree} rooted at a per-value secret. A search for the
 * first {@code n} entries sends {@link #searchTokens(long) searchTokens(n)}: subtrees that cover
 * exactly the leaves {@code [0, n)}, so entries inserted later stay out of reach (forward privacy).
 *
 * <p>In stored format 5 entry 0 has a key of its own ({@code firstEntryKey}, derived with the
 * counter) and entry {@code c >= 1} is leaf {@code c - 1}, so that a value written once costs no
 * tree node; a search then sends entry 0's key as a one-leaf token besides the cover of {@code [0,
 * n - 1)}.
 *
 * <p>The counter is stored as {@code mask + count} (mod 2^64), with a per-value pseudorandom mask,
 * so a stored counter's value does not show how many entries the value has (in format 6 the number
 * of its writer lanes bounds that count from below).
 *
 * <p>In stored format 6 the value's entries are split into <em>writer lanes</em>: a writer numbers
 * the entries it writes in a lane of its own, named by a random {@value #LANE_ID_BYTES}-byte id, so
 * it needs no shared counter. {@link #lane} gives a lane's own index (counter {@code name || lane
 * id}, mask, root and first entry key derived from this index's root), and a search covers every
 * lane whose counter it finds under {@link #counterName()}.
 */
public final class ValueIndex {
  private final int keyId;
  private final PrfOutput counterName;
  private final long counterMask;
  private final byte[] root;
  private final CounterTree tree;
  /** Format 5: entry 0's key; null where entry 0 is leaf 0. */
  private final byte[] firstEntryKey;
  /** Format 6: entries are numbered in writer lanes ({@link #lane}), not under this counter. */
  private final boolean writerLanes;
  /** Format 7: the lanes' counts are logged ({@link #hasCountLogs}). */
  private final boolean countLogs;

  /** Bytes of a writer lane's id: random, so any two of 2^24 lanes of one value collide with probability below 2^-48. */
  public static final int LANE_ID_BYTES = 12;
  private static final byte[] LANE_SECRETS = "lane".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] LANE_MASK = "lane-mask".getBytes(StandardCharsets.US_ASCII);

  /**
   * @param keyId the id of the key this index is derived under
   * @param counterName the name of the value's counter (a PRF output; reveals nothing about the value)
   * @param counterMask the value's pseudorandom counter offset
   * @param root the secret root of the value's counter tree ({@link CounterTree#SEED_BYTES} bytes)
   * @param tree the shape of the counter tree, fixed by the table's stored format
   */
  public ValueIndex(int keyId, byte[] counterName, long counterMask, byte[] root, CounterTree tree) {
    this(keyId, counterName, counterMask, root, tree, null);
  }

  /**
   * As above, with entry 0 keyed by {@code firstEntryKey} ({@link CounterTree#SEED_BYTES} bytes) and
   * entry {@code c >= 1} by leaf {@code c - 1} (stored format 5).
   */
  public ValueIndex(int keyId, byte[] counterName, long counterMask, byte[] root, CounterTree tree,
      byte[] firstEntryKey) {
    this(keyId, counterName, counterMask, root, tree, firstEntryKey, false);
  }

  /**
   * As above, with {@code writerLanes}: whether writers number entries in lanes of their own
   * ({@link #lane}, stored format 6), which needs {@code firstEntryKey}.
   */
  public ValueIndex(int keyId, byte[] counterName, long counterMask, byte[] root, CounterTree tree,
      byte[] firstEntryKey, boolean writerLanes) {
    this(keyId, counterName, counterMask, root, tree, firstEntryKey, writerLanes, false);
  }

  /**
   * As above, with {@code countLogs}: whether the lanes' counts are logged, a batch's in one cell
   * (stored format 7), which needs writer lanes.
   */
  public ValueIndex(int keyId, byte[] counterName, long counterMask, byte[] root, CounterTree tree,
      byte[] firstEntryKey, boolean writerLanes, boolean countLogs) {
    if (countLogs && !writerLanes) {
      throw new IllegalArgumentException("count logs log the counts of writer lanes");
    }
    if (writerLanes && firstEntryKey == null) {
      throw new IllegalArgumentException("writer lanes key their first entries apart from the tree");
    }
    if (root.length != CounterTree.SEED_BYTES
        || (firstEntryKey != null && firstEntryKey.length != CounterTree.SEED_BYTES)) {
      throw new IllegalArgumentException("a counter tree root and an entry key have " + CounterTree.SEED_BYTES + " bytes");
    }
    this.keyId = keyId;
    this.counterName = PrfOutput.copyOf(counterName);
    this.counterMask = counterMask;
    this.root = root.clone();
    this.tree = Objects.requireNonNull(tree, "tree");
    this.firstEntryKey = firstEntryKey == null ? null : firstEntryKey.clone();
    this.writerLanes = writerLanes;
    this.countLogs = countLogs;
  }

  /** Bytes of a writer's lane key ({@link #laneId}). */
  public static final int LANE_KEY_BYTES = CounterTree.SEED_BYTES;
  /** The most entries one counter or lane numbers. */
  public static final long MAX_ENTRIES = CounterTree.MAX_ENTRIES;

  /**
   * The id of this value's lane in epoch {@code epoch} of the writer whose random key is {@code
   * laneKey}: HMAC-SHA256(laneKey, epoch || counter name), first {@value #LANE_ID_BYTES} bytes. Ids
   * of one writer's lanes of two values are unlinkable without its key.
   */
  public byte[] laneId(byte[] laneKey, long epoch) {
    if (laneKey.length != LANE_KEY_BYTES) {
      throw new IllegalArgumentException("a lane key has " + LANE_KEY_BYTES + " bytes");
    }
    byte[] name = counterName.toByteArray();
    byte[] message = ByteBuffer.allocate(Long.BYTES + name.length).putLong(epoch).put(name).array();
    return Arrays.copyOf(CounterTree.prf(laneKey, message), LANE_ID_BYTES);
  }

  /** Whether writers number this value's entries in lanes of their own ({@link #lane}) rather than under its counter. */
  public boolean hasWriterLanes() {
    return writerLanes;
  }

  /**
   * Whether the counts of this value's lanes are logged (stored format 7): a batch's in one cell
   * of the counter table, found by asking its regions, where format 6 stores a row per lane.
   */
  public boolean hasCountLogs() {
    return countLogs;
  }

  /**
   * The index of this value's entries in the writer lane {@code laneId}: its counter is named
   * {@code counterName() || laneId}, and its mask, root and first entry key are HMAC-SHA256 of the
   * lane id under this index's root, which no search token reveals.
   *
   * @throws IllegalStateException if this index has no writer lanes
   */
  public ValueIndex lane(byte[] laneId) {
    if (!writerLanes) {
      throw new IllegalStateException("this value index has no writer lanes (stored formats before 6)");
    }
    if (laneId.length != LANE_ID_BYTES) {
      throw new IllegalArgumentException("a lane id has " + LANE_ID_BYTES + " bytes, not " + laneId.length);
    }
    byte[] secrets = CounterTree.prf(root, concat(LANE_SECRETS, laneId));
    byte[] mask = CounterTree.prf(root, concat(LANE_MASK, laneId));
    byte[] laneRoot = Arrays.copyOf(secrets, CounterTree.SEED_BYTES);
    byte[] laneFirst = Arrays.copyOfRange(secrets, CounterTree.SEED_BYTES, 2 * CounterTree.SEED_BYTES);
    try {
      return new ValueIndex(keyId, concat(counterName.toByteArray(), laneId), ByteBuffer.wrap(mask).getLong(), laneRoot,
          tree, laneFirst, false);
    } finally {
      Arrays.fill(secrets, (byte) 0);
      Arrays.fill(mask, (byte) 0);
      Arrays.fill(laneRoot, (byte) 0);
      Arrays.fill(laneFirst, (byte) 0);
    }
  }

  /**
   * The lane index of the counter row {@code counterRow}, found by a scan of this value's counter
   * name as prefix; empty if the row is not one of this value's lanes.
   */
  public Optional<ValueIndex> laneOfCounter(byte[] counterRow) {
    byte[] name = counterName.toByteArray();
    if (!writerLanes || counterRow.length != name.length + LANE_ID_BYTES
        || !Arrays.equals(counterRow, 0, name.length, name, 0, name.length)) {
      return Optional.empty();
    }
    return Optional.of(lane(Arrays.copyOfRange(counterRow, name.length, counterRow.length)));
  }

  private static byte[] concat(byte[] a, byte[] b) {
    byte[] out = Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, out, a.length, b.length);
    return out;
  }

  public int keyId() {
    return keyId;
  }

  /** The row name of this value's counter. */
  public byte[] counterName() {
    return counterName.toByteArray();
  }

  /** The row name of this value's counter, as a map key. */
  public PrfOutput counterKey() {
    return counterName;
  }

  /** What a counter is first set to: the stored form of count 0. */
  public long initialCounter() {
    return counterMask;
  }

  /**
   * How many entries were numbered when the counter read {@code storedCounter}.
   *
   * @throws IllegalStateException if the counter is not one this index set up (another key, or
   *     damaged)
   */
  public long count(long storedCounter) {
    long count = storedCounter - counterMask;
    if (count < 0 || count > CounterTree.MAX_ENTRIES) {
      throw new IllegalStateException("the counter holds " + storedCounter
          + ", which is not a count under this key (damaged, or written by another key)");
    }
    return count;
  }

  /** The number of the entry a writer got when its increment returned {@code storedCounter}. */
  public long entryNumber(long storedCounterAfterIncrement) {
    long count = count(storedCounterAfterIncrement);
    if (count == 0) {
      throw new IllegalStateException("an incremented counter cannot read zero entries");
    }
    return count - 1;
  }

  /** The key entry {@code entry} is stored under. */
  public byte[] entryKey(long entry) {
    if (firstEntryKey == null) {
      return tree.leaf(root, entry);
    }
    return entry == 0 ? firstEntryKey.clone() : tree.leaf(root, entry - 1);
  }

  /** Tokens that reach exactly the entries {@code [0, count)}. */
  public List<SubtreeToken> searchTokens(long count) {
    if (firstEntryKey == null || count == 0) {
      return tree.cover(root, count);
    }
    List<SubtreeToken> out = new ArrayList<>();
    out.add(tree.singleEntry(firstEntryKey));
    out.addAll(tree.cover(root, count - 1));
    return out;
  }

  /** {@link #searchTokens(long) searchTokens(count)} as the region servers take them ({@link SubtreeToken#toBytes()}). */
  public List<byte[]> encodedSearchTokens(long count) {
    return searchTokens(count).stream().map(SubtreeToken::toBytes).toList();
  }

  @Override
  public String toString() {
    return "ValueIndex[key=" + Integer.toUnsignedString(keyId, 16) + "]";
  }
}
