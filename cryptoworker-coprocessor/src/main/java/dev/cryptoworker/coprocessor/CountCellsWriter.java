package dev.cryptoworker.coprocessor;

import dev.cryptoworker.region.CountCellsFirst;
import dev.cryptoworker.region.CountLogCells;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.DoNotRetryIOException;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Durability;
import org.apache.hadoop.hbase.client.Mutation;
import org.apache.hadoop.hbase.client.Put;
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
 * written through the server's connection, synced as any client write. Cells go only to a table
 * marked as the counter table ({@link CountLogCells#TABLE_ATTRIBUTE}): a client allowed to write a
 * data table cannot write other tables through it.
 */
final class CountCellsWriter {
  /** Whether each table met is a counter table, for the ones written remotely (one descriptor read each). */
  private static final Map<TableName, Boolean> COUNTER_TABLES = new ConcurrentHashMap<>();
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
      write(table, cells, put);
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
      Put put = new Put(cell.row()).addColumn(cell.family(), cell.qualifier(), cell.timestamp(), cell.value());
      Region region = regionOf(open, cell.row());
      if (region == null) {
        remote.add(put);
      } else {
        local.computeIfAbsent(region, r -> new ArrayList<>()).add(put);
      }
    }
    for (Map.Entry<Region, List<Mutation>> e : local.entrySet()) {
      if (sharesLogOf(e.getKey(), row)) {
        e.getValue().forEach(m -> m.setDurability(Durability.ASYNC_WAL));
      }
      for (OperationStatus status : e.getKey().batchMutate(e.getValue().toArray(new Mutation[0]))) {
        if (status.getOperationStatusCode() != HConstants.OperationStatusCode.SUCCESS) {
          throw new IOException(where(row) + ": writing its count cells first failed: " + status.getOperationStatusCode()
              + " " + status.getExceptionMsg());
        }
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
      if (r.getRegionInfo().containsRow(row)) {
        return r;
      }
    }
    return null;
  }

  private boolean isCounterTable(TableName table, List<? extends Region> open) throws IOException {
    if (!open.isEmpty()) {
      return isCounterTable(open.get(0).getTableDescriptor());
    }
    Boolean known = COUNTER_TABLES.get(table);
    if (known == null) {
      try (var admin = env.getConnection().getAdmin()) {
        known = isCounterTable(admin.getDescriptor(table));
      }
      COUNTER_TABLES.put(table, known);
    }
    return known;
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
