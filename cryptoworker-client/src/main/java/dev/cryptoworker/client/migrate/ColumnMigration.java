package dev.cryptoworker.client.migrate;

import dev.cryptoworker.client.codec.BoxRegistry;
import dev.cryptoworker.cryptobox.BoxKind;
import dev.cryptoworker.cryptobox.BoxTraits;
import dev.cryptoworker.schema.ColumnPolicy;
import dev.cryptoworker.schema.FamilySchema;
import dev.cryptoworker.schema.TableSchema;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.TreeSet;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * What changes between the schema a table's data was written under and the schema it moves to:
 * which columns must be re-encrypted. A column changes when its policy differs, or when it moves
 * between its family default's keys and its own (listed) keys. Rows move to new stored keys when
 * the row key's protection changes (see {@link MovingRowsLayout}); what would rename cells within a
 * row (qualifier protection) is refused, naming why.
 */
public final class ColumnMigration {
  private final TableSchema from;
  private final TableSchema to;

  private ColumnMigration(TableSchema from, TableSchema to) {
    this.from = from;
    this.to = to;
  }

  /**
   * The migration from {@code from} to {@code to}.
   *
   * @throws IllegalArgumentException if the schemas are of different tables, or a family is removed
   * @throws UnsupportedOperationException naming the table, the column and the reason, for changes
   *     of row-key protection, qualifier protection, SPLASHE columns, or columns leaving SSE
   */
  public static ColumnMigration between(TableSchema from, TableSchema to) {
    String table = to.tableName();
    if (!from.tableName().equals(table)) {
      throw new IllegalArgumentException("migration between schemas of different tables: " + from.tableName()
          + " (" + from.source() + ") and " + table + " (" + to.source() + ")");
    }
    BoxRegistry boxes = BoxRegistry.standard();
    if (!from.rowKeyPolicy().equals(to.rowKeyPolicy()) && !(boxes.traits(from.rowKeyPolicy().box()).findsStoredRows()
        && boxes.traits(to.rowKeyPolicy().box()).findsStoredRows())) {
      BoxKind lost = boxes.traits(from.rowKeyPolicy().box()).findsStoredRows() ? to.rowKeyPolicy().box()
          : from.rowKeyPolicy().box();
      throw unsupported(table, "row key", "rows cannot move to or from " + lost + " row keys (" + from.rowKeyPolicy() + " to "
          + to.rowKeyPolicy() + "): randomized keys cannot be found again, so the two forms of a row could not be"
          + " read together");
    }
    ColumnMigration migration = new ColumnMigration(from, to);
    for (FamilySchema old : from.families().values()) {
      FamilySchema now = to.family(old.name()).orElseThrow(() -> new IllegalArgumentException("table " + table
          + ": family " + old.name() + " is not in " + to.source() + "; its stored data would become unreadable"));
      if (old.protectQualifiers() != now.protectQualifiers()) {
        throw unsupported(table, "family " + old.name(), "changing protectQualifiers renames every stored cell"
            + " (copy and delete), which this version does not do");
      }
      for (String column : migration.changedColumns(old, now)) {
        ColumnPolicy before = old.policyFor(column);
        ColumnPolicy after = now.policyFor(column);
        BoxTraits was = boxes.traits(before.box());
        BoxTraits becomes = boxes.traits(after.box());
        if (was.severalCellsPerValue() || becomes.severalCellsPerValue()
            || ((old.hasSplayedColumns() || now.hasSplayedColumns()) && column.equals("*"))) {
          throw unsupported(table, "column " + old.name() + ":" + column, "columns stored as several cells per value"
              + " (" + (was.severalCellsPerValue() ? before.box() + " columns"
                  : becomes.severalCellsPerValue() ? after.box() + " columns" : "the default of a family that has them")
              + ", and the columns stored beside them) cannot be migrated by this version");
        }
      }
    }
    return migration;
  }

  /** A change migration refuses, with the way that works: a copy into a new table. */
  private static UnsupportedOperationException unsupported(String table, String what, String why) {
    return new UnsupportedOperationException("table " + table + ", " + what + ": " + why + "; instead copy the table"
        + " into a new one under the new schema (`cryptoworker copy`, docs/operations.md)");
  }

  /** The columns of one family whose stored form changes, {@code *} standing for unlisted ones. */
  private List<String> changedColumns(FamilySchema old, FamilySchema now) {
    TreeSet<String> names = new TreeSet<>(old.columns().keySet());
    names.addAll(now.columns().keySet());
    names.add("*");
    List<String> out = new ArrayList<>();
    for (String name : names) {
      if (changes(old, now, name)) {
        out.add(name);
      }
    }
    return out;
  }

  private static boolean changes(FamilySchema old, FamilySchema now, String column) {
    if (column.equals("*")) {
      return !old.defaultPolicy().equals(now.defaultPolicy());
    }
    return !Objects.equals(old.policyFor(column), now.policyFor(column)) || old.isListed(column) != now.isListed(column);
  }

  /** Whether the stored form of {@code family:qualifier} changes. */
  public boolean changes(byte[] family, byte[] qualifier) {
    String name = Bytes.toString(family);
    FamilySchema old = from.family(name).orElse(null);
    FamilySchema now = to.family(name).orElse(null);
    return old != null && now != null && changes(old, now, Bytes.toString(qualifier));
  }

  /** Whether anything at all changes: the row key's protection, or any column's. */
  boolean changesAnything() {
    if (!from.rowKeyPolicy().equals(to.rowKeyPolicy())) {
      return true;
    }
    for (FamilySchema old : from.families().values()) {
      if (!changedColumns(old, to.family(old.name()).orElseThrow()).isEmpty()) {
        return true;
      }
    }
    return false;
  }

  /** {@code family:column FROM -> TO, ...}, for messages and logs. */
  public String describe() {
    List<String> parts = new ArrayList<>();
    if (!from.rowKeyPolicy().equals(to.rowKeyPolicy())) {
      parts.add("row key " + from.rowKeyPolicy().box() + " -> " + to.rowKeyPolicy().box());
    }
    for (FamilySchema old : from.families().values()) {
      FamilySchema now = to.family(old.name()).orElseThrow();
      for (String column : changedColumns(old, now)) {
        parts.add(old.name() + ":" + column + " " + old.policyFor(column).box() + " -> " + now.policyFor(column).box());
      }
    }
    return parts.isEmpty() ? "nothing" : String.join(", ", parts);
  }

  TableSchema from() {
    return from;
  }
}
