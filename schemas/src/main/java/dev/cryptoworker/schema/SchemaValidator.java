package dev.cryptoworker.schema;

import dev.cryptoworker.cryptobox.BoxKind;
import dev.cryptoworker.cryptobox.BoxProviders;
import dev.cryptoworker.cryptobox.BoxRules;
import dev.cryptoworker.cryptobox.BoxUse;
import dev.cryptoworker.cryptobox.StoredFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;
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

  private SchemaValidator() {}

  /**
   * The table, once its name and row key pass; {@code at} is the document root. The families
   * were checked when they were built.
   */
  static TableSchema table(String name, ColumnPolicy rowKey, Map<String, FamilySchema> families,
      StoredFormat storedFormat, TableLayout layout, UnlistedFamilies unlistedFamilies, Location at) {
    if (!TABLE_NAME.matcher(name).matches()) {
      throw at.at("table").error("'" + name + "' is not a valid HBase table name");
    }
    if (rowKey == null) {
      throw at.error("rowKey is required (write rowKey: { box: PLAIN } for unprotected keys)");
    }
    Location rowKeyAt = at.at("rowKey");
    ColumnPolicy checkedRowKey = policy(rowKey, BoxUse.Place.ROW_KEY, Map.of(), false, rowKeyAt);
    if (families.isEmpty()) {
      throw at.at("families").error("at least one family is required");
    }
    if (!LayoutDefinitions.isInstalled(layout.type())) {
      throw at.at("layout").error(LayoutDefinitions.unknown(layout.type()));
    }
    LayoutDefinition definition = LayoutDefinitions.of(layout.type());
    definition.validate(layout, checkedRowKey, families, at);
    if (unlistedFamilies == UnlistedFamilies.PLAIN && !definition.storesUnlistedFamilies()) {
      throw at.at("unlistedFamilies").error("PLAIN needs a layout that stores each family as it is (CELL); "
          + layout.type() + " stores only the families the schema lists");
    }
    return new TableSchema(name, checkedRowKey, families, storedFormat, layout, unlistedFamilies, at.source());
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
    ColumnPolicy checkedDefault = policy(defaultPolicy, BoxUse.Place.FAMILY_DEFAULT, Map.of(), protectQualifiers,
        defaultAt);
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
      checked.put(c.getKey(), policy(c.getValue(), BoxUse.Place.COLUMN, columns, protectQualifiers, columnAt));
    }
    checkSplays(checked, columnsAt);
    return new FamilySchema(name, checkedDefault, checked, protectQualifiers);
  }

  /** A column is splayed by at most one other (its kind's rules check what it may splay). */
  private static void checkSplays(Map<String, ColumnPolicy> columns, Location columnsAt) {
    Map<String, String> splayedBy = new LinkedHashMap<>();
    for (Map.Entry<String, ColumnPolicy> c : columns.entrySet()) {
      for (String measure : c.getValue().splays()) {
        String previous = splayedBy.put(measure, c.getKey());
        if (previous != null) {
          throw columnsAt.at(c.getKey()).error("splays: '" + measure + "' is already splayed by '" + previous + "'");
        }
      }
    }
  }

  /**
   * The policy as a schema stores it (with the value type its kind reads values as), once the
   * rules common to every kind and its kind's own rules ({@link BoxRules}) pass.
   *
   * @param family for a column, the policies listed in its family; else empty
   */
  private static ColumnPolicy policy(ColumnPolicy p, BoxUse.Place place, Map<String, ColumnPolicy> family,
      boolean protectQualifiers, Location at) {
    BoxKind box = p.box();
    BoxRules rules = BoxProviders.find(box).orElseThrow(() -> at.error(BoxProviders.notInstalled(box))).rules();
    if (place == BoxUse.Place.ROW_KEY && !rules.protectsRowKeys()) {
      throw at.error("a row key cannot use box " + box + " (allowed: " + kinds(r -> r.protectsRowKeys()) + ")");
    }
    BoxKind companion = p.companion().orElse(null);
    if (companion != null) {
      if (place == BoxUse.Place.ROW_KEY) {
        throw at.error("a row key cannot have a companion");
      }
      if (rules.companions().isEmpty()) {
        throw at.at("companion").error("a companion copy is only meaningful for "
            + kinds(r -> !r.companions().isEmpty()) + " columns, not " + box);
      }
      if (!rules.companions().contains(companion)) {
        throw at.at("companion").error("the companion must be "
            + String.join(" or ", rules.companions().stream().sorted().map(BoxKind::name).toList()) + ", got " + companion);
      }
    }
    Map<String, List<String>> options = p.listOptions();
    for (Map.Entry<String, List<String>> o : options.entrySet()) {
      if (!rules.options().contains(o.getKey())) {
        throw at.at(o.getKey()).error(o.getKey() + " belongs to " + kinds(r -> r.options().contains(o.getKey()))
            + " columns only");
      }
      checkItems(o.getValue(), at.at(o.getKey()));
    }
    Map<String, BoxKind> familyKinds = new LinkedHashMap<>();
    family.forEach((name, policy) -> familyKinds.put(name, policy.box()));
    BoxUse use = new BoxUse(place, p.type().yamlName(), p.companion(), options, familyKinds, protectQualifiers);
    Optional<BoxUse.Refusal> refusal = rules.refusal(use);
    if (refusal.isPresent()) {
      throw refusal.get().option().map(at::at).orElse(at).error(refusal.get().reason());
    }
    ValueType type = ValueType.named(rules.valueType(use)).orElseThrow(() -> new IllegalStateException(
        "box " + box + " reads values as '" + rules.valueType(use) + "', which is no value type"));
    return new ColumnPolicy(box, type, companion, p.givenValues(), p.givenSplays(), p.givenFrequent());
  }

  /** The installed kinds whose rules pass {@code test}, as a message lists them. */
  private static String kinds(Predicate<BoxRules> test) {
    return String.join(", ", BoxProviders.installed().stream().filter(b -> test.test(b.rules()))
        .map(b -> b.kind().name()).toList());
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
