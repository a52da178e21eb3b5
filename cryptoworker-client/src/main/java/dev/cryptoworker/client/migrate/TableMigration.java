package dev.cryptoworker.client.migrate;

import dev.cryptoworker.client.CellDecodingException;
import dev.cryptoworker.client.SecureConnection;
import dev.cryptoworker.client.SecureTableOptions;
import dev.cryptoworker.client.cell.FilterTranslator;
import dev.cryptoworker.client.cell.OperationEncoder;
import dev.cryptoworker.client.cell.ResultDecoder;
import dev.cryptoworker.client.codec.BoxRegistry;
import dev.cryptoworker.client.codec.KeyCheck;
import dev.cryptoworker.client.codec.RegionSupport;
import dev.cryptoworker.client.codec.TableCodec;
import dev.cryptoworker.client.spi.RowWalk;
import dev.cryptoworker.cryptobox.BoxKind;
import dev.cryptoworker.cryptobox.BoxTraits;
import dev.cryptoworker.keys.KeyProvider;
import dev.cryptoworker.keys.KeyScope;
import dev.cryptoworker.region.SearchIndexCells;
import dev.cryptoworker.schema.TableSchema;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.CompareOperator;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.CheckAndMutate;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.RowMutations;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.filter.BinaryComparator;
import org.apache.hadoop.hbase.filter.FilterList;
import org.apache.hadoop.hbase.filter.FirstKeyOnlyFilter;
import org.apache.hadoop.hbase.filter.KeyOnlyFilter;
import org.apache.hadoop.hbase.filter.SingleColumnValueFilter;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * Re-encrypts a table's stored cells from one schema to another (and, with {@link
 * Builder#rekey(boolean)}, every protected value under the keyset's primary key), online.
 *
 * <ul>
 *   <li><b>Online.</b> Applications keep using the table through a {@link SecureConnection} built
 *       with {@link SecureConnection.Builder#migratingFrom(TableSchema)}: they write the new form
 *       and read both. Each row is rewritten with one check-and-mutate conditioned on the stored
 *       cells it replaces being unchanged, so a concurrent write is never overwritten with older
 *       data (the row is read again and retried).
 *   <li><b>Resumable.</b> Every {@link Builder#checkpointEvery(int)} rows the position and counts
 *       go to a checkpoint row in the counter table ({@link RowWalk}); a killed migration continues after the last
 *       checkpoint.
 *   <li><b>Idempotent.</b> A cell already in the new form (and, re-keying, under the primary key)
 *       is left alone, so rows done before a crash are only counted again as skipped.
 * </ul>
 *
 * <p><b>Rows that move.</b> When the row key's protection changes, or a re-key moves row keys and
 * qualifier names to the primary key ({@link #identityKeyAfterRekey}), each row gets a new stored
 * key: the first pass copies every old-form row to its new key (every version, same timestamps),
 * then, after {@link Builder#cleanupDelay}, a second pass deletes the old forms; clients in
 * migration mode read both ({@link MovingRowsLayout}). At the end the table's key check moves to
 * the new key.
 */
public final class TableMigration {
  /**
   * Where a migration stands: stored rows read, rewritten (or copied to their new stored key),
   * already in the new form, failed; old forms of moved rows deleted (the cleanup pass).
   */
  public record Counts(long rowsRead, long rowsRewritten, long rowsSkipped, long rowsFailed, long oldRowsDeleted,
      boolean done) {
    private static final Counts READ_ONE = new Counts(1, 0, 0, 0, 0, false);
    private static final Counts REWROTE_ONE = new Counts(1, 1, 0, 0, 0, false);
    private static final Counts SKIPPED_ONE = new Counts(1, 0, 1, 0, 0, false);
    private static final Counts FAILED_ONE = new Counts(1, 0, 0, 1, 0, false);
    private static final Counts DELETED_ONE = new Counts(0, 0, 0, 0, 1, false);
    private static final Counts NONE = new Counts(0, 0, 0, 0, 0, false);
  }

  /** Told the counts after every row. */
  @FunctionalInterface
  public interface ProgressListener {
    void progress(Counts counts);
  }

  // The checkpoint's counts (RowWalk), named as migrations have always saved them.
  private static final String READ = "read";
  private static final String REWRITTEN = "rewritten";
  private static final String SKIPPED = "skipped";
  private static final String FAILED = "failed";
  private static final String DELETED = "deleted";
  /** Phases of a migration that moves rows: copy every old form, wait, then delete them. */
  private static final long COPYING = 0;
  private static final long WAITING = 1;
  private static final long CLEANING = 2;
  private static final int ATTEMPTS_PER_ROW = 5;
  private static final int SCAN_CACHING = 100;
  private static final int FAILURES_KEPT = 20;

  /** The cluster {@code default}'s connection: the counter table, where checkpoints live. */
  private final Connection counters;
  /** The connection of the cluster the table is stored on ({@code default} unless its layout names another). */
  private final Connection connection;
  private final TableName name;
  private final TableSchema from;
  private final TableSchema to;
  private final boolean rekey;
  private final int checkpointEvery;
  private final double maxRowsPerSecond;
  private final java.time.Duration cleanupDelay;
  private final TableCodec codec;
  private final OperationEncoder encoder;
  private final int primaryKeyId;
  private final String id;
  private final List<String> failures = new ArrayList<>();

  private TableMigration(Builder b) {
    this.counters = b.clusters.get(SecureConnection.DEFAULT_CLUSTER);
    this.connection = tableCluster(b);
    this.from = b.from;
    this.to = b.to;
    this.rekey = b.rekey;
    this.checkpointEvery = b.checkpointEvery;
    this.maxRowsPerSecond = b.maxRowsPerSecond;
    this.cleanupDelay = b.cleanupDelay;
    this.name = TableName.valueOf(to.tableName());
    ColumnMigration changes = ColumnMigration.between(from, to);
    if (!changes.changesAnything() && !rekey && !b.legacyKeyCheck) {
      throw new IllegalArgumentException("table " + to.tableName() + ": " + from.source() + " and " + to.source()
          + " protect every column alike, and neither re-keying nor a legacy key check was asked: nothing to migrate");
    }
    SecureConnection.Builder secure = SecureConnection.builder().keys(b.keys).schema(to).migratingFrom(from, rekey);
    b.clusters.forEach(secure::cluster);
    if (b.legacyKeyCheck) {
      secure.options(SecureTableOptions.builder().legacyKeyChecks(to.tableName()).build());
    }
    // Only its codec is kept; the codec writes through the connection, not through this object's pool.
    try (SecureConnection built = secure.build()) {
      this.codec = built.layoutContext(name).codec();
    } catch (IOException e) {
      throw new UncheckedIOException("table " + name + ": cannot read its descriptor", e);
    }
    this.encoder = new OperationEncoder(codec, new FilterTranslator(codec, SecureTableOptions.defaults()));
    try {
      // kind: key-derivation label of a ring read for the keyset's primary key id only
      this.primaryKeyId = b.keys.keyRing(KeyScope.column(to.tableName(), "", "", BoxKind.STD), 32).primary().keyId();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("table " + to.tableName() + ": cannot derive keys", e);
    }
    this.id = idOf(from, to, rekey);
  }

  /**
   * The connection of the one cluster the table is stored on in both schemas (a migration rewrites
   * cells in place: moving a table between clusters is a copy).
   *
   * @throws IllegalArgumentException if the schemas name different clusters, or its connection is missing
   */
  private static Connection tableCluster(Builder b) {
    List<String> before = b.from.layout().clusters();
    List<String> after = b.to.layout().clusters();
    if (!before.equals(after) || after.size() != 1) {
      throw new IllegalArgumentException("table " + b.to.tableName() + ": " + b.from.source() + " stores it on "
          + before + ", " + b.to.source() + " on " + after + "; a migration rewrites cells in place on one cluster"
          + " (copy the table to move it: cryptoworker copy)");
    }
    Connection c = b.clusters.get(after.get(0));
    if (c == null) {
      throw new IllegalArgumentException("table " + b.to.tableName() + " is stored on cluster " + after.get(0)
          + ", which this migration has no connection to (TableMigration.Builder.cluster; cryptoworker migrate"
          + " --cluster-zookeeper " + after.get(0) + "=HOST:PORT)");
    }
    return c;
  }

  /**
   * The key a re-key moves row keys, qualifier names and identifier counters' names to: the
   * primary, for DET and OPE row keys. Otherwise they keep the oldest (PLAIN and STD row keys: rows
   * that cannot move).
   */
  public static OptionalInt identityKeyAfterRekey(KeyProvider keys, TableSchema schema) {
    if (!rowsMoveToNewKeys(schema)) {
      return OptionalInt.empty();
    }
    try {
      // kind: key-derivation label of a ring read for the keyset's primary key id only
      return OptionalInt.of(keys.keyRing(KeyScope.rowKey(schema.tableName(), BoxKind.DET), 32).primary().keyId());
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("table " + schema.tableName() + ": cannot derive keys", e);
    }
  }

  /**
   * Whether a re-key moves {@code schema}'s rows to the primary key: row keys under a key whose
   * rows can be found again (DET, OPE; PLAIN keys have no key, STD rows cannot be found to move).
   * Identifier counters move with them: their names are under the same key, so the moved table
   * leases from new counters. That restarts identifiers, which is safe: each writer binds a random
   * nonce of its own to them (docs/aggregates.md), so only runs get shorter.
   */
  private static boolean rowsMoveToNewKeys(TableSchema schema) {
    return rowKeysCanMove(schema);
  }

  /** Whether {@code schema}'s row keys are under a key and can be found again, so rows could move. */
  private static boolean rowKeysCanMove(TableSchema schema) {
    BoxTraits rowKeys = BoxRegistry.standard().traits(schema.rowKeyPolicy().box());
    return rowKeys.keyed() && rowKeys.findsStoredRows();
  }

  public static Builder builder() {
    return new Builder();
  }

  /** Names this migration (a hash of both schemas and the re-key flag): its checkpoint's name. */
  public String id() {
    return id;
  }

  /** What the migration changes, for people: columns and boxes, and whether it re-keys. */
  public String describe() {
    String columns = ColumnMigration.between(from, to).describe();
    return (columns.equals("nothing") ? "no column changes" : columns)
        + (rekey ? "; every protected value re-encrypted under primary key " + Integer.toUnsignedString(primaryKeyId, 16)
            + (codec.rowsMove() && codec.previousForm().orElseThrow().keyCheck().keyId() != codec.keyCheck().keyId()
                ? ", row keys and qualifier names too (rows move: copied, then the old forms deleted)"
                : " (row keys and qualifier names stay under the oldest key: " + to.rowKeyPolicy().box()
                    + " row keys)")
            : codec.rowsMove() ? "; row keys change protection (rows move: copied, then the old forms deleted)" : "");
  }

  /** Counts the table's stored rows (a key-only scan of the whole table), for progress estimates. */
  public long countRows() throws IOException {
    Scan scan = new Scan().setFilter(new FilterList(new FirstKeyOnlyFilter(), new KeyOnlyFilter())).setCaching(1000);
    long rows = 0;
    try (Table table = connection.getTable(name); ResultScanner scanner = table.getScanner(scan)) {
      while (scanner.next() != null) {
        rows++;
      }
    }
    return rows;
  }

  /** The last checkpoint of this migration, if it has run before. */
  public Optional<Counts> checkpoint() throws IOException {
    return walk().load().map(TableMigration::counts);
  }

  /** The walk over the stored rows, checkpointed in the counter table under this migration's id. */
  private RowWalk walk() {
    return RowWalk.named(counters, "migration/" + name.getNameAsString() + "/" + id, checkpointEvery);
  }

  private static Counts counts(RowWalk.Checkpoint c) {
    return new Counts(c.count(READ), c.count(REWRITTEN), c.count(SKIPPED), c.count(FAILED), c.count(DELETED), c.done());
  }

  private static Map<String, Long> countsOf(Counts c) {
    Map<String, Long> out = new LinkedHashMap<>();
    out.put(READ, c.rowsRead());
    out.put(REWRITTEN, c.rowsRewritten());
    out.put(SKIPPED, c.rowsSkipped());
    out.put(FAILED, c.rowsFailed());
    out.put(DELETED, c.oldRowsDeleted());
    return out;
  }

  /** Up to twenty rows that failed in the last {@link #run}, each with its reason. */
  public List<String> failures() {
    return List.copyOf(failures);
  }

  /**
   * Gives the table what the new schema's boxes need on the region servers (for SSE: the observer,
   * the search attribute and the counter table; regions reopen once and rebuild their index from the
   * stored index cells). Run before clients open the table with the new schema ({@code
   * migratingFrom}), which they refuse until then; {@link #run} runs it too.
   */
  public void prepare() throws IOException {
    try (Admin countersAdmin = counters.getAdmin(); Admin admin = connection.getAdmin()) {
      RegionSupport.createCounterTable(countersAdmin); // where checkpoints live, even if no box needs counters
      RegionSupport.prepareForSchema(countersAdmin, admin, to);
      // A key check of an earlier version, verified under these keys, is rewritten binding the format;
      // a table without one (accepted only with legacyKeyCheck) gets one. Clients then stop accepting either.
      TableDescriptor current = admin.getDescriptor(name);
      String check = current.getValue(KeyCheck.ATTRIBUTE);
      if ((check == null || KeyCheck.isTableOnly(check)) && !codec.rowsMove()) {
        if (check != null) {
          codec.verifyKeyCheck(check);
        }
        admin.modifyTable(TableDescriptorBuilder.newBuilder(current)
            .setValue(KeyCheck.FORMAT_ATTRIBUTE, Integer.toString(codec.storedFormat().number()))
            .setValue(KeyCheck.ATTRIBUTE, codec.keyCheck().encode()).build());
      }
    }
  }

  /**
   * Runs the migration from its last checkpoint (from the start with {@code restart}), telling
   * {@code listener} the counts after every row. A migration already done returns its counts at once
   * unless {@code restart}.
   *
   * @throws IOException if HBase fails (the checkpoint keeps the work done; run again to continue)
   */
  public Counts run(boolean restart, ProgressListener listener) throws IOException {
    prepare();
    RowWalk walk = walk();
    RowWalk.Checkpoint at = restart ? RowWalk.Checkpoint.start() : walk.load().orElse(RowWalk.Checkpoint.start());
    if (at.done()) {
      return counts(at);
    }
    failures.clear();
    if (at.phase() == COPYING) {
      at = pass(walk, at, listener);
      // Waiting protects scans against old forms vanishing; with nothing copied, nothing vanishes.
      at = new RowWalk.Checkpoint(null, codec.rowsMove() && at.count(REWRITTEN) > 0 ? WAITING : CLEANING, false,
          at.counts());
      walk.save(at);
    }
    if (at.phase() == WAITING) {
      // Scans that started before the copies were made may still be on their way to old forms.
      sleep(cleanupDelay.toMillis());
      at = new RowWalk.Checkpoint(null, CLEANING, false, at.counts());
      walk.save(at);
    }
    if (codec.rowsMove()) {
      at = pass(walk, at, listener);
      try (Admin admin = connection.getAdmin()) {
        // New clients check the table's keys against the key its rows are now under (a change reopens regions).
        TableDescriptor current = admin.getDescriptor(name);
        String check = codec.keyCheck().encode();
        if (!check.equals(current.getValue(KeyCheck.ATTRIBUTE))) {
          admin.modifyTable(TableDescriptorBuilder.newBuilder(current).setValue(KeyCheck.ATTRIBUTE, check).build());
        }
      }
    }
    at = new RowWalk.Checkpoint(null, CLEANING, true, at.counts());
    walk.save(at);
    Counts done = counts(at);
    listener.progress(done);
    return done;
  }

  /** One pass over the stored rows after {@code from}'s: the copy pass or the cleanup pass. */
  private RowWalk.Checkpoint pass(RowWalk walk, RowWalk.Checkpoint from, ProgressListener listener)
      throws IOException {
    long started = System.nanoTime();
    long[] rowsThisPass = {0};
    try (Table table = connection.getTable(name)) {
      return walk.walk(from, after -> RowWalk.scanned(table, new Scan().readAllVersions().setCaching(SCAN_CACHING), after),
          Result::getRow, (stored, counts) -> {
        Counts row = from.phase() == COPYING ? migrateRow(table, stored) : cleanRow(table, stored);
        countsOf(row).forEach(counts::add);
        listener.progress(new Counts(counts.get(READ), counts.get(REWRITTEN), counts.get(SKIPPED),
            counts.get(FAILED), counts.get(DELETED), false));
        throttle(started, ++rowsThisPass[0]);
      }, () -> { }, c -> { });
    }
  }

  private static void sleep(long millis) throws InterruptedIOException {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("migration interrupted");
    }
  }

  private void throttle(long started, long rows) throws InterruptedIOException {
    if (maxRowsPerSecond <= 0) {
      return;
    }
    long due = started + (long) (rows / maxRowsPerSecond * 1e9);
    long wait = due - System.nanoTime();
    if (wait > 0) {
      try {
        Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new InterruptedIOException("migration of " + name + " interrupted");
      }
    }
  }

  /** Rewrites one stored row if any of its cells is in the old form; retries after concurrent writes. */
  private Counts migrateRow(Table table, Result stored) throws IOException {
    byte[] storedRow = stored.getRow();
    byte[] row;
    try {
      row = codec.decodeRow(storedRow);
    } catch (CellDecodingException e) {
      if (!codec.rowsMove()) {
        return failed(storedRow, e.getMessage());
      }
      return copyOldForm(table, stored, e);
    }
    Result current = stored;
    for (int attempt = 0; attempt < ATTEMPTS_PER_ROW; attempt++) {
      RowRewrite rewrite;
      try {
        rewrite = plan(row, current);
      } catch (IOException | RuntimeException e) {
        return failed(storedRow, e.getMessage());
      }
      if (rewrite.cells.isEmpty()) {
        if (rewrite.orphans.isEmpty()) {
          return Counts.SKIPPED_ONE;
        }
        table.delete(rewrite.orphanDelete(storedRow)); // the value was rewritten by an application meanwhile
        return Counts.REWROTE_ONE;
      }
      Put storedPut = encoder.encodeCells(rewrite.logicalPut(row), new Put(storedRow));
      CheckAndMutate.Builder unchanged = CheckAndMutate.newBuilder(storedRow).ifMatches(rewrite.unchanged());
      CheckAndMutate write = rewrite.orphans.isEmpty() ? unchanged.build(storedPut)
          : unchanged.build(RowMutations.of(List.of(storedPut, rewrite.orphanDelete(storedRow))));
      if (table.checkAndMutate(write).isSuccess()) {
        return Counts.REWROTE_ONE;
      }
      // An application wrote the row meanwhile: read it again and redo what is still in the old form.
      current = table.get(new Get(storedRow).readAllVersions());
      if (current.isEmpty()) {
        return Counts.SKIPPED_ONE; // deleted meanwhile
      }
    }
    return failed(storedRow, "rewritten concurrently " + ATTEMPTS_PER_ROW + " times in a row; run the migration again");
  }

  /**
   * Copies an old-form row to its new stored key, every version with its timestamp: a newer write
   * of the new form stays newer, and a delete of the row made meanwhile still covers the copies.
   * The old form stays until the cleanup pass.
   */
  private Counts copyOldForm(Table table, Result stored, CellDecodingException notNewForm) throws IOException {
    Result logical;
    try {
      logical = new ResultDecoder(codec.previousForm().orElseThrow()).decode(stored);
    } catch (CellDecodingException e) {
      return failed(stored.getRow(), notNewForm.getMessage() + "; nor in the old form: " + e.getMessage());
    }
    Put put = new Put(logical.getRow());
    for (Cell cell : logical.rawCells()) {
      put.add(cell);
    }
    table.put(encoder.encodeCells(put, new Put(codec.encodeRow(logical.getRow()))));
    return Counts.REWROTE_ONE;
  }

  /** Deletes an old-form row whose new form exists (copying it first if it does not). */
  private Counts cleanRow(Table table, Result stored) throws IOException {
    byte[] storedRow = stored.getRow();
    try {
      codec.decodeRow(storedRow);
      return Counts.NONE; // a new form
    } catch (CellDecodingException notNewForm) {
      byte[] row;
      try {
        row = codec.previousForm().orElseThrow().decodeRow(storedRow);
      } catch (CellDecodingException e) {
        return failed(storedRow, notNewForm.getMessage() + "; nor in the old form: " + e.getMessage());
      }
      if (!table.exists(new Get(codec.encodeRow(row)))) {
        Counts copied = copyOldForm(table, stored, notNewForm);
        if (copied.rowsFailed() > 0) {
          return copied;
        }
      }
      long newest = 0;
      for (Cell c : stored.rawCells()) {
        newest = Math.max(newest, c.getTimestamp());
      }
      table.delete(new Delete(storedRow, newest));
      return Counts.DELETED_ONE;
    }
  }

  private Counts failed(byte[] storedRow, String why) {
    if (failures.size() < FAILURES_KEPT) {
      failures.add("row " + codec.printableStoredRow(storedRow) + ": " + why);
    }
    return Counts.FAILED_ONE;
  }

  /** The cells of one row still to rewrite, and the stored cells they replace. */
  private static final class RowRewrite {
    final List<Cell> cells = new ArrayList<>();
    /** Latest stored value of each stored column being replaced. */
    final Map<String, Cell> latest = new LinkedHashMap<>();
    /** Search-index cells of columns that no longer keep an index: deleted with the rewrite. */
    final List<Cell> orphans = new ArrayList<>();

    Delete orphanDelete(byte[] storedRow) {
      Delete delete = new Delete(storedRow);
      for (Cell c : orphans) {
        delete.addColumns(CellUtil.cloneFamily(c), CellUtil.cloneQualifier(c));
      }
      return delete;
    }

    Put logicalPut(byte[] row) throws IOException {
      Put put = new Put(row);
      for (Cell c : cells) {
        put.add(c);
      }
      return put;
    }

    FilterList unchanged() {
      FilterList all = new FilterList(FilterList.Operator.MUST_PASS_ALL);
      for (Cell c : latest.values()) {
        SingleColumnValueFilter same = new SingleColumnValueFilter(CellUtil.cloneFamily(c), CellUtil.cloneQualifier(c),
            CompareOperator.EQUAL, new BinaryComparator(CellUtil.cloneValue(c)));
        same.setFilterIfMissing(true);
        same.setLatestVersionOnly(true);
        all.addFilter(same);
      }
      return all;
    }
  }

  private RowRewrite plan(byte[] row, Result stored) throws IOException {
    RowRewrite rewrite = new RowRewrite();
    // Cells come newest version first: the first of each column is the one a writer may replace.
    Map<String, Cell> newest = new LinkedHashMap<>();
    for (Cell cell : stored.rawCells()) {
      byte[] family = CellUtil.cloneFamily(cell);
      byte[] storedQualifier = CellUtil.cloneQualifier(cell);
      String column = Bytes.toStringBinary(family) + "/" + Bytes.toStringBinary(storedQualifier);
      newest.putIfAbsent(column, cell);
      if (SearchIndexCells.isIndexQualifier(storedQualifier)) {
        // Made again with its value while the column keeps an index; else deleted with the rewrite.
        if (newest.get(column) == cell && !codec.isSearchable(family,
            codec.decodeQualifier(row, family, SearchIndexCells.storedQualifierOf(storedQualifier)))) {
          rewrite.orphans.add(cell);
        }
        continue;
      }
      byte[] qualifier = codec.decodeQualifier(row, family, storedQualifier);
      byte[] value = CellUtil.cloneValue(cell);
      if (!needsRewrite(row, family, qualifier, value)) {
        continue;
      }
      byte[] plaintext = codec.decodeValue(row, family, qualifier, value);
      rewrite.cells.add(new KeyValue(row, family, qualifier, cell.getTimestamp(), plaintext));
      rewrite.latest.putIfAbsent(column, newest.get(column));
    }
    return rewrite;
  }

  private boolean needsRewrite(byte[] row, byte[] family, byte[] qualifier, byte[] stored) throws IOException {
    if (codec.isMigrating(family, qualifier) && !codec.inOwnForm(row, family, qualifier, stored)) {
      return true;
    }
    if (!rekey || !BoxRegistry.standard().traits(codec.policy(family, qualifier).box()).keyed()) {
      return false;
    }
    OptionalInt keyId = codec.keyIdOf(stored, codec.policy(family, qualifier).box());
    return keyId.isPresent() && keyId.getAsInt() != primaryKeyId;
  }

  private static String idOf(TableSchema from, TableSchema to, boolean rekey) {
    try {
      MessageDigest sha = MessageDigest.getInstance("SHA-256");
      sha.update(from.toYaml().getBytes(StandardCharsets.UTF_8));
      sha.update((byte) 0);
      sha.update(to.toYaml().getBytes(StandardCharsets.UTF_8));
      sha.update((byte) (rekey ? 1 : 0));
      return HexFormat.of().formatHex(sha.digest(), 0, 8);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Options of a migration. */
  public static final class Builder {
    private final Map<String, Connection> clusters = new LinkedHashMap<>();
    private KeyProvider keys;
    private TableSchema from;
    private TableSchema to;
    private boolean rekey;
    private int checkpointEvery = 1000;
    private double maxRowsPerSecond;
    private java.time.Duration cleanupDelay = java.time.Duration.ofMinutes(2);
    private boolean legacyKeyCheck;

    private Builder() {}

    /**
     * Opens a table whose descriptor has no key check, or one of version 1 that does not bind the
     * stored format (see {@link SecureTableOptions#legacyKeyChecks()}), and gives it a current one
     * in {@link #prepare}; the schemas may then be the same (the table only gets its check). Default
     * false: such a table is refused. Only for a table known to predate format-bound key checks (a
     * server could also strip a newer table's descriptor to look so), and with the table's own keys:
     * a table without any check cannot tell a wrong keyset, and would be bound to it.
     */
    public Builder legacyKeyCheck(boolean accept) {
      this.legacyKeyCheck = accept;
      return this;
    }

    /**
     * When rows move to new stored keys: how long to wait between copying the last row and deleting
     * the old forms (default 2 minutes). Scans that started before the copies and run longer than
     * this may miss rows whose old form they had not reached yet.
     */
    public Builder cleanupDelay(java.time.Duration delay) {
      if (delay.isNegative()) {
        throw new IllegalArgumentException("cleanupDelay must not be negative, got " + delay);
      }
      this.cleanupDelay = delay;
      return this;
    }

    /**
     * The HBase connection of the cluster {@value SecureConnection#DEFAULT_CLUSTER} (a plain one: the
     * migration reads stored cells), which holds the counter table and the checkpoints, and the
     * table unless its layout names another cluster ({@link #cluster}).
     */
    public Builder connection(Connection connection) {
      return cluster(SecureConnection.DEFAULT_CLUSTER, connection);
    }

    /** The connection of cluster {@code name}, for a table whose layout stores it there, as {@link SecureConnection.Builder#cluster}. */
    public Builder cluster(String name, Connection connection) {
      clusters.put(Objects.requireNonNull(name, "name"), Objects.requireNonNull(connection, "connection"));
      return this;
    }

    public Builder keys(KeyProvider keys) {
      this.keys = Objects.requireNonNull(keys, "keys");
      return this;
    }

    /** The schema the stored data was written under. */
    public Builder from(TableSchema from) {
      this.from = Objects.requireNonNull(from, "from");
      return this;
    }

    /** The schema to move to (the same as {@code from} for a re-key only). */
    public Builder to(TableSchema to) {
      this.to = Objects.requireNonNull(to, "to");
      return this;
    }

    /** Also re-encrypts every protected value not under the keyset's primary key (default false). */
    public Builder rekey(boolean rekey) {
      this.rekey = rekey;
      return this;
    }

    /** Rows between checkpoints (default 1000): at most this many are read again after a crash. */
    public Builder checkpointEvery(int rows) {
      if (rows < 1) {
        throw new IllegalArgumentException("checkpointEvery must be at least 1, got " + rows);
      }
      this.checkpointEvery = rows;
      return this;
    }

    /** At most this many rows per second (default 0: as fast as HBase takes them). */
    public Builder maxRowsPerSecond(double rows) {
      if (rows < 0) {
        throw new IllegalArgumentException("maxRowsPerSecond must not be negative, got " + rows);
      }
      this.maxRowsPerSecond = rows;
      return this;
    }

    /**
     * The migration, checked: same table, supported changes, something to do.
     *
     * @throws IllegalArgumentException if the schemas are of different tables or nothing changes
     * @throws UnsupportedOperationException naming the column and why, for unsupported changes
     */
    public TableMigration build() {
      if (!clusters.containsKey(SecureConnection.DEFAULT_CLUSTER)) {
        throw new NullPointerException("connection (of the cluster " + SecureConnection.DEFAULT_CLUSTER + ")");
      }
      Objects.requireNonNull(keys, "keys");
      Objects.requireNonNull(from, "from");
      Objects.requireNonNull(to, "to");
      return new TableMigration(this);
    }
  }

  @Override
  public String toString() {
    return "TableMigration[" + name + ", " + id + "]";
  }
}
