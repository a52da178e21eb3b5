package dev.cryptoworker.schema;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/** Protection of one column family: a default policy, per-column overrides, qualifier names. */
public final class FamilySchema {
  private final String name;
  private final ColumnPolicy defaultPolicy;
  private final Map<String, ColumnPolicy> columns;
  private final boolean protectQualifiers;

  FamilySchema(
      String name,
      ColumnPolicy defaultPolicy,
      Map<String, ColumnPolicy> columns,
      boolean protectQualifiers) {
    this.name = Objects.requireNonNull(name);
    this.defaultPolicy = Objects.requireNonNull(defaultPolicy);
    this.columns = Collections.unmodifiableMap(new LinkedHashMap<>(columns));
    this.protectQualifiers = protectQualifiers;
  }

  public String name() {
    return name;
  }

  /** The policy of every qualifier not listed in {@link #columns()}. */
  public ColumnPolicy defaultPolicy() {
    return defaultPolicy;
  }

  /** Per-qualifier overrides, in schema order. */
  public Map<String, ColumnPolicy> columns() {
    return columns;
  }

  /** Whether qualifier names are stored DET-encrypted (for dynamic qualifiers such as ids). */
  public boolean protectQualifiers() {
    return protectQualifiers;
  }

  /** The policy for {@code qualifier}: its override, or the family default. */
  public ColumnPolicy policyFor(String qualifier) {
    return columns.getOrDefault(qualifier, defaultPolicy);
  }

  /** Whether {@code qualifier} has its own entry (and so its own key). */
  public boolean isListed(String qualifier) {
    return columns.containsKey(qualifier);
  }

  /** The SPLASHE dimension that splays {@code measure}, if any. */
  public java.util.Optional<String> splayedBy(String measure) {
    for (Map.Entry<String, ColumnPolicy> e : columns.entrySet()) {
      if (e.getValue().splays().contains(measure)) {
        return java.util.Optional.of(e.getKey());
      }
    }
    return java.util.Optional.empty();
  }

  /** Whether any column is a SPLASHE dimension. */
  public boolean hasSplayedColumns() {
    return columns.values().stream().anyMatch(p -> p.box() == dev.cryptoworker.cryptobox.BoxKind.SPLASHE);
  }

  /** Whether anything in this family is stored other than in plaintext. */
  public boolean isProtected() {
    return protectQualifiers
        || defaultPolicy.box().isProtected()
        || columns.values().stream().anyMatch(p -> p.box().isProtected());
  }
}
