package dev.cryptoworker.client.spi;

import dev.cryptoworker.client.codec.HBaseIdentifierSource;
import dev.cryptoworker.client.codec.RegionSupport;
import java.io.Closeable;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Function;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * The one resumable walk over a table's stored rows, in stored-key order, that migrations, SHARED
 * repairs and audits share: a killed walk starts again after the last row its checkpoint names,
 * with the counts it had then.
 *
 * <p>The checkpoint is one row of the counter table ({@code cryptoworker_ids}), named by the walk,
 * in family {@code c}: {@code m:next} (the stored row after which the walk resumes, empty for the
 * start), {@code m:phase} (the walker's phase), {@code m:done} (1 once finished) and {@code
 * m:<name>} per count, each an 8-byte long. Migrations wrote this format before it was shared, so
 * their checkpoints still resume.
 */
public final class RowWalk {
  private static final String PREFIX = "m:";
  private static final String NEXT = "next";
  private static final String PHASE = "phase";
  private static final String DONE = "done";

  /**
   * Where a walk stands.
   *
   * @param after the last stored row finished (null: none yet)
   * @param phase the walker's phase (its meaning is the walker's)
   * @param done whether the walk finished
   * @param counts the walker's counts, by name
   */
  public record Checkpoint(byte[] after, long phase, boolean done, Map<String, Long> counts) {
    public Checkpoint {
      after = after == null || after.length == 0 ? null : after.clone();
      counts = Collections.unmodifiableMap(new LinkedHashMap<>(counts));
      for (String name : counts.keySet()) {
        if (name.equals(NEXT) || name.equals(PHASE) || name.equals(DONE)) {
          throw new IllegalArgumentException("a count cannot be named " + name);
        }
      }
    }

    /** The start of a walk: no row done, phase 0, no counts. */
    public static Checkpoint start() {
      return new Checkpoint(null, 0, false, Map.of());
    }

    /** The count {@code name}, 0 if there is none. */
    public long count(String name) {
      return counts.getOrDefault(name, 0L);
    }

    @Override
    public byte[] after() {
      return after == null ? null : after.clone();
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Checkpoint c && Arrays.equals(after, c.after) && phase == c.phase && done == c.done
          && counts.equals(c.counts);
    }

    @Override
    public int hashCode() {
      return Objects.hash(Arrays.hashCode(after), phase, done, counts);
    }

    @Override
    public String toString() {
      return "Checkpoint[after=" + (after == null ? "start" : Bytes.toStringBinary(after)) + ", phase=" + phase
          + ", done=" + done + ", counts=" + counts + "]";
    }
  }

  /** A walker's stored rows from a point on, in stored-key order; {@link #next()} is null at the end. */
  public interface Rows<T> extends Closeable {
    T next() throws IOException;

    /** These rows, each as {@code convert} makes it. */
    default <U> Rows<U> map(Conversion<T, U> convert) {
      Rows<T> rows = this;
      return new Rows<>() {
        @Override
        public U next() throws IOException {
          T row = rows.next();
          return row == null ? null : convert.apply(row);
        }

        @Override
        public void close() throws IOException {
          rows.close();
        }
      };
    }
  }

  /** Turns one row into another form. */
  @FunctionalInterface
  public interface Conversion<T, U> {
    U apply(T row) throws IOException;
  }

  /** The rows {@code scan} reads from {@code table} after stored row {@code after} (null: from the scan's start). */
  public static Rows<Result> scanned(Table table, Scan scan, byte[] after) throws IOException {
    if (after != null) {
      scan.withStartRow(after, false);
    }
    ResultScanner scanner = table.getScanner(scan);
    return new Rows<>() {
      @Override
      public Result next() throws IOException {
        return scanner.next();
      }

      @Override
      public void close() {
        scanner.close();
      }
    };
  }

  /** Opens a walker's rows after stored row {@code after} (null: from the table's start). */
  @FunctionalInterface
  public interface RowSource<T> {
    Rows<T> open(byte[] after) throws IOException;
  }

  /** Runs before each checkpoint is saved: writes a walker holds back must be done first. */
  @FunctionalInterface
  public interface BeforeCheckpoint {
    void run() throws IOException;
  }

  private final Connection cluster;
  private final byte[] row;
  private final int every;

  private RowWalk(Connection cluster, String name, int every) {
    this.cluster = Objects.requireNonNull(cluster, "cluster");
    this.row = name.getBytes(StandardCharsets.UTF_8);
    if (every < 1) {
      throw new IllegalArgumentException("rows between checkpoints must be at least 1, got " + every);
    }
    this.every = every;
  }

  /**
   * The walk named {@code name} (its checkpoint's row: {@code migration/<table>/<id>}, {@code
   * repair/<table>}, ...), checkpointed every {@code every} rows in the counter table of {@code
   * cluster}.
   */
  public static RowWalk named(Connection cluster, String name, int every) {
    return new RowWalk(cluster, name, every);
  }

  /** The walk's last checkpoint, if it has one. */
  public Optional<Checkpoint> load() throws IOException {
    if (!counterTableExists()) {
      return Optional.empty(); // nothing has ever run on this cluster
    }
    Result r;
    try (Table counters = cluster.getTable(HBaseIdentifierSource.TABLE)) {
      r = counters.get(new Get(row).addFamily(HBaseIdentifierSource.FAMILY));
    }
    if (r.isEmpty()) {
      return Optional.empty();
    }
    Map<String, Long> counts = new LinkedHashMap<>();
    byte[] after = null;
    long phase = 0;
    boolean done = false;
    NavigableMap<byte[], byte[]> cells = r.getFamilyMap(HBaseIdentifierSource.FAMILY);
    for (Map.Entry<byte[], byte[]> cell : cells.entrySet()) {
      String name = Bytes.toString(cell.getKey());
      if (!name.startsWith(PREFIX)) {
        continue;
      }
      name = name.substring(PREFIX.length());
      switch (name) {
        case NEXT -> after = cell.getValue();
        case PHASE -> phase = Bytes.toLong(cell.getValue());
        case DONE -> done = Bytes.toLong(cell.getValue()) == 1;
        default -> counts.put(name, Bytes.toLong(cell.getValue()));
      }
    }
    return Optional.of(new Checkpoint(after, phase, done, counts));
  }

  /** Saves {@code checkpoint} (creating the counter table first if it does not exist). */
  public void save(Checkpoint checkpoint) throws IOException {
    Put put = new Put(row)
        .addColumn(HBaseIdentifierSource.FAMILY, qualifier(NEXT), checkpoint.after == null ? new byte[0] : checkpoint.after)
        .addColumn(HBaseIdentifierSource.FAMILY, qualifier(PHASE), Bytes.toBytes(checkpoint.phase))
        .addColumn(HBaseIdentifierSource.FAMILY, qualifier(DONE), Bytes.toBytes(checkpoint.done ? 1L : 0L));
    checkpoint.counts.forEach((name, n) -> put.addColumn(HBaseIdentifierSource.FAMILY, qualifier(name),
        Bytes.toBytes(n)));
    if (!counterTableExists()) {
      try (Admin admin = cluster.getAdmin()) {
        RegionSupport.createCounterTable(admin);
      }
    }
    try (Table counters = cluster.getTable(HBaseIdentifierSource.TABLE)) {
      counters.put(put);
    }
  }

  /** Forgets the checkpoint: the next walk starts from the beginning. */
  public void clear() throws IOException {
    if (!counterTableExists()) {
      return; // nothing saved
    }
    try (Table counters = cluster.getTable(HBaseIdentifierSource.TABLE)) {
      counters.delete(new Delete(row));
    }
  }

  private boolean counterTableExists() throws IOException {
    try (Admin admin = cluster.getAdmin()) {
      return admin.tableExists(HBaseIdentifierSource.TABLE);
    }
  }

  /** The counts a walker keeps while it walks: handed to each row's step, saved with each checkpoint. */
  public static final class Counts {
    private final Map<String, Long> counts;

    Counts(Map<String, Long> from) {
      this.counts = new LinkedHashMap<>(from);
    }

    /** Adds {@code n} to count {@code name}. */
    public void add(String name, long n) {
      counts.merge(name, n, Long::sum);
    }

    public long get(String name) {
      return counts.getOrDefault(name, 0L);
    }

    Map<String, Long> snapshot() {
      return counts;
    }
  }

  /** What a walker does with one stored row. */
  @FunctionalInterface
  public interface Step<T> {
    void row(T row, Counts counts) throws IOException;
  }

  /**
   * Walks {@code source}'s rows after {@code from}'s row, with {@code from}'s counts, in phase
   * {@code from.phase()}: {@code step} per row, and a checkpoint every {@code every} rows (after
   * {@code beforeCheckpoint}) naming the row's stored key ({@code storedRow}); each checkpoint also
   * goes to {@code progress}.
   *
   * @return where the walk stands after the last row (not saved: the walker decides what comes
   *     next, another phase or the end)
   */
  public <T> Checkpoint walk(Checkpoint from, RowSource<T> source, Function<T, byte[]> storedRow, Step<T> step,
      BeforeCheckpoint beforeCheckpoint, Consumer<Checkpoint> progress) throws IOException {
    Counts counts = new Counts(from.counts());
    byte[] last = from.after();
    long rows = 0;
    try (Rows<T> open = source.open(last)) {
      for (T row = open.next(); row != null; row = open.next()) {
        step.row(row, counts);
        last = storedRow.apply(row);
        if (++rows % every == 0) {
          beforeCheckpoint.run();
          Checkpoint at = new Checkpoint(last, from.phase(), false, counts.snapshot());
          save(at);
          progress.accept(at);
        }
      }
    }
    beforeCheckpoint.run();
    return new Checkpoint(last, from.phase(), false, counts.snapshot());
  }

  private static byte[] qualifier(String name) {
    return Bytes.toBytes(PREFIX + name);
  }
}
