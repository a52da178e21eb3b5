package dev.cryptoworker.schema;

import dev.cryptoworker.cryptobox.StoredFormat;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;

/**
 * The protection schema of one HBase table: how its row key, each column family and each column
 * are protected. Immutable; read one with {@link #load(Path)} or {@link #parse(String)}, make one
 * with {@link #builder(String)}, edit a copy with {@link #toBuilder()}, write one with {@link
 * #toYaml()}.
 *
 * <pre>
 * table: appointments
 * rowKey: { box: DET }                 # PLAIN | STD | DET | OPE
 * families:
 *   physician:
 *     default: { box: DET }
 *   appointment:
 *     default: { box: STD }
 *     columns:
 *       date:  { box: OPE, type: date, companion: STD }
 *   notes:
 *     default: { box: PLAIN }
 *     protectQualifiers: true          # qualifier names DET-encrypted
 * </pre>
 *
 * <p>Unknown keys, boxes or types and contradictory settings are refused with an {@link
 * InvalidSchemaException} naming the source, line and reason; a builder refuses the same
 * contradictions, naming the path of the offending key.
 *
 * <pre>
 * TableSchema schema = TableSchema.builder("clinic:appointments")
 *     .rowKey(ColumnPolicy.of(BoxKind.DET))
 *     .family(FamilySchema.builder("appointment")
 *         .defaultPolicy(ColumnPolicy.of(BoxKind.STD))
 *         .column("date", ColumnPolicy.builder(BoxKind.OPE).type(ValueType.DATE).companion(BoxKind.STD).build())
 *         .build())
 *     .build();
 * </pre>
 */
public final class TableSchema {
  private final String tableName;
  private final ColumnPolicy rowKey;
  private final Map<String, FamilySchema> families;
  private final String source;
  private final StoredFormat storedFormat;
  private final TableLayout layout;
  private final UnlistedFamilies unlistedFamilies;

  TableSchema(String tableName, ColumnPolicy rowKey, Map<String, FamilySchema> families, StoredFormat storedFormat,
      TableLayout layout, UnlistedFamilies unlistedFamilies, String source) {
    this.tableName = Objects.requireNonNull(tableName);
    this.rowKey = Objects.requireNonNull(rowKey);
    this.storedFormat = storedFormat;
    this.layout = Objects.requireNonNull(layout);
    this.unlistedFamilies = Objects.requireNonNull(unlistedFamilies);
    this.families = Collections.unmodifiableMap(new LinkedHashMap<>(families));
    this.source = source;
  }

  /**
   * Reads and validates the schema in {@code file}.
   *
   * @throws InvalidSchemaException naming the file, line and reason
   */
  public static TableSchema load(Path file) throws IOException {
    return parse(Files.readString(file, StandardCharsets.UTF_8), file.toString());
  }

  /**
   * Parses and validates a schema given as YAML text.
   *
   * @throws InvalidSchemaException naming the line and reason
   */
  public static TableSchema parse(String yaml) {
    return parse(yaml, "<schema>");
  }

  /**
   * Parses and validates a schema; {@code sourceName} names it in error messages.
   *
   * @throws InvalidSchemaException naming the source, line and reason
   */
  public static TableSchema parse(String yaml, String sourceName) {
    return new YamlSchemaReader(sourceName).read(YamlNode.parse(yaml, sourceName));
  }

  /** A builder of the table {@code tableName} ({@code ns:name} with a namespace). */
  public static Builder builder(String tableName) {
    return new Builder(tableName);
  }

  /** A builder holding everything {@code schema} holds, to make an edited copy. */
  public static Builder newBuilder(TableSchema schema) {
    Builder b = new Builder(schema.tableName);
    b.rowKey = schema.rowKey;
    b.storedFormat = schema.storedFormat;
    b.layout = schema.layout;
    b.unlistedFamilies = schema.unlistedFamilies;
    b.families.putAll(schema.families);
    return b;
  }

  /** Same as {@link #newBuilder(TableSchema) newBuilder(this)}. */
  public Builder toBuilder() {
    return newBuilder(this);
  }

  /**
   * This schema as YAML, which {@link #parse(String)} reads back to an equal schema. Names and
   * values that YAML would read otherwise (numbers, booleans, white space, punctuation) are quoted.
   */
  public String toYaml() {
    return YamlSchemaWriter.write(this);
  }

  /**
   * {@link #toYaml()} with comment lines above entries: {@code notes} gives them for the YAML path
   * of the row key ({@code rowKey}), of each family default ({@code families.F.default}) and of each
   * listed column ({@code families.F.columns.Q}); an empty list for none.
   */
  public String toYaml(Function<String, List<String>> notes) {
    return YamlSchemaWriter.write(this, Objects.requireNonNull(notes, "notes"));
  }

  /** The HBase table name, with namespace if any ({@code ns:name}). */
  public String tableName() {
    return tableName;
  }

  /** How row keys are protected. */
  public ColumnPolicy rowKeyPolicy() {
    return rowKey;
  }

  /**
   * * The stored format the schema asks for ({@code storedFormat: 1} to {@code 7}), if it says. A schema
   * that does not say takes the format its table was created with, and new tables get {@link
   * StoredFormat#LATEST}.
   */
  public Optional<StoredFormat> storedFormat() {
    return Optional.ofNullable(storedFormat);
  }

  /** How the table is stored: {@code CELL} on one cluster (the default), or {@code SHARED} over several. */
  public TableLayout layout() {
    return layout;
  }

  /**
   * What clients do with families this schema does not list ({@code unlistedFamilies:}): refuse
   * them (the default) or store them unprotected.
   */
  public UnlistedFamilies unlistedFamilies() {
    return unlistedFamilies;
  }

  /** Every family, in schema order. */
  public Map<String, FamilySchema> families() {
    return families;
  }

  /** The schema of {@code family}, if the schema declares it. */
  public Optional<FamilySchema> family(String family) {
    return Optional.ofNullable(families.get(family));
  }

  /** Where the schema was read from (file name or {@code <schema>}), or {@code <builder>}. */
  public String source() {
    return source;
  }

  /**
   * Equal table name, row key policy, stored format, layout, families and unlisted-family policy;
   * where each schema came from does not count.
   */
  @Override
  public boolean equals(Object o) {
    return o instanceof TableSchema t && t.tableName.equals(tableName) && t.rowKey.equals(rowKey)
        && Objects.equals(t.storedFormat, storedFormat) && t.layout.equals(layout) && t.families.equals(families)
        && t.unlistedFamilies == unlistedFamilies;
  }

  @Override
  public int hashCode() {
    return Objects.hash(tableName, rowKey, storedFormat, layout, families, unlistedFamilies);
  }

  @Override
  public String toString() {
    return "TableSchema[" + tableName + " from " + source + "]";
  }

  /**
   * Builds a {@link TableSchema}; reusable, each {@link #build()} makes a new immutable schema.
   */
  public static final class Builder {
    private String tableName;
    private ColumnPolicy rowKey;
    private StoredFormat storedFormat;
    private TableLayout layout = TableLayout.cell();
    private UnlistedFamilies unlistedFamilies = UnlistedFamilies.REFUSE;
    private final Map<String, FamilySchema> families = new LinkedHashMap<>();

    private Builder(String tableName) {
      this.tableName = Objects.requireNonNull(tableName);
    }

    /** Renames the table ({@code ns:name} with a namespace). */
    public Builder tableName(String tableName) {
      this.tableName = Objects.requireNonNull(tableName);
      return this;
    }

    /** How row keys are protected (required): PLAIN, STD, DET or OPE, without companion. */
    public Builder rowKey(ColumnPolicy policy) {
      this.rowKey = Objects.requireNonNull(policy);
      return this;
    }

    /** The stored format of the table's keyed ciphertexts; null: the table's, or the latest for new tables. */
    public Builder storedFormat(StoredFormat format) {
      this.storedFormat = format;
      return this;
    }

    /** How the table is stored (default: {@link TableLayout#cell()}). */
    public Builder layout(TableLayout layout) {
      this.layout = Objects.requireNonNull(layout);
      return this;
    }

    /**
     * What clients do with families the schema does not list (default {@link
     * UnlistedFamilies#REFUSE}); {@link UnlistedFamilies#PLAIN} needs a layout that stores them
     * (CELL).
     */
    public Builder unlistedFamilies(UnlistedFamilies policy) {
      this.unlistedFamilies = Objects.requireNonNull(policy);
      return this;
    }

    /** Adds {@code family}, or replaces the family of the same name (keeping its place). */
    public Builder family(FamilySchema family) {
      families.put(family.name(), family);
      return this;
    }

    /** Removes the family {@code name}, if present. */
    public Builder removeFamily(String name) {
      families.remove(name);
      return this;
    }

    /**
     * The schema, checked as the YAML loader checks one; its {@link TableSchema#source()} is
     * {@code <builder>}.
     *
     * @throws InvalidSchemaException naming the path of the offending key, such as {@code
     *     rowKey}, and the reason
     */
    public TableSchema build() {
      return build(Location.built());
    }

    TableSchema build(Location root) {
      return SchemaValidator.table(tableName, rowKey, families, storedFormat, layout, unlistedFamilies, root);
    }
  }
}
