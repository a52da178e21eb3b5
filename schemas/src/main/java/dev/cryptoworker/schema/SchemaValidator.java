package dev.cryptoworker.schema;

import dev.cryptoworker.cryptobox.BoxKind;
import dev.cryptoworker.cryptobox.StoredFormat;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Every rule a schema must satisfy, in one place. The builders run them when they build; the YAML
 * loader checks only the YAML form (mappings, known keys, single values, box and type names),
 * fills the builders and builds at the document's locations, so both paths refuse the same
 * schemas for the same reasons, a document with its line and a built schema with the path the key
 * would have in YAML.
 */
final class SchemaValidator {
  private static final Pattern TABLE_NAME =
      Pattern.compile("([A-Za-z0-9_]+:)?[A-Za-z0-9_][A-Za-z0-9_.-]*");
  private static final Pattern FAMILY_NAME = Pattern.compile("[A-Za-z0-9_][A-Za-z0-9_.-]*");
  private static final Set<BoxKind> ROW_KEY_BOXES =
      Set.of(BoxKind.PLAIN, BoxKind.STD, BoxKind.DET, BoxKind.OPE);

  private SchemaValidator() {}

  /**
   * The table, once its name and row key pass; {@code at} is the document root. The families
   * were checked when they were built.
   */
  static TableSchema table(String name, ColumnPolicy rowKey, Map<String, FamilySchema> families,
      StoredFormat storedFormat, TableLayout layout, Location at) {
    if (!TABLE_NAME.matcher(name).matches()) {
      throw at.at("table").error("'" + name + "' is not a valid HBase table name");
    }
    if (rowKey == null) {
      throw at.error("rowKey is required (write rowKey: { box: PLAIN } for unprotected keys)");
    }
    Location rowKeyAt = at.at("rowKey");
    ColumnPolicy checkedRowKey = policy(rowKey, true, rowKeyAt);
    if (!ROW_KEY_BOXES.contains(rowKey.box())) {
      throw rowKeyAt.error("a row key cannot use box " + rowKey.box() + " (allowed: PLAIN, STD, DET, OPE)");
    }
    if (rowKey.companion().isPresent()) {
      throw rowKeyAt.error("a row key cannot have a companion");
    }
    if (rowKey.box() == BoxKind.OPE && rowKey.type() == ValueType.DATE) {
      throw rowKeyAt.error("an OPE row key cannot have type date (its text form would be lost);"
          + " store epoch milliseconds with type long, or ISO text with type string");
    }
    if (families.isEmpty()) {
      throw at.at("families").error("at least one family is required");
    }
    if (!LayoutDefinitions.isInstalled(layout.type())) {
      throw at.at("layout").error(LayoutDefinitions.unknown(layout.type()));
    }
    LayoutDefinitions.of(layout.type()).validate(layout, checkedRowKey, families, at);
    return new TableSchema(name, checkedRowKey, families, storedFormat, layout, at.source());
  }

  /** The family, once it passes; {@code at} is the family's key ({@code families.<name>}). */
  static FamilySchema family(
      String name,
      ColumnPolicy defaultPolicy,
      Map<String, ColumnPolicy> columns,
      boolean protectQualifiers,
      Location at) {
    if (!FAMILY_NAME.matcher(name).matches()) {
      throw at.error("'" + name + "' is not a valid column family name");
    }
    if (defaultPolicy == null) {
      throw at.error("'default' is required (the policy of qualifiers not listed under columns)");
    }
    Location defaultAt = at.at("default");
    ColumnPolicy checkedDefault = policy(defaultPolicy, false, defaultAt);
    if (checkedDefault.box() == BoxKind.SPLASHE) {
      throw defaultAt.error("SPLASHE applies to one named dimension column, not to a family default");
    }
    Location columnsAt = at.at("columns");
    Map<String, ColumnPolicy> checked = new LinkedHashMap<>();
    for (Map.Entry<String, ColumnPolicy> c : columns.entrySet()) {
      Location columnAt = columnsAt.at(c.getKey());
      if (c.getKey().isEmpty()) {
        throw columnAt.error("a qualifier name must not be empty");
      }
      if (c.getKey().indexOf('\0') >= 0) {
        throw columnAt.error("a qualifier name must not contain NUL (reserved for SPLASHE columns)");
      }
      checked.put(c.getKey(), policy(c.getValue(), false, columnAt));
    }
    checkSplays(checked, protectQualifiers, columnsAt);
    return new FamilySchema(name, checkedDefault, checked, protectQualifiers);
  }

  /** Every SPLASHE dimension splays ASHE columns of its family, each measure at most once. */
  private static void checkSplays(Map<String, ColumnPolicy> columns, boolean protectQualifiers, Location columnsAt) {
    Map<String, String> splayedBy = new LinkedHashMap<>();
    for (Map.Entry<String, ColumnPolicy> c : columns.entrySet()) {
      if (c.getValue().box() != BoxKind.SPLASHE) {
        continue;
      }
      Location columnAt = columnsAt.at(c.getKey());
      if (protectQualifiers) {
        throw columnAt.error("SPLASHE cannot be combined with protectQualifiers in the same family");
      }
      for (String measure : c.getValue().splays()) {
        ColumnPolicy m = columns.get(measure);
        if (m == null || m.box() != BoxKind.ASHE) {
          throw columnAt.error("splays: '" + measure + "' must be an ASHE column listed in the same family");
        }
        String previous = splayedBy.put(measure, c.getKey());
        if (previous != null) {
          throw columnAt.error("splays: '" + measure + "' is already splayed by '" + previous + "'");
        }
      }
    }
  }

  /**
   * The policy as a schema stores it (SPLASHE dimensions hold strings, whatever type was given),
   * once it passes.
   */
  private static ColumnPolicy policy(ColumnPolicy p, boolean rowKey, Location at) {
    BoxKind box = p.box();
    ValueType type = p.type();
    BoxKind companion = p.companion().orElse(null);
    if (companion != null) {
      if (box != BoxKind.OPE) {
        throw at.at("companion").error("a companion copy is only meaningful for OPE columns, not " + box);
      }
      if (companion != BoxKind.STD) {
        throw at.at("companion").error("the companion must be STD, got " + companion);
      }
    }
    if (box == BoxKind.OPE && type == ValueType.DATE && companion == null && !rowKey) {
      throw at.error("OPE on type date needs companion: STD (the order key, the instant, does not"
          + " keep the text's form; the authenticated companion does)");
    }
    if (box == BoxKind.ASHE && type != ValueType.LONG && type != ValueType.INT) {
      throw at.error("ASHE sums numbers: type must be long or int, got " + type.yamlName());
    }
    List<String> values = p.givenValues();
    List<String> splays = p.givenSplays();
    if (box != BoxKind.SPLASHE) {
      if (values != null || splays != null) {
        throw at.at(values != null ? "values" : "splays").error("values and splays belong to SPLASHE columns only");
      }
      return p;
    }
    if (rowKey) {
      throw at.error("a row key cannot use box SPLASHE");
    }
    if (values == null || splays == null) {
      throw at.error("a SPLASHE column needs values (its possible values) and splays (the ASHE columns it filters)");
    }
    Location valuesAt = at.at("values");
    checkItems(values, valuesAt);
    if (values.size() < 2 || new HashSet<>(values).size() != values.size()) {
      throw valuesAt.error("needs at least two distinct values");
    }
    for (String v : values) {
      if (v.indexOf('\0') >= 0) {
        throw valuesAt.error("a value must not contain NUL");
      }
    }
    Location splaysAt = at.at("splays");
    checkItems(splays, splaysAt);
    if (splays.isEmpty()) {
      throw splaysAt.error("needs at least one ASHE column to splay");
    }
    return new ColumnPolicy(box, ValueType.STRING, null, values, splays);
  }

  /**
   * List items are single, non-empty values without white space at either end, as YAML reads them
   * (the loader strips them; a builder is refused what YAML could not say).
   */
  private static void checkItems(List<String> items, Location at) {
    for (int i = 0; i < items.size(); i++) {
      String item = items.get(i);
      if (item.isBlank() || !item.equals(item.strip())) {
        throw at.item(i).error("must be a non-empty single value, without white space at either end");
      }
    }
  }
}
