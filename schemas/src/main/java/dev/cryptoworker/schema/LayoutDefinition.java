package dev.cryptoworker.schema;

import java.util.Map;

/**
 * A storage layout's part of the schema: reads, writes and checks its {@code layout:} section.
 * Found through {@link java.util.ServiceLoader}: a layout module lists its implementation in {@code
 * META-INF/services/dev.cryptoworker.schema.LayoutDefinition} (see {@link LayoutDefinitions}). The
 * client's {@code LayoutProvider} extends this interface, so that one registration brings both the
 * schema and the storage side of a layout.
 */
public interface LayoutDefinition {
  /** The name schemas give this layout in {@code layout: { type: ... }}, upper case. */
  String type();

  /**
   * Reads a {@code layout:} section of this type: refuses unknown keys and bad values through
   * {@link LayoutSection#error}, naming the line.
   */
  TableLayout read(LayoutSection section);

  /**
   * The section's keys after {@code type}, in the order to write them, such that {@link #read} of
   * what is written gives an equal layout. Values are strings, numbers, booleans, enum constants or
   * lists of these.
   */
  Map<String, Object> write(TableLayout layout);

  /**
   * Checks {@code layout} against the rest of the schema (row key and value protection it can
   * store), refusing through {@code at} (the schema's root: {@code at.at("rowKey").error(...)}).
   */
  void validate(TableLayout layout, ColumnPolicy rowKey, Map<String, FamilySchema> families, Location at);

  /**
   * Whether tables of this layout can keep column families their schema does not list, stored as
   * they are ({@code unlistedFamilies: PLAIN}): only a layout that stores each logical cell in its
   * own family can.
   */
  default boolean storesUnlistedFamilies() {
    return false;
  }
}
