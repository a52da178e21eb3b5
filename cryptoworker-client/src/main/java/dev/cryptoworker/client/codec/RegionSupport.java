package dev.cryptoworker.client.codec;

import dev.cryptoworker.client.StorageLayouts;
import dev.cryptoworker.cryptobox.BoxKind;
import dev.cryptoworker.region.CountLogCells;
import dev.cryptoworker.region.SearchIndexCells;
import dev.cryptoworker.schema.ColumnPolicy;
import dev.cryptoworker.schema.TableSchema;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import java.util.stream.Stream;
import org.apache.hadoop.hbase.TableExistsException;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;

/**
 * What a schema's boxes need from the cluster beyond their table: the keyless region-side observer
 * (ASHE sums, SPLASHE, SSE index walks; sums of a SHARED table's SHAMIR_P127 shares), the search attribute that makes regions keep an index, and
 * the counter table of identifier leases and SSE entry counters.
 */
public final class RegionSupport {
  /** The region-side Process step, registered on tables whose boxes need region-side work. */
  public static final String REGION_OBSERVER = "dev.cryptoworker.coprocessor.RegionRequestObserver";

  private RegionSupport() {}

  /**
   * Whether any column's box needs the region-side observer (ASHE sums, SPLASHE, SSE), or the
   * table's layout does ({@link dev.cryptoworker.client.spi.LayoutProvider#needsRegionObserver}).
   */
  public static boolean needsRegionWork(TableSchema schema) {
    return anyBox(schema, kind -> BoxRegistry.standard().traits(kind).regionWork())
        || StorageLayouts.of(schema.layout()).needsRegionObserver(schema.layout());
  }

  /** Whether any column's box keeps a search index in every region (SSE). */
  public static boolean keepsSearchIndex(TableSchema schema) {
    return anyBox(schema, kind -> BoxRegistry.standard().traits(kind).searchIndex());
  }

  /** Whether any policy of {@code schema} (family defaults and listed columns) uses a box {@code test} accepts. */
  public static boolean anyBox(TableSchema schema, Predicate<BoxKind> test) {
    return schema.families().values().stream()
        .flatMap(f -> Stream.concat(Stream.of(f.defaultPolicy()), f.columns().values().stream()))
        .map(ColumnPolicy::box)
        .anyMatch(test);
  }

  /** Adds the observer and the search attribute {@code schema} needs to a new table's descriptor. */
  public static void describe(TableSchema schema, TableDescriptorBuilder table) throws IOException {
    if (needsRegionWork(schema)) {
      table.setCoprocessor(REGION_OBSERVER);
    }
    if (keepsSearchIndex(schema)) {
      table.setValue(SearchIndexCells.TABLE_ATTRIBUTE, "true");
    }
  }

  /** Creates the counter table ({@link HBaseIdentifierSource#TABLE}) unless it exists. */
  public static void createCounterTable(Admin admin) throws IOException {
    if (admin.tableExists(HBaseIdentifierSource.TABLE)) {
      return;
    }
    try {
      // Counter rows are named by a PRF: uniform leading bytes, so sixteen regions share the load.
      byte[][] splits = new byte[15][];
      for (int i = 1; i < 16; i++) {
        splits[i - 1] = new byte[] {(byte) (i << 4)};
      }
      admin.createTable(TableDescriptorBuilder.newBuilder(HBaseIdentifierSource.TABLE)
          .setColumnFamily(ColumnFamilyDescriptorBuilder.of(HBaseIdentifierSource.FAMILY))
          .setColumnFamily(ColumnFamilyDescriptorBuilder.of(CountLogCells.LANE_FAMILY))
          .setValue(CountLogCells.TABLE_ATTRIBUTE, "true").build(), splits);
    } catch (TableExistsException e) {
      // created concurrently by another client: fine
    }
  }

  /**
   * Creates the counter table with the region-side observer, or gives an existing one the observer,
   * which takes search-index entry numbers in one batch per region ({@code CounterTakeRequest}),
   * and the attribute that makes its regions index count logs ({@link CountLogCells}, stored format
   * 7), with the family they compact their logs into ({@link CountLogCells#LANE_FAMILY}). Its
   * regions reopen once when any is added.
   */
  public static void prepareCounterTable(Admin admin) throws IOException {
    createCounterTable(admin);
    TableDescriptor current = admin.getDescriptor(HBaseIdentifierSource.TABLE);
    if (!current.hasCoprocessor(REGION_OBSERVER) || !"true".equals(current.getValue(CountLogCells.TABLE_ATTRIBUTE))
        || !current.hasColumnFamily(CountLogCells.LANE_FAMILY)) {
      TableDescriptorBuilder updated = TableDescriptorBuilder.newBuilder(current)
          .setValue(CountLogCells.TABLE_ATTRIBUTE, "true");
      if (!current.hasCoprocessor(REGION_OBSERVER)) {
        updated.setCoprocessor(REGION_OBSERVER);
      }
      if (!current.hasColumnFamily(CountLogCells.LANE_FAMILY)) {
        updated.setColumnFamily(ColumnFamilyDescriptorBuilder.of(CountLogCells.LANE_FAMILY));
      }
      admin.modifyTable(updated.build());
    }
  }

  /**
   * What {@code schema}'s boxes need on the region servers that the table ({@code descriptor}) or the
   * cluster ({@code counterTableExists}) lacks, in words; empty when nothing is missing.
   */
  public static List<String> missing(TableSchema schema, TableDescriptor descriptor, boolean counterTableExists) {
    List<String> out = new ArrayList<>();
    if (needsRegionWork(schema) && !descriptor.hasCoprocessor(REGION_OBSERVER)) {
      out.add("the region-side observer " + REGION_OBSERVER);
    }
    if (keepsSearchIndex(schema) && !"true".equals(descriptor.getValue(SearchIndexCells.TABLE_ATTRIBUTE))) {
      out.add("the search attribute " + SearchIndexCells.TABLE_ATTRIBUTE);
    }
    if (needsRegionWork(schema) && !counterTableExists) {
      out.add("the counter table " + HBaseIdentifierSource.TABLE);
    }
    return out;
  }

  /**
   * Gives an existing table what {@code schema}'s boxes need on the region servers and did not
   * need under the schema it was created with (the observer, the search attribute, the counter
   * table), keeping the rest of its descriptor. Regions reopen if the descriptor changes; their
   * search index is then rebuilt from the index cells already stored.
   *
   * @param counters the admin of the cluster holding the counter table ({@code default})
   * @param admin the admin of the cluster the table is stored on
   */
  public static void prepareForSchema(Admin counters, Admin admin, TableSchema schema) throws IOException {
    TableName name = TableName.valueOf(schema.tableName());
    TableDescriptor current = admin.getDescriptor(name);
    TableDescriptorBuilder updated = TableDescriptorBuilder.newBuilder(current);
    boolean changed = false;
    if (needsRegionWork(schema)) {
      prepareCounterTable(counters);
      if (!current.hasCoprocessor(REGION_OBSERVER)) {
        updated.setCoprocessor(REGION_OBSERVER);
        changed = true;
      }
    }
    if (keepsSearchIndex(schema) && !"true".equals(current.getValue(SearchIndexCells.TABLE_ATTRIBUTE))) {
      updated.setValue(SearchIndexCells.TABLE_ATTRIBUTE, "true");
      changed = true;
    }
    if (changed) {
      admin.modifyTable(updated.build());
    }
  }
}
