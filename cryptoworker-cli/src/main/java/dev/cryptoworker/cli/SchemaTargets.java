package dev.cryptoworker.cli;

import dev.cryptoworker.schema.ColumnPolicy;
import dev.cryptoworker.schema.FamilySchema;
import dev.cryptoworker.schema.TableSchema;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/**
 * The effective policies of a schema, one per target (row key, family default, listed column,
 * qualifier names), each with the key scope it is encrypted under.
 */
final class SchemaTargets {

  /**
   * One target's setting.
   *
   * @param policy the effective policy, or {@code null} for a family's qualifier names
   * @param protectQualifiers for qualifier names: whether they are encrypted
   * @param keyScope which key the target uses: a column not listed shares its family default's
   */
  record Setting(ColumnPolicy policy, boolean protectQualifiers, String keyScope) {
    String describe() {
      return policy == null ? "{protectQualifiers: " + protectQualifiers + "}" : policy.toString();
    }

    String serverLearns(boolean rowKey) {
      if (policy == null) {
        return protectQualifiers ? Leakage.PROTECTED_QUALIFIERS : Leakage.VISIBLE_QUALIFIERS;
      }
      return rowKey ? Leakage.rowKey(policy) : Leakage.value(policy);
    }
  }

  static final String ROW_KEY = "row key";

  private SchemaTargets() {}

  static String familyDefault(String family) {
    return "family " + family + " default";
  }

  static String column(String family, String qualifier) {
    return "family " + family + " column " + qualifier;
  }

  static String qualifierNames(String family) {
    return "family " + family + " qualifier names";
  }

  /** The targets of {@code schema}, listing in each family its own columns. */
  static Map<String, Setting> of(TableSchema schema) {
    Map<String, Setting> targets = new LinkedHashMap<>();
    targets.put(ROW_KEY, new Setting(schema.rowKeyPolicy(), false, "row"));
    for (FamilySchema family : schema.families().values()) {
      addFamily(targets, family, family.columns().keySet());
    }
    return targets;
  }

  /**
   * The targets of {@code schema} for families it shares with {@code other}, listing in each the
   * columns either lists (a column one schema lists takes the other's family default there).
   */
  static Map<String, Setting> shared(TableSchema schema, TableSchema other) {
    Map<String, Setting> targets = new LinkedHashMap<>();
    targets.put(ROW_KEY, new Setting(schema.rowKeyPolicy(), false, "row"));
    for (FamilySchema family : schema.families().values()) {
      other.family(family.name()).ifPresent(o -> {
        Set<String> columns = new LinkedHashSet<>(family.columns().keySet());
        columns.addAll(o.columns().keySet());
        addFamily(targets, family, columns);
      });
    }
    return targets;
  }

  private static void addFamily(
      Map<String, Setting> targets, FamilySchema family, Collection<String> columns) {
    String name = family.name();
    targets.put(familyDefault(name), new Setting(family.defaultPolicy(), false, name + ":*"));
    for (String qualifier : columns) {
      boolean listed = family.isListed(qualifier);
      targets.put(column(name, qualifier), new Setting(family.policyFor(qualifier), false,
          listed ? name + ":" + qualifier : name + ":*"));
    }
    targets.put(qualifierNames(name),
        new Setting(null, family.protectQualifiers(), name + ":qualifiers"));
  }
}
