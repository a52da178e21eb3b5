package dev.cryptoworker.schema;

import java.util.LinkedHashMap;
import java.util.Map;

/** The built-in {@code CELL} layout's section: {@code layout: { type: CELL, cluster: NAME }}. */
public class CellLayoutDefinition implements LayoutDefinition {
  @Override
  public String type() {
    return TableLayout.Cell.TYPE;
  }

  @Override
  public TableLayout read(LayoutSection section) {
    section.allowOnly("cluster");
    return new TableLayout.Cell(section.string("cluster", TableLayout.DEFAULT_CLUSTER));
  }

  @Override
  public Map<String, Object> write(TableLayout layout) {
    Map<String, Object> fields = new LinkedHashMap<>();
    fields.put("cluster", ((TableLayout.Cell) layout).cluster());
    return fields;
  }

  @Override
  public void validate(TableLayout layout, ColumnPolicy rowKey, Map<String, FamilySchema> families, Location at) {
    if (((TableLayout.Cell) layout).cluster().isBlank()) {
      throw at.at("layout").at("cluster").error("a cluster name must not be blank");
    }
  }

  @Override
  public boolean storesUnlistedFamilies() {
    return true;
  }
}
