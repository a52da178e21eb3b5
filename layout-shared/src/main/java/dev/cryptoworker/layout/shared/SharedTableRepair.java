package dev.cryptoworker.layout.shared;

import dev.cryptoworker.client.codec.TableCodec;
import dev.cryptoworker.client.spi.MergedRows;
import dev.cryptoworker.client.spi.RowWalk;
import dev.cryptoworker.sharing.Reconstruction;
import dev.cryptoworker.sharing.SecretSharing;
import dev.cryptoworker.sharing.ShareDecodingException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.TreeMap;
import java.util.function.Consumer;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Brings every cluster of a SHARED table back in line after some were down or held corrupt shares:
 * with every cluster answering, for each cell it finds the version a read returns ({@link
 * NewestVersion}), and writes that version's share to each cluster that lacks it, holds an older one
 * or a corrupt one (the share the original split made, {@link SecretSharing#regenerate}); newer
 * versions, which too few clusters hold (writes never acknowledged, forged shares), and versions
 * of a cell a delete removed on the other clusters are deleted. A cell whose version has too few
 * shares, or does not decode, is left as it is and counted unrepairable. Resumable: it
 * records the last stored row it finished and its counts in the counter table (a {@link RowWalk}),
 * every {@value #CHECKPOINT_EVERY} rows, and starts after it next time. Obtained from {@link SharedTables#repair(TableName)}.
 */
public final class SharedTableRepair implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(SharedTableRepair.class);
  private static final int CHECKPOINT_EVERY = 500;
  // The checkpoint's counts (RowWalk).
  private static final String ROWS = "rows";
  private static final String WRITTEN = "written";
  private static final String DELETED = "deleted";
  private static final String UNREPAIRABLE = "unrepairable";

  /**
   * How far a repair got.
   *
   * @param rows stored rows examined (since the repair started: a resumed run counts on)
   * @param sharesWritten shares written to clusters that lacked them or held stale or corrupt ones
   * @param straysDeleted shares of versions too few clusters hold, deleted
   * @param unrepairable cells whose shares do not decode (left as they are, see the log)
   * @param resumedAfter the stored row this run started after (null: the table's start)
   */
  public record Report(long rows, long sharesWritten, long straysDeleted, long unrepairable, byte[] resumedAfter) {}

  private final SharedLayout layout;
  private final TableCodec codec;
  private final Connection counters;
  private final TableName table;

  SharedTableRepair(SharedLayout layout, TableCodec codec, Connection counters, TableName table) {
    this.layout = layout;
    this.codec = codec;
    this.counters = counters;
    this.table = table;
  }

  /** Releases the tables it holds open (not the connections). */
  @Override
  public void close() throws IOException {
    layout.close();
  }

  /**
   * Repairs the table from where the last unfinished run stopped (or from the start), calling
   * {@code progress} every {@value #CHECKPOINT_EVERY} rows and at the end.
   *
   * @throws IOException if a cluster does not answer (a repair needs every one), or HBase fails; the
   *     checkpoint keeps what was done
   */
  public Report run(Consumer<Report> progress) throws IOException {
    List<Table> tables = layout.storedTables();
    RowWalk walk = RowWalk.named(counters, "repair/" + table.getNameAsString(), CHECKPOINT_EVERY);
    RowWalk.Checkpoint from = walk.load().orElse(RowWalk.Checkpoint.start());
    byte[] resumedAfter = from.after();
    Batch batch = new Batch(tables.size());
    RowWalk.Checkpoint end = walk.walk(from, after -> layout.everyCluster(after, new Scan().setCaching(CHECKPOINT_EVERY),
        "a repair"), MergedRows::row, (merged, counts) -> {
      for (int i = 0; i < tables.size(); i++) {
        if (merged.perCluster()[i] == null) {
          throw new IOException("table " + table + ": cluster " + layout.clusterNames().get(i)
              + " stopped answering during the repair; run it again when it is back (it resumes)");
        }
      }
      long[] row = new long[3]; // written, deleted, unrepairable
      repairRow(merged.row(), merged.perCluster(), batch, row);
      counts.add(ROWS, 1);
      counts.add(WRITTEN, row[0]);
      counts.add(DELETED, row[1]);
      counts.add(UNREPAIRABLE, row[2]);
    }, () -> batch.flush(tables), at -> progress.accept(report(at, resumedAfter)));
    walk.clear();
    Report done = report(end, resumedAfter);
    progress.accept(done);
    return done;
  }

  private static Report report(RowWalk.Checkpoint at, byte[] resumedAfter) {
    return new Report(at.count(ROWS), at.count(WRITTEN), at.count(DELETED), at.count(UNREPAIRABLE), resumedAfter);
  }


  /** Mutations per cluster, written in groups. */
  private static final class Batch {
    final List<List<Put>> puts = new ArrayList<>();
    final List<List<Delete>> deletes = new ArrayList<>();

    Batch(int clusters) {
      for (int i = 0; i < clusters; i++) {
        puts.add(new ArrayList<>());
        deletes.add(new ArrayList<>());
      }
    }

    void flush(List<Table> tables) throws IOException {
      for (int i = 0; i < tables.size(); i++) {
        // Deletes first: a stray newer version must go before the older one it hid is written back.
        if (!deletes.get(i).isEmpty()) {
          tables.get(i).delete(deletes.get(i));
          deletes.get(i).clear();
        }
        if (!puts.get(i).isEmpty()) {
          tables.get(i).put(puts.get(i));
          puts.get(i).clear();
        }
      }
    }
  }

  private void repairRow(byte[] storedRow, Result[] perCluster, Batch batch, long[] counts) {
    for (Cell[] cells : MergedRows.byColumn(perCluster)) {
      repairColumn(storedRow, cells, batch, counts);
    }
  }

  /** Brings one stored column of a row in line on every cluster (cells[i]: cluster i's, or null). */
  private void repairColumn(byte[] storedRow, Cell[] cells, Batch batch, long[] counts) {
    TreeMap<Long, Map<Integer, byte[]>> byVersion = new TreeMap<>();
    Cell any = null;
    for (int i = 0; i < cells.length; i++) {
      if (cells[i] != null) {
        any = cells[i];
        byVersion.computeIfAbsent(cells[i].getTimestamp(), ts -> new HashMap<>()).put(i, CellUtil.cloneValue(cells[i]));
      }
    }
    byte[] family = CellUtil.cloneFamily(any);
    byte[] qualifier = CellUtil.cloneQualifier(any);
    SecretSharing sharing = layout.schemes().of(family, qualifier);
    boolean[] answered = new boolean[cells.length];
    Arrays.fill(answered, true);
    // The version a read with every cluster answering returns; versions newer than it are strays.
    OptionalLong choice = NewestVersion.of(cells, answered, sharing.parameters().r());
    Long kept = choice.isPresent() ? choice.getAsLong() : null;
    Reconstruction joined = null;
    String unrepairable = null;
    if (kept != null && byVersion.get(kept).size() < sharing.threshold()) {
      unrepairable = "version " + kept + " has " + byVersion.get(kept).size() + " of the " + sharing.threshold()
          + " shares needed";
    } else if (kept != null) {
      try {
        joined = sharing.join(byVersion.get(kept), null);
      } catch (ShareDecodingException e) {
        unrepairable = "version " + kept + " does not decode (" + e.getMessage() + ")";
      }
    }
    if (unrepairable != null) {
      counts[2]++;
      LOG.warn("Table {}, row {}, column {}: {}; left as it is", table, codec.printableStoredRow(storedRow),
          Bytes.toStringBinary(qualifier), unrepairable);
      return;
    }
    for (int i = 0; i < cells.length; i++) {
      Cell c = cells[i];
      boolean current = kept != null && c != null && c.getTimestamp() == kept && !joined.corruptShares().contains(i);
      if (c != null && !current && (kept == null || c.getTimestamp() > kept)) {
        batch.deletes.get(i).add(new Delete(storedRow).addColumn(family, qualifier, c.getTimestamp()));
        counts[1]++;
      }
      if (kept != null && !current) {
        try {
          byte[] share = sharing.regenerate(byVersion.get(kept), i);
          batch.puts.get(i).add(new Put(storedRow).addColumn(family, qualifier, kept, share));
          counts[0]++;
        } catch (ShareDecodingException e) {
          counts[2]++;
        }
      }
    }
  }
}
