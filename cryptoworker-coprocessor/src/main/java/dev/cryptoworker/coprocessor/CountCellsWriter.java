package dev.cryptoworker.coprocessor;

import dev.cryptoworker.region.CountCellsFirst;
import dev.cryptoworker.region.CountLogCells;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.DoNotRetryIOException;
import org.apache.hadoop.hbase.NotServingRegionException;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Durability;
import org.apache.hadoop.hbase.client.Mutation;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.coprocessor.RegionCoprocessorEnvironment;
import org.apache.hadoop.hbase.regionserver.HRegion;
import org.apache.hadoop.hbase.regionserver.OperationStatus;
import org.apache.hadoop.hbase.regionserver.Region;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * Writes the counter-table cells a put carries ({@link CountCellsFirst}) before the put's row, so a
 * single put stores its count cells and its row in one round trip from the client.
 *
 * <p>A counter region open on this server is written directly. When it shares the row's
 * write-ahead log, its edits are appended without a sync of their own: the row's edits come after
 * them in the same log, so whenever the row is durable, so are they. Other counter regions are
 * written through the server's connection, synced as any client write (clients carry count cells
 * only for counter regions their cached locations put on the row's server, so this is the case of
 * a region that moved meanwhile). Cells go only to a table marked as the counter table ({@link
 * CountLogCells#TABLE_ATTRIBUTE}), never to its family of compacted lanes: a client allowed to
 * write a data table cannot write other tables through it. Under HBase's access control, the
 * counter table's write permission is checked against this server, not the client.
 */
final class CountCellsWriter {
  /** Counter tables met that are written remotely (one descriptor read each). */
  private static final Set<TableName> COUNTER_TABLES = ConcurrentHashMap.newKeySet();
  /** How long a write to a counter region on another server may take, retries included. */
  private static final int REMOTE_TIMEOUT_MS = 10_000;
  private final RegionCoprocessorEnvironment env;

  CountCellsWriter(RegionCoprocessorEnvironment env) {
    this.env = env;
  }

  /**
   * Takes the carried cells out of {@code put} and writes them; does nothing if it carries none.
   *
   * @throws IOException if they cannot be written (then the row is not either), or are malformed or
   *     meant for a table that is no counter table ({@link DoNotRetryIOException}, naming why)
   */
  void writeFirst(Put put) throws IOException {
    List<Cell> carried = put.getFamilyCellMap().remove(CountCellsFirst.FAMILY);
    if (carried == null) {
      return;
    }
    for (Cell c : carried) {
      TableName table;
      List<CountCellsFirst.CounterCell> cells;
      try {
        table = TableName.valueOf(CellUtil.cloneQualifier(c));
        cells = CountCellsFirst.decode(CellUtil.cloneValue(c));
      } catch (IllegalArgumentException e) {
        throw new DoNotRetryIOException(where(put) + ": count cells carried in the put are malformed: " + e.getMessage());
      }
      try {
        write(table, cells, put);
      } catch (RuntimeException e) {
        // A runtime exception out of an observer aborts the region server (hbase.coprocessor.abortonerror).
        throw new DoNotRetryIOException(where(put) + ": its count cells could not be written: " + e, e);
      }
    }
  }

  private String where(Put put) {
    return "table " + env.getRegion().getTableDescriptor().getTableName().getNameAsString() + ", row "
        + Bytes.toStringBinary(put.getRow());
  }

  private void write(TableName table, List<CountCellsFirst.CounterCell> cells, Put row) throws IOException {
    List<? extends Region> open = env.getOnlineRegions().getRegions(table);
    if (!isCounterTable(table, open)) {
      throw new DoNotRetryIOException(where(row) + ": the put carries count cells for " + table
          + ", which is no counter table (attribute " + CountLogCells.TABLE_ATTRIBUTE + ")");
    }
    Map<Region, List<Mutation>> local = new LinkedHashMap<>();
    List<Put> remote = new ArrayList<>();
    for (CountCellsFirst.CounterCell cell : cells) {
      if (Arrays.equals(cell.family(), CountLogCells.LANE_FAMILY)) {
        // compacted lanes are the counter regions' own: a stamp here could shadow a lane for good
        throw new DoNotRetryIOException(where(row) + ": the put carries a cell of the counter table's family "
            + Bytes.toStringBinary(CountLogCells.LANE_FAMILY) + ", which only its regions write");
      }
      Put put = new Put(cell.row()).addColumn(cell.family(), cell.qualifier(), cell.timestamp(), cell.value());
      Region region = regionOf(open, cell.row());
      if (region == null) {
        remote.add(put);
      } else {
        local.computeIfAbsent(region, r -> new ArrayList<>()).add(put);
      }
    }
    for (Map.Entry<Region, List<Mutation>> e : local.entrySet()) {
      boolean unsynced = sharesLogOf(e.getKey(), row);
      OperationStatus[] done;
      try {
        done = e.getKey().batchMutate(e.getValue().stream()
            .map(m -> unsynced ? m.setDurability(Durability.ASYNC_WAL) : m).toArray(Mutation[]::new));
      } catch (NotServingRegionException closing) {
        // closed since it was looked up (a move or split): written where it goes next, synced
        e.getValue().forEach(m -> remote.add((Put) m.setDurability(Durability.USE_DEFAULT)));
        continue;
      }
      String failed = RegionCells.firstFailure(done);
      if (failed != null) {
        throw new DoNotRetryIOException(where(row) + ": search-index entry counts were not written to " + table
            + ", so the row was not stored either: " + failed);
      }
    }
    if (!remote.isEmpty()) {
      // Bounded well below a client's RPC timeout (60 s by default), and not retried by the client
      // (the server already did): an unavailable counter table fails the put, naming why, in seconds.
      try (Table counters = env.getConnection().getTableBuilder(table, null)
          .setOperationTimeout(REMOTE_TIMEOUT_MS).setWriteRpcTimeout(REMOTE_TIMEOUT_MS / 2).build()) {
        counters.put(remote);
      } catch (IOException e) {
        throw new DoNotRetryIOException(where(row) + ": search-index entry counts were not written to " + table
            + ", so the row was not stored either: " + e.getMessage(), e);
      }
    }
  }

  private static Region regionOf(List<? extends Region> regions, byte[] row) {
    for (Region r : regions) {
      if (r.getRegionInfo().getReplicaId() == RegionInfo.DEFAULT_REPLICA_ID && r.getRegionInfo().containsRow(row)) {
        return r;
      }
    }
    return null;
  }

  private boolean isCounterTable(TableName table, List<? extends Region> open) throws IOException {
    if (!open.isEmpty()) {
      return isCounterTable(open.get(0).getTableDescriptor());
    }
    if (COUNTER_TABLES.contains(table)) {
      return true;
    }
    boolean counter;
    try (var admin = env.getConnection().getAdmin()) {
      counter = isCounterTable(admin.getDescriptor(table));
    }
    if (counter) { // only yes is kept: a table may become the counter table, not stop being it
      COUNTER_TABLES.add(table);
    }
    return counter;
  }

  private static boolean isCounterTable(TableDescriptor descriptor) {
    return "true".equals(descriptor.getValue(CountLogCells.TABLE_ATTRIBUTE));
  }

  /**
   * Whether {@code counter}'s edits may skip their own sync: it appends to the same write-ahead log
   * as the row's region, and the row is logged (a row that skips the log could outlive unsynced
   * counts).
   */
  private boolean sharesLogOf(Region counter, Put row) {
    Durability durability = row.getDurability() == Durability.USE_DEFAULT
        ? env.getRegion().getTableDescriptor().getDurability() : row.getDurability();
    return durability != Durability.SKIP_WAL && counter instanceof HRegion c && env.getRegion() instanceof HRegion r
        && c.getWAL() != null && c.getWAL() == r.getWAL();
  }
}
