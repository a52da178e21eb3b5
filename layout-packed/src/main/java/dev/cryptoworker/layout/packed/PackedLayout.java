package dev.cryptoworker.layout.packed;

import dev.cryptoworker.client.CellDecodingException;
import dev.cryptoworker.client.QueryPlan;
import dev.cryptoworker.client.SecureResultScanner;
import dev.cryptoworker.client.SecureTableOptions;
import dev.cryptoworker.client.codec.TableCodec;
import dev.cryptoworker.client.spi.CheckCondition;
import dev.cryptoworker.client.spi.ClientOnlyLayout;
import dev.cryptoworker.client.spi.ClientSideFilter;
import dev.cryptoworker.client.spi.LayoutContext;
import dev.cryptoworker.cryptobox.BoxKind;
import dev.cryptoworker.cryptobox.CryptoBox;
import dev.cryptoworker.keys.KeyScope;
import dev.cryptoworker.packs.MisuseResistantSeal;
import dev.cryptoworker.packs.PackCodec;
import dev.cryptoworker.packs.PackDecodingException;
import dev.cryptoworker.packs.PackDictionaries;
import dev.cryptoworker.packs.PackDictionary;
import dev.cryptoworker.packs.PackMode;
import dev.cryptoworker.packs.PackRows;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.security.GeneralSecurityException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.NavigableSet;
import java.util.TreeMap;
import java.util.concurrent.ThreadLocalRandom;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.client.CheckAndMutate;
import org.apache.hadoop.hbase.client.CheckAndMutateResult;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Mutation;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Query;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Row;
import org.apache.hadoop.hbase.client.RowMutations;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.filter.KeyOnlyFilter;
import org.apache.hadoop.hbase.io.TimeRange;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * The PACKED layout (MiniCrypt): consecutive rows, by stored row key, live together
 * in packs, each one stored cell {@code p:k} (compressed, padded, encrypted; {@link PackCodec})
 * under its pack id, the lower bound of the stored keys it holds. Pack {@value #FIRST_PACK_NAME}
 * (one zero byte, below every stored key) exists from the table's creation, so every key has a pack:
 * the one with the largest id at or below it (one reverse scan, limit 1).
 *
 * <p>Every change reads the pack, changes its rows, re-seals it and writes it only if the stored
 * pack is still the one read (checkAndMutate on its bytes), retrying on conflict; so changes to a
 * pack are serialized, and checkAndMutate and mutateRow on a row are atomic. A pack grown past 1.5x
 * {@code rowsPerPack} rows is split at a stored key R ({@link #splitKey}) in three conditional steps: the
 * pack is rewritten carrying the mark "splitting at R" (the change that grew it goes with it); a
 * new pack R is created, if absent, from the marked pack's rows at or above R; the marked pack is
 * replaced by its rows below R, if still the one marked. A writer that finds a marked pack
 * finishes its split first, so no write can reach the marked pack's moving rows between the two
 * last steps, and a client killed mid-split leaves a mark the next writer completes. Readers need
 * no mark: a get finds the right pack by its key, and a scan keeps each pack's rows below the next
 * pack's id (a marked pack still holds the rows already copied to R). Packs are never deleted.
 *
 * <p>Each logical row holds its latest version only; cells carry the pack's write timestamp.
 *
 * <p>In APPEND mode puts never touch packs: each is an entry of its row ({@link AppendEntries}),
 * merged into packs later by {@link EpochMerger} through the same conditional writes; reads merge
 * a row's entries into its pack's row.
 */
public final class PackedLayout extends ClientOnlyLayout {
  public static final byte[] FAMILY = Bytes.toBytes("p");
  static final byte[] PACK = Bytes.toBytes("k");
  static final byte[] FIRST_PACK = {0};
  private static final String FIRST_PACK_NAME = "\\x00";
  private static final int MAX_ATTEMPTS = 100;
  /** Runs between a split's first step (its pack marked) and its second; no-op but in tests. */
  private static volatile Runnable afterSplitMarked = () -> { };

  private final Table table;
  private final PackedTableLayout spec;
  private final PackCodec packs;
  private final SecureTableOptions options;
  /** A pack of more rows than this is split. */
  private final int splitAbove;
  private final PackDictionaryStore dictionaries;
  /** The dictionary new packs are compressed with (null: none), as it was when this table was opened. */
  private final PackDictionary dictionary;
  /** APPEND mode: where puts go, and what merges them into packs (null in GENERIC mode). */
  private final AppendEntries entries;
  private final EpochMerger merger;

  /** The layout of the table {@code context} names, for one {@code SecureTable}. */
  static PackedLayout open(LayoutContext context) throws IOException {
    return new PackedLayout(context.homeCluster().getTable(context.table()), context.codec(), context.options());
  }

  /**
   * The stored cells of the table {@code context} names, for inspection and audits (a {@code
   * Table} handle holds no resources to release, so the units keep theirs).
   */
  static PackedUnits storedUnits(LayoutContext context, Collection<Integer> keysetKeyIds) throws IOException {
    Table table = context.homeCluster().getTable(context.table());
    PackedTableLayout spec = (PackedTableLayout) context.layout();
    PackDictionaryStore dictionaries = new PackDictionaryStore(table, context.codec(), spec.compression());
    return new PackedUnits(table, context.codec(), packCodec(context.codec(), dictionaries::get), dictionaries,
        spec.mode() == PackMode.APPEND, keysetKeyIds);
  }

  private PackedLayout(Table table, TableCodec codec, SecureTableOptions options) throws IOException {
    super(codec, "PACKED", "region servers cannot open packs", "not supported yet",
        "rows are written into packs, which a bulk load cannot change; not supported yet", "not supported yet");
    this.spec = (PackedTableLayout) codec.schema().layout();
    this.table = table;
    this.options = options;
    this.dictionaries = new PackDictionaryStore(table, codec, spec.compression());
    this.packs = packCodec(codec, dictionaries::get);
    this.splitAbove = Math.max(2, spec.rowsPerPack() * 3 / 2);
    int current = spec.dictionary() ? dictionaries.currentVersion() : 0;
    this.dictionary = current == 0 ? null : dictionaries.get(current);
    if (spec.mode() == PackMode.APPEND) {
      EpochRecords records = new EpochRecords(table, codec.table());
      this.entries = new AppendEntries(table, codec, packs, records, spec.leaseMillis());
      this.merger = new EpochMerger(records, entries, this::mergeIntoPacks, spec.epochMillis(), spec.leaseMillis());
    } else {
      this.entries = null;
      this.merger = null;
    }
  }

  /**
   * One merge round of an APPEND table (see {@link EpochMerger}): closes the open epoch if it is
   * due, merges the closed epochs this client may into packs.
   *
   * @return the entries merged
   */
  public int mergeEpochs() throws IOException {
    return appendMerger("merging epochs").round();
  }

  /** APPEND mode: the entries not yet merged into packs and deleted. */
  public long unmergedEntries() throws IOException {
    return appendMerger("counting entries").unmerged();
  }

  /** The APPEND table's merger, or the refusal of {@code what} in GENERIC mode. */
  private EpochMerger appendMerger(String what) throws IOException {
    if (merger == null) {
      throw refused(what, "it is in mode GENERIC, which writes packs directly");
    }
    return merger;
  }

  /**
   * Trains a compression dictionary on the table's first {@code sampleRows} rows (each row one
   * sample, as packs hold it) and makes it the one new packs are compressed with; packs already
   * written keep theirs.
   *
   * @return the new dictionary's version
   */
  public int trainDictionary(int sampleRows) throws IOException {
    if (!spec.dictionary()) {
      throw refused("training a dictionary", "its schema says dictionary: false");
    }
    List<byte[]> samples = new ArrayList<>();
    try (ResultScanner s = table.getScanner(new Scan().addColumn(FAMILY, PACK).setCaching(16))) {
      for (Result r = s.next(); r != null && samples.size() < sampleRows; r = s.next()) {
        StoredPack pack = open(r);
        for (byte[] key : pack.rows().keys()) {
          if (samples.size() < sampleRows) {
            samples.add(PackDictionaries.sampleOf(pack.rows().filter(k -> Arrays.equals(k, key))));
          }
        }
      }
    }
    return dictionaries.train(samples);
  }

  /**
   * Writes the first pack of a new table (empty, id {@value #FIRST_PACK_NAME}), and in APPEND mode
   * its first epoch's record; nothing if they are there.
   */
  public static void createFirstPack(Table table, TableCodec codec) throws IOException {
    PackCodec packs = packCodec(codec, version -> null); // the first pack is sealed without a dictionary
    Put first = new Put(FIRST_PACK).addColumn(FAMILY, PACK, seal(packs, codec, FIRST_PACK, new PackRows(), null));
    if (((PackedTableLayout) codec.schema().layout()).mode() == PackMode.APPEND) {
      EpochRecords.addFirstEpoch(first);
    }
    table.checkAndMutate(CheckAndMutate.newBuilder(FIRST_PACK).ifNotExists(FAMILY, PACK).build(first));
  }

  /** The pack codec of {@code codec}'s table: its compression and padding, dictionaries from {@code dictionaries}. */
  private static PackCodec packCodec(TableCodec codec, PackCodec.Dictionaries dictionaries) {
    PackedTableLayout spec = (PackedTableLayout) codec.schema().layout();
    return PackCodec.builder(codec.table(), packBox(codec)).compression(spec.compression())
        .padding(spec.padding())
        .entryPaddingTiers(spec.entryPadding().stream().mapToInt(Integer::intValue).toArray())
        .dictionaries(dictionaries).build();
  }

  /**
   * The box packs, entries and dictionaries are sealed with: misuse-resistant (AES-SIV over a random
   * prefix and the unit, no nonce budget), opening what AES-GCM sealed before.
   */
  static CryptoBox packBox(TableCodec codec) {
    // Key-derivation labels: "pack-siv" (DET) seals; "pack" (STD) is the scope every PACKED table's
    // packs were sealed under before, kept so that they open.
    return MisuseResistantSeal.of(codec.layoutBox(KeyScope.layout(codec.table(), "pack-siv", BoxKind.DET)),
        codec.layoutBox(KeyScope.layout(codec.table(), "pack", BoxKind.STD)));
  }

  @Override
  public List<Table> storedTables() {
    return List.of(table);
  }

  // ---- packs

  private static byte[] seal(PackCodec packs, TableCodec codec, byte[] id, PackRows rows, PackDictionary dictionary)
      throws IOException {
    try {
      return packs.seal(id, rows, dictionary);
    } catch (GeneralSecurityException e) {
      throw new IOException("table " + codec.table() + ": cannot encrypt pack " + codec.printableStoredRow(id) + ": "
          + e.getMessage(), e);
    }
  }

  private StoredPack open(Result stored) throws IOException {
    Cell cell = stored.getColumnLatestCell(FAMILY, PACK);
    if (cell == null) {
      throw new CellDecodingException(codec.table(), codec.printableStoredRow(stored.getRow()), "p:k",
          "a stored row without a pack");
    }
    byte[] bytes = CellUtil.cloneValue(cell);
    try {
      return new StoredPack(stored.getRow(), bytes, cell.getTimestamp(), packs.open(stored.getRow(), bytes));
    } catch (PackDecodingException e) {
      throw new CellDecodingException(codec.table(), codec.printableStoredRow(stored.getRow()), "its pack", e.reason());
    }
  }

  /** The pack holding stored key {@code storedKey}: the one with the largest id at or below it. */
  private StoredPack packFor(byte[] storedKey) throws IOException {
    Scan scan = new Scan().withStartRow(storedKey, true).setReversed(true).setLimit(1).setCaching(1)
        .addColumn(FAMILY, PACK);
    try (ResultScanner s = table.getScanner(scan)) {
      Result r = s.next();
      if (r == null) {
        throw noFirstPack();
      }
      return open(r);
    }
  }

  /**
   * APPEND mode: the pack holding {@code storedKey} with the row's entries merged in, read in one
   * reverse scan from the row down to its pack, so the entries are read before the pack (an entry
   * merged and deleted meanwhile is in the pack when it is read).
   */
  private StoredPack packWithEntries(byte[] storedKey) throws IOException {
    Scan scan = new Scan().withStartRow(storedKey, true).setReversed(true).setCaching(4).addColumn(FAMILY, PACK)
        .addFamily(AppendEntries.FAMILY);
    PackRows rowEntries = null;
    try (ResultScanner s = table.getScanner(scan)) {
      for (Result r = s.next(); r != null; r = s.next()) {
        if (Arrays.equals(r.getRow(), storedKey)) {
          rowEntries = entries.merged(r);
        }
        if (r.containsColumn(FAMILY, PACK)) {
          StoredPack pack = open(r);
          if (rowEntries != null) {
            pack.rows().merge(rowEntries);
          }
          return pack;
        }
        // a row below with entries only: another key's, not merged yet
      }
    }
    throw noFirstPack();
  }

  private IOException noFirstPack() {
    return new IOException("table " + codec.table() + " has no first pack (" + FIRST_PACK_NAME + "): create PACKED"
        + " tables with SecureConnection.createTable");
  }

  /** The stored bytes written, or null if the stored pack was no longer {@code old}. */
  private byte[] replace(StoredPack old, PackRows rows) throws IOException {
    byte[] sealed = seal(packs, codec, old.id(), rows, dictionary);
    boolean done = table.checkAndMutate(CheckAndMutate.newBuilder(old.id()).ifEquals(FAMILY, PACK, old.bytes())
        .build(new Put(old.id()).addColumn(FAMILY, PACK, sealed))).isSuccess();
    return done ? sealed : null;
  }

  /** Tests: what runs once a split has marked its pack, before it creates the right pack (a client killed there). */
  static void afterSplitMarked(Runnable hook) {
    afterSplitMarked = hook;
  }

  /** Finishes the split {@code marked} carries: creates its right pack if absent, then shrinks it if unchanged. */
  private void completeSplit(StoredPack marked) throws IOException {
    byte[] at = marked.rows().pendingSplit();
    PackRows right = marked.rows().filter(k -> !StoredPack.below(k, at));
    PackRows left = marked.rows().filter(k -> StoredPack.below(k, at));
    table.checkAndMutate(CheckAndMutate.newBuilder(at).ifNotExists(FAMILY, PACK)
        .build(new Put(at).addColumn(FAMILY, PACK, seal(packs, codec, at, right, dictionary))));
    replace(marked, left);
  }

  /** A change to the rows of one pack: true if it changed them (false: nothing to write). */
  @FunctionalInterface
  private interface PackChange {
    /**
     * @param next the id of the pack after this one (null: none), fetched only if asked: a change
     *     may touch only rows below it
     */
    boolean apply(PackRows rows, NextPack next) throws IOException;
  }

  /** The id of the pack after a given one, read once when first asked. */
  private final class NextPack {
    private final byte[] after;
    private boolean read;
    private byte[] id;

    NextPack(byte[] after) {
      this.after = after;
    }

    /** The next pack's id, or null if none follows. */
    byte[] id() throws IOException {
      if (!read) {
        Scan scan = new Scan().withStartRow(after, false).setLimit(1).setCaching(1).addColumn(FAMILY, PACK)
            .setFilter(new KeyOnlyFilter());
        try (ResultScanner s = table.getScanner(scan)) {
          Result r = s.next();
          id = r == null ? null : r.getRow();
        }
        read = true;
      }
      return id;
    }
  }

  /**
   * Applies {@code change} to the pack holding {@code storedKey}, atomically: re-read and retried
   * while another writer changed the pack in between. A pack found marked is split first; a pack
   * that is or grows too large is split, whether or not the change changed it.
   *
   * @return what the change returned on the attempt that was written (or found nothing to change)
   */
  private boolean update(byte[] storedKey, PackChange change) throws IOException {
    for (int attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      StoredPack pack = packFor(storedKey);
      if (pack.rows().pendingSplit() != null) {
        completeSplit(pack);
        continue;
      }
      PackRows rows = pack.rows();
      // A write to this pack succeeds only if no split changed it since it was read: then no pack
      // was created inside its range either, and the next pack's id read after it still bounds it.
      boolean changed = change.apply(rows, new NextPack(pack.id()));
      byte[] splitAt = rows.size() > splitAbove ? splitKey(rows) : null;
      if (!changed && splitAt == null) {
        return false;
      }
      if (splitAt != null) {
        rows.markSplit(splitAt);
      }
      byte[] written = replace(pack, rows);
      if (written != null) {
        if (splitAt != null) {
          afterSplitMarked.run();
          completeSplit(new StoredPack(pack.id(), written, pack.timestamp(), rows));
          // Each half again while it is too large (a large batch into one pack).
          update(pack.id(), (r, n) -> false);
          update(splitAt, (r, n) -> false);
        }
        return changed;
      }
      pause(attempt);
    }
    throw new IOException("table " + codec.table() + ": gave up after " + MAX_ATTEMPTS + " conflicting writes to the"
        + " pack of row " + codec.printableStoredRow(storedKey) + " (too many writers on one pack?)");
  }

  /**
   * Where a pack too large is split: after its first {@code rowsPerPack} rows, so that keys written
   * in order (time series, APPEND merges, sorted batches) fill packs to the target instead of half;
   * in the middle if it is more than twice too large (a large batch), so that the halves' own splits
   * recurse only logarithmically deep.
   */
  private byte[] splitKey(PackRows rows) {
    int at = rows.size() > 2 * splitAbove ? (rows.size() + 1) / 2 : spec.rowsPerPack();
    int i = 0;
    for (byte[] k : rows.keys()) {
      if (i++ == at) {
        return k;
      }
    }
    throw new IllegalStateException("no key at " + at + " in " + rows.size() + " rows");
  }

  private static void pause(int attempt) throws InterruptedIOException {
    try {
      Thread.sleep(ThreadLocalRandom.current().nextInt(1, 2 + Math.min(50, 2 * attempt)));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted between attempts to write a pack");
    }
  }

  // ---- checks

  private void checkQuery(Query query, int maxVersions, TimeRange range) throws IOException {
    if (maxVersions > 1) {
      throw refused("readVersions(" + maxVersions + ")", "it keeps the latest version of each row only");
    }
    if (!range.isAllTime()) {
      throw refused("a time range", "cells carry their pack's write time, not their own");
    }
  }

  private void checkTimestamp(long ts, String what) throws IOException {
    if (ts != HConstants.LATEST_TIMESTAMP) {
      throw refused(what + " with an explicit timestamp", "it keeps the latest version of each row only");
    }
  }

  private byte[] storedRow(byte[] row) throws IOException {
    codec.checkRowType(row);
    return codec.encodeRow(row);
  }

  private void checkFamilies(Map<byte[], NavigableSet<byte[]>> families) throws IOException {
    for (byte[] f : families.keySet()) {
      codec.familySchema(f); // refuses unknown families by name
    }
  }

  // ---- reads

  private ClientSideFilter clientSideFilter(Query query) throws IOException {
    return ClientSideFilter.forQuery(codec, options, query, "PACKED", "rows inside encrypted packs");
  }

  @Override
  public Result[] get(List<Get> gets) throws IOException {
    Result[] out = new Result[gets.size()];
    for (int i = 0; i < out.length; i++) {
      Get get = gets.get(i);
      checkQuery(get, get.getMaxVersions(), get.getTimeRange());
      checkFamilies(get.getFamilyMap());
      ClientSideFilter filter = clientSideFilter(get);
      byte[] stored = storedRow(get.getRow());
      Result r = (entries == null ? packFor(stored) : packWithEntries(stored)).result(stored, get.getRow(),
          get.getFamilyMap());
      if (r != null && filter != null) {
        r = filter.apply(r);
      }
      out[i] = r == null ? Result.EMPTY_RESULT : r;
    }
    return out;
  }

  @Override
  public SecureResultScanner getScanner(Scan scan) throws IOException {
    checkQuery(scan, scan.getMaxVersions(), scan.getTimeRange());
    checkFamilies(scan.getFamilyMap());
    ClientSideFilter filter = clientSideFilter(scan);
    checkRowRange(scan);
    byte[] start = scan.getStartRow().length > 0 ? codec.encodeRow(scan.getStartRow()) : null;
    byte[] stop = scan.getStopRow().length > 0 ? codec.encodeRow(scan.getStopRow()) : null;
    PackedScanner.Bounds bounds = new PackedScanner.Bounds(start, scan.includeStartRow(), stop, scan.includeStopRow(),
        scan.isReversed());
    // APPEND mode: the range's entries first, so an entry merged and deleted meanwhile is in its pack.
    NavigableMap<byte[], PackRows> rangeEntries = entries == null ? new TreeMap<>(Arrays::compareUnsigned)
        : scan.isReversed() ? entries.inRange(stop, scan.includeStopRow(), start, scan.includeStartRow())
        : entries.inRange(start, scan.includeStartRow(), stop, scan.includeStopRow());
    // The first pack is the one holding the start (the highest key, for a reversed scan).
    StoredPack first = start == null ? null : packFor(start);
    Scan stored = new Scan().addColumn(FAMILY, PACK).setCaching(4).setReversed(scan.isReversed());
    if (first != null) {
      stored.withStartRow(first.id(), true);
    } else if (!scan.isReversed()) {
      stored.withStartRow(FIRST_PACK, true);
    }
    if (!scan.isReversed() && stop != null) {
      stored.withStopRow(stop, scan.includeStopRow());
    }
    return new PackedScanner(table.getScanner(stored), this::open, bounds, rangeEntries, scan.getFamilyMap(), codec,
        filter, scan.getLimit());
  }

  @Override
  public QueryPlan plan(Scan scan) throws IOException {
    boolean filtered = clientSideFilter(scan) != null;
    boolean ranged = scan.getStartRow().length > 0 || scan.getStopRow().length > 0;
    String packs = (entries == null ? "" : "the entries not merged yet in the range, then ")
        + (ranged ? "the pack holding the start row and every pack up to the stop row" : "every pack");
    return new QueryPlan(codec.table(), List.of(
        QueryPlan.Step.onServers("PACKED " + spec.mode() + " (" + spec.rowsPerPack() + " rows per pack, "
            + spec.compression() + "): scan of " + packs, "which packs are read, and their sizes"),
        QueryPlan.Step.onClient("opens the packs" + (filtered ? ", filter over every row of them" : ""))),
        filtered ? "the PACKED layout's servers see packs, not rows" : null);
  }

  // ---- writes

  /**
   * Checks every put, then writes them: in GENERIC mode pack by pack (sorted by stored key, puts of
   * one row keeping their order, each pack's share in one conditional write); in APPEND mode each
   * as one entry, all in one batch.
   */
  @Override
  public void put(List<Put> puts) throws IOException {
    List<byte[]> keys = new ArrayList<>(puts.size());
    for (Put put : puts) {
      check(put);
      if (put.isEmpty()) {
        throw new IllegalArgumentException("table " + codec.table() + ": a put without cells");
      }
      keys.add(storedRow(put.getRow()));
    }
    if (entries != null) {
      List<PackRows> cells = new ArrayList<>(puts.size());
      for (int i = 0; i < puts.size(); i++) {
        PackRows rows = new PackRows();
        apply(rows, keys.get(i), puts.get(i));
        cells.add(rows);
      }
      entries.write(keys, cells, dictionary);
      return;
    }
    Integer[] order = new Integer[puts.size()];
    Arrays.setAll(order, i -> i);
    Arrays.sort(order, (a, b) -> Arrays.compareUnsigned(keys.get(a), keys.get(b))); // stable
    List<byte[]> sorted = Arrays.stream(order).map(keys::get).toList();
    updateInOrder(sorted, (rows, i) -> {
      apply(rows, sorted.get(i), puts.get(order[i]));
      return true;
    }, () -> true);
  }

  /**
   * APPEND mode: merges {@code stored} entries into their packs, pack by pack (see {@link
   * EpochMerger}); false if {@code proceed} stopped it.
   */
  private boolean mergeIntoPacks(List<AppendEntries.Stored> stored, EpochMerger.Proceed proceed) throws IOException {
    List<AppendEntries.Stored> sorted = new ArrayList<>(stored);
    sorted.sort((a, b) -> Arrays.compareUnsigned(a.storedKey(), b.storedKey()));
    return updateInOrder(sorted.stream().map(AppendEntries.Stored::storedKey).toList(),
        (rows, i) -> rows.merge(sorted.get(i).rows()), proceed);
  }

  /** A change to one key's row in its pack: true if it changed the pack. */
  @FunctionalInterface
  private interface KeyChange {
    boolean apply(PackRows rows, int index) throws IOException;
  }

  /**
   * Applies {@code change} to every key of {@code sortedKeys} (ascending), pack by pack: each
   * pack's keys in one conditional write, bounded by the next pack's id read after the pack, and
   * by the pack's size (a pack grown to a split takes no more keys: the rest go to its halves).
   * {@code proceed} is asked before each pack; false stops.
   *
   * @return whether every key was applied (false: {@code proceed} stopped it)
   */
  private boolean updateInOrder(List<byte[]> sortedKeys, KeyChange change, EpochMerger.Proceed proceed)
      throws IOException {
    int at = 0;
    while (at < sortedKeys.size()) {
      if (!proceed.next()) {
        return false;
      }
      int from = at;
      int[] upTo = new int[1];
      boolean[] changed = new boolean[1];
      update(sortedKeys.get(from), (rows, next) -> {
        int i = from;
        changed[0] = false;
        // The first key's pack is this one; the following keys' while they stay below the next pack.
        do {
          changed[0] |= change.apply(rows, i);
          i++;
        } while (i < sortedKeys.size() && rows.size() <= splitAbove && StoredPack.below(sortedKeys.get(i), next.id()));
        upTo[0] = i;
        return changed[0];
      });
      at = upTo[0];
    }
    return true;
  }

  /** Applies a put's cells to {@code rows}. */
  private static void apply(PackRows rows, byte[] stored, Put put) {
    for (Map.Entry<byte[], List<Cell>> f : put.getFamilyCellMap().entrySet()) {
      for (Cell c : f.getValue()) {
        rows.put(stored, f.getKey(), CellUtil.cloneQualifier(c), CellUtil.cloneValue(c));
      }
    }
  }

  /** Applies a delete to {@code rows}: true if it removed anything. */
  private boolean apply(PackRows rows, byte[] stored, Delete delete) throws IOException {
    if (delete.getFamilyCellMap().isEmpty()) {
      return rows.deleteRow(stored);
    }
    boolean changed = false;
    for (Map.Entry<byte[], List<Cell>> f : delete.getFamilyCellMap().entrySet()) {
      for (Cell c : f.getValue()) {
        if (c.getType() == Cell.Type.DeleteFamily) {
          changed |= rows.deleteFamily(stored, f.getKey());
        } else if (c.getType() == Cell.Type.DeleteColumn) {
          changed |= rows.deleteColumn(stored, f.getKey(), CellUtil.cloneQualifier(c));
        } else {
          throw refused("a delete of one version (addColumn) or a family version",
              "it keeps the latest version only: delete whole columns (addColumns) or families");
        }
      }
    }
    return changed;
  }

  private void checkDelete(Delete delete) throws IOException {
    checkTimestamp(delete.getTimestamp(), "a delete");
    for (Map.Entry<byte[], List<Cell>> f : delete.getFamilyCellMap().entrySet()) {
      codec.familySchema(f.getKey());
      for (Cell c : f.getValue()) {
        checkTimestamp(c.getTimestamp(), "a delete");
      }
    }
  }

  /** APPEND mode takes inserts only (MiniCrypt's time-series mode): the refusal of anything else. */
  private void checkGeneric(String what) throws IOException {
    if (entries != null) {
      throw refused(what, "it is in mode APPEND, which takes puts only (declare mode: GENERIC to delete and update"
          + " conditionally)");
    }
  }

  @Override
  public void delete(List<Delete> deletes) throws IOException {
    checkGeneric("a delete");
    for (Delete delete : deletes) {
      checkDelete(delete);
      byte[] stored = storedRow(delete.getRow());
      update(stored, (rows, next) -> apply(rows, stored, delete));
    }
  }

  private boolean apply(PackRows rows, byte[] stored, Row mutation) throws IOException {
    if (mutation instanceof Put put) {
      apply(rows, stored, put);
      return true;
    }
    if (mutation instanceof Delete delete) {
      return apply(rows, stored, delete);
    }
    if (mutation instanceof RowMutations rm) {
      boolean changed = false;
      for (Mutation m : rm.getMutations()) {
        changed |= apply(rows, stored, m);
      }
      return changed;
    }
    throw refused(mutation.getClass().getSimpleName(), "only puts and deletes change a packed row");
  }

  private void check(Row mutation) throws IOException {
    if (mutation instanceof Put put) {
      checkTimestamp(put.getTimestamp(), "a put");
      for (Map.Entry<byte[], List<Cell>> f : put.getFamilyCellMap().entrySet()) {
        codec.familySchema(f.getKey());
        for (Cell c : f.getValue()) {
          checkTimestamp(c.getTimestamp(), "a cell");
          codec.checkValue(f.getKey(), CellUtil.cloneQualifier(c), CellUtil.cloneValue(c));
        }
      }
    } else if (mutation instanceof Delete delete) {
      checkDelete(delete);
    } else if (mutation instanceof RowMutations rm) {
      for (Mutation m : rm.getMutations()) {
        check(m);
      }
    } else {
      throw refused(mutation.getClass().getSimpleName(), "only puts and deletes change a packed row");
    }
  }

  @Override
  public Result mutateRow(RowMutations mutations) throws IOException {
    check(mutations);
    byte[] stored = storedRow(mutations.getRow());
    if (entries != null) {
      PackRows cells = new PackRows();
      for (Mutation m : mutations.getMutations()) {
        if (!(m instanceof Put put)) {
          throw refused("mutateRow with a " + m.getClass().getSimpleName(), "it is in mode APPEND, which takes puts"
              + " only");
        }
        apply(cells, stored, put);
      }
      entries.write(List.of(stored), List.of(cells), dictionary); // one entry: all or nothing
      return Result.EMPTY_RESULT;
    }
    update(stored, (rows, next) -> apply(rows, stored, mutations));
    return Result.EMPTY_RESULT;
  }

  @Override
  public List<CheckAndMutateResult> checkAndMutate(List<CheckAndMutate> checkAndMutates) throws IOException {
    List<CheckAndMutateResult> out = new ArrayList<>(checkAndMutates.size());
    for (CheckAndMutate cam : checkAndMutates) {
      out.add(new CheckAndMutateResult(checkAndMutate(cam), null));
    }
    return out;
  }

  /** One checkAndMutate: the condition is evaluated on the row inside its pack, in the same conditional write. */
  private boolean checkAndMutate(CheckAndMutate cam) throws IOException {
    checkGeneric("checkAndMutate");
    if (cam.getTimeRange() != null && !cam.getTimeRange().isAllTime()) {
      throw refused("checkAndMutate with a time range", "cells carry their pack's write time, not their own");
    }
    check(cam.getAction());
    if (!cam.hasFilter()) {
      codec.familySchema(cam.getFamily());
    }
    byte[] stored = storedRow(cam.getRow());
    boolean[] passed = new boolean[1];
    update(stored, (rows, next) -> {
      passed[0] = CheckCondition.holds(cam, StoredPack.result(rows, 0, stored, cam.getRow(), Map.of()));
      return passed[0] && apply(rows, stored, cam.getAction());
    });
    return passed[0];
  }

  @Override
  public void close() throws IOException {
    table.close();
  }
}
