package dev.cryptoworker.schema;

import dev.cryptoworker.cryptobox.BoxKind;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Protection of one column family: a default policy, per-column overrides, qualifier names.
 * Immutable; read one with its table's schema or make one with {@link #builder(String)}.
 */
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

  /**
   * A builder of the family {@code name}: {@code FamilySchema.builder("identification")
   * .defaultPolicy(ColumnPolicy.of(BoxKind.STD)).column("mainId", ColumnPolicy.of(BoxKind.DET,
   * ValueType.STRING)).build()}.
   */
  public static Builder builder(String name) {
    return new Builder(name);
  }

  /** A builder holding everything {@code family} holds, to make an edited copy. */
  public static Builder newBuilder(FamilySchema family) {
    Builder b = new Builder(family.name);
    b.defaultPolicy = family.defaultPolicy;
    b.columns.putAll(family.columns);
    b.protectQualifiers = family.protectQualifiers;
    return b;
  }

  /** Same as {@link #newBuilder(FamilySchema) newBuilder(this)}. */
  public Builder toBuilder() {
    return newBuilder(this);
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

  /** The column that splays {@code measure} (a SPLASHE dimension), if any. */
  public Optional<String> splayedBy(String measure) {
    for (Map.Entry<String, ColumnPolicy> e : columns.entrySet()) {
      if (e.getValue().splays().contains(measure)) {
        return Optional.of(e.getKey());
      }
    }
    return Optional.empty();
  }

  /** Whether any column splays others (a SPLASHE dimension). */
  public boolean hasSplayedColumns() {
    return columns.values().stream().anyMatch(p -> !p.splays().isEmpty());
  }

  /** Whether anything in this family is stored other than in plaintext. */
  public boolean isProtected() {
    return protectQualifiers
        || defaultPolicy.box().isProtected()
        || columns.values().stream().anyMatch(p -> p.box().isProtected());
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof FamilySchema f && f.name.equals(name) && f.defaultPolicy.equals(defaultPolicy)
        && f.columns.equals(columns) && f.protectQualifiers == protectQualifiers;
  }

  @Override
  public int hashCode() {
    return Objects.hash(name, defaultPolicy, columns, protectQualifiers);
  }

  @Override
  public String toString() {
    return "FamilySchema[" + name + "]";
  }

  /**
   * Builds a {@link FamilySchema}; reusable, each {@link #build()} makes a new immutable family.
   */
  public static final class Builder {
    private final String name;
    private ColumnPolicy defaultPolicy;
    private final Map<String, ColumnPolicy> columns = new LinkedHashMap<>();
    private boolean protectQualifiers;

    private Builder(String name) {
      this.name = Objects.requireNonNull(name);
    }

    /** The policy of every qualifier not listed with {@link #column} (required). */
    public Builder defaultPolicy(ColumnPolicy policy) {
      this.defaultPolicy = Objects.requireNonNull(policy);
      return this;
    }

    /** Lists {@code qualifier} with its own policy, replacing any it had (keeping its place). */
    public Builder column(String qualifier, ColumnPolicy policy) {
      columns.put(Objects.requireNonNull(qualifier), Objects.requireNonNull(policy));
      return this;
    }

    /** Unlists {@code qualifier}, so the default applies to it. */
    public Builder removeColumn(String qualifier) {
      columns.remove(qualifier);
      return this;
    }

    /** Whether qualifier names are stored DET-encrypted (default false). */
    public Builder protectQualifiers(boolean protect) {
      this.protectQualifiers = protect;
      return this;
    }

    /**
     * The family, checked as the YAML loader checks one.
     *
     * @throws InvalidSchemaException naming the path of the offending key, such as {@code
     *     families.identification.columns.mainId.companion}, and the reason
     */
    public FamilySchema build() {
      return build(Location.built().at("families").at(name));
    }

    FamilySchema build(Location at) {
      return SchemaValidator.family(name, defaultPolicy, columns, protectQualifiers, at);
    }
  }
}
