package dev.cryptoworker.client.codec;

import dev.cryptoworker.client.CellDecodingException;
import dev.cryptoworker.client.KeyMismatchException;
import dev.cryptoworker.client.SecureTableOptions;
import dev.cryptoworker.client.UnsupportedSecureOperationException;
import dev.cryptoworker.client.migrate.ColumnMigration;
import dev.cryptoworker.cryptobox.AdditiveAggregation;
import dev.cryptoworker.cryptobox.AssociatedData;
import dev.cryptoworker.cryptobox.BoxKind;
import dev.cryptoworker.cryptobox.BoxTraits;
import dev.cryptoworker.cryptobox.CryptoBox;
import dev.cryptoworker.cryptobox.EqualityOnCiphertext;
import dev.cryptoworker.cryptobox.IndexedSearch;
import dev.cryptoworker.cryptobox.KeyIdPrefix;
import dev.cryptoworker.cryptobox.KeyRing;
import dev.cryptoworker.cryptobox.OrderOnCiphertext;
import dev.cryptoworker.cryptobox.PlaintextStorage;
import dev.cryptoworker.cryptobox.RangeBounds;
import dev.cryptoworker.cryptobox.StoredFormat;
import dev.cryptoworker.cryptobox.ValueCondition;
import dev.cryptoworker.cryptobox.ValueIndex;
import dev.cryptoworker.cryptobox.expansion.SharedCounts;
import dev.cryptoworker.keys.KeyProvider;
import dev.cryptoworker.keys.KeyScope;
import dev.cryptoworker.schema.ColumnPolicy;
import dev.cryptoworker.schema.FamilySchema;
import dev.cryptoworker.schema.InvalidSchemaException;
import dev.cryptoworker.schema.TableSchema;
import dev.cryptoworker.schema.UnlistedFamilies;
import dev.cryptoworker.schema.ValueType;
import dev.cryptoworker.searchindex.spi.SearchIndex;
import dev.cryptoworker.searchindex.spi.SearchableTable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;
import java.util.stream.Stream;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * Encode and Decode for the cells of one table: row keys, qualifier names and values, each through
 * the box its schema names (built by the {@link BoxRegistry}), bound to its coordinates. What the
 * server may do with a column is asked of its box's capabilities, never of its kind.
 *
 * <p>Associated data: values bind table, row, family and qualifier, except in boxes with {@link
 * EqualityOnCiphertext} (DET), which bind table, family and qualifier but not the row (equal values
 * must match across rows); row keys bind the table; protected qualifiers bind table and family.
 */
public final class TableCodec implements SearchableTable {
  // kind: qualifier names are looked up, so deterministic
  private static final ColumnPolicy QUALIFIER_POLICY = ColumnPolicy.of(BoxKind.DET, ValueType.BYTES);
  /** What a layout's own stored units (PACKED's packs) are sealed with. */
  // kind: sealed units are never compared, so randomized

  private final TableSchema schema;
  private final String table;
  private final byte[] tableBytes;
  private final CryptoBox rowBox;
  /** Builds the boxes of this table's scopes. */
  private final BoxFactoryCall boxes;
  private final KeyProvider keys;
  private final BoxRegistry registry;
  /** Boxes layouts seal their own stored units with, by key scope, built on first use. */
  private final Map<KeyScope, CryptoBox> layoutBoxes = new ConcurrentHashMap<>();
  private final Map<String, FamilyCodec> families = new HashMap<>();
  /**
   * The same families' names as bytes, and their codecs at the same index: every cell looks its
   * family up, and a scan of a few names costs less than hashing and comparing a wrapped buffer.
   */
  private final byte[][] familyNames;
  private final FamilyCodec[] familyCodecs;
  /**
   * Families the schema does not list, met in cells, under {@code unlistedFamilies: PLAIN}; a
   * table has few families, and HBase refuses cells of families the table lacks.
   */
  private final Map<ByteBuffer, FamilyCodec> unlistedFamilies = new ConcurrentHashMap<>();
  /** How many qualifiers per family keep their resolved policy and box (wide rows stop adding). */
  private static final int REMEMBERED_COLUMNS = 4096;

  /** A stored qualifier's policy and the box that stores its values. */
  /** A column's policy and box, and whether the box is searchable (asked per cell on every write). */
  private record Column(ColumnPolicy policy, CryptoBox box, boolean searchable) {
    Column(ColumnPolicy policy, CryptoBox box) {
      this(policy, box, box.capability(IndexedSearch.class).isPresent());
    }
  }
  private final Set<String> clientSideReasonsLogged = ConcurrentHashMap.newKeySet();
  private final StoredFormDiagnosis diagnosis;
  private final KeyCheck keyCheck;
  /** The entry index of searchable columns, or null if no provider is installed (then the table has none). */
  private final SearchIndex searchIndex;
  /** Whether a column keeps a search index (its kind's traits say so). */
  private final boolean searchIndexed;
  private final StoredFormat format;
  /** Every key of the keyset (any scope: ids are the keyset's), to resolve format 2's one-byte headers. */
  private final KeyRing allKeys;
  private final ColumnBoxContext.CounterSources counters;
  /** The key row keys, qualifier names and counter names are under. */
  private final KeyProvider identities;

  /** Boxes of one family: qualifier-name box, default value box, per-column value boxes. */
  private static final class FamilyCodec {
    final FamilySchema schema;
    final CryptoBox qualifierBox;
    final CryptoBox defaultBox;
    final Map<String, CryptoBox> columnBoxes = new HashMap<>();
    /** Policy and box per stored qualifier, resolved once: every cell of a write asks for them. */
    final Map<ByteBuffer, Column> columns = new ConcurrentHashMap<>();
    /** Boxes of stored parts under a box of their own ({@link ColumnExpansion#hasOwnBox}), by column and kind. */
    final Map<String, CryptoBox> partBoxes = new ConcurrentHashMap<>();
    ColumnExpansion expansion;

    FamilyCodec(FamilySchema schema, CryptoBox qualifierBox, CryptoBox defaultBox) {
      this.schema = schema;
      this.qualifierBox = qualifierBox;
      this.defaultBox = defaultBox;
    }
  }

  /** A codec whose ASHE and SSE columns cannot write (no identifier leases, no counters): for tests and tools. */
  public TableCodec(TableSchema schema, KeyProvider keys) {
    this(schema, keys, BoxRegistry.standard(), counterRow -> () -> {
      throw new IOException("table " + schema.tableName() + ": this codec has no identifier source (a tool's: it"
          + " does not write columns that lease identifiers)");
    }, SearchIndexes.unavailable(schema.tableName()), SecureTableOptions.defaults().boxOptions());
  }

  /** During an online migration: the codec of the schema the table moves from, and what changes. */
  private TableCodec previous;
  private ColumnMigration migration;

  public TableCodec(TableSchema schema, KeyProvider keys, BoxRegistry registry, ColumnBoxContext.CounterSources identifiers,
      SearchIndex searchIndex, Map<String, Integer> boxOptions) {
    this(schema, keys, registry, identifiers, searchIndex, boxOptions, OptionalInt.empty(),
        schema.storedFormat().orElse(StoredFormat.LATEST));
  }

  /**
   * @param identityKeyId the key row keys and qualifier names are under: the keyset's oldest if
   *     empty (always, except while a re-key moves them to another)
   * @param format the stored format of the table's keyed ciphertexts
   * @param searchIndex the entry index of searchable columns ({@link SearchIndexes}), or null if none
   *     is installed: then a schema with a column that keeps a search index is refused
   */
  public TableCodec(TableSchema schema, KeyProvider keys, BoxRegistry registry, ColumnBoxContext.CounterSources identifiers,
      SearchIndex searchIndex, Map<String, Integer> boxOptions, OptionalInt identityKeyId, StoredFormat format) {
    this.schema = schema;
    this.format = format;
    this.searchIndex = searchIndex;
    this.table = schema.tableName();
    this.tableBytes = Bytes.toBytes(table);
    this.diagnosis = new StoredFormDiagnosis(table, keys, registry, format);
    try {
      // kind: key-derivation label of the ring whose ids are the keyset's (any scope has them)
      this.allKeys = keys.keyRing(KeyScope.column(table, "", "", BoxKind.STD), 32);
      this.keyCheck = identityKeyId.isPresent() ? KeyCheck.of(keys, table, format, identityKeyId.getAsInt())
          : KeyCheck.of(keys, table, format);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("table " + table + ": cannot derive keys", e);
    }
    // Row keys, qualifier names and identifier counters' names are identities: under the oldest key
    // (docs/operations.md, Keys), or the one a re-key moved them to; one key only.
    this.counters = identifiers;
    KeyProvider identities = identityKeyId.isEmpty() ? (scope, length) -> keys.keyRing(scope, length).oldestOnly()
        : (scope, length) -> KeyRing.of(keys.keyRing(scope, length).byId(identityKeyId.getAsInt()).orElseThrow(
            () -> new GeneralSecurityException("no enabled key " + Integer.toUnsignedString(identityKeyId.getAsInt(), 16))));
    this.identities = identities;
    ColumnPolicy rowPolicy = schema.rowKeyPolicy();
    this.keys = keys;
    this.registry = registry;
    this.boxes = (policy, scope, provider, what) -> {
      try {
        return registry.create(new ColumnBoxContext(policy, scope, provider, format,
            counterScope -> identifiers.forCounterRow(CounterRows.name(identities, counterScope)), boxOptions, registry));
      } catch (GeneralSecurityException e) {
        throw new IllegalStateException("table " + table + ", " + what + ": cannot derive keys", e);
      } catch (UnsupportedOperationException e) {
        throw new UnsupportedOperationException("table " + table + ", " + what + ": " + e.getMessage(), e);
      }
    };
    this.rowBox = boxes.create(rowPolicy, KeyScope.rowKey(table, rowPolicy.box()), identities, "row key");
    this.familyNames = new byte[schema.families().size()][];
    this.familyCodecs = new FamilyCodec[familyNames.length];
    int listed = 0;
    for (FamilySchema family : schema.families().values()) {
      FamilyCodec codec = familyCodec(family, identities);
      families.put(family.name(), codec);
      familyNames[listed] = Bytes.toBytes(family.name());
      familyCodecs[listed++] = codec;
    }
    this.searchIndexed = RegionSupport.anyBox(schema, kind -> registry.traits(kind).searchIndex());
  }

  /** The boxes of {@code family}; row keys and qualifier names under {@code identities}. */
  private FamilyCodec familyCodec(FamilySchema family, KeyProvider identities) {
    CryptoBox qualifierBox = family.protectQualifiers()
        ? boxes.create(QUALIFIER_POLICY, KeyScope.qualifiers(table, family.name(), QUALIFIER_POLICY.box()), identities,
            "qualifiers of " + family.name())
        : null;
    BoxKind defaultKind = family.defaultPolicy().box();
    FamilyCodec codec = new FamilyCodec(family, qualifierBox,
        boxes.create(family.defaultPolicy(), KeyScope.column(table, family.name(), "*", defaultKind), keys,
            "column " + family.name() + ":*"));
    for (Map.Entry<String, ColumnPolicy> c : family.columns().entrySet()) {
      codec.columnBoxes.put(c.getKey(), boxes.create(c.getValue(),
          KeyScope.column(table, family.name(), c.getKey(), c.getValue().box()), keys,
          "column " + family.name() + ":" + c.getKey()));
    }
    codec.expansion = ColumnExpansions.forFamily(this, family);
    return codec;
  }

  @FunctionalInterface
  private interface BoxFactoryCall {
    CryptoBox create(ColumnPolicy policy, KeyScope scope, KeyProvider keys, String what);
  }

  /**
   * Makes this codec (of the schema a table moves to) also read cells still stored under {@code
   * previous}'s schema, for the columns {@code migration} changes: an online migration's clients
   * read both forms until it is done. Called once, before the codec is shared.
   */
  public void readPreviousForm(TableCodec previous, ColumnMigration migration) {
    this.previous = previous;
    this.migration = migration;
    for (FamilyCodec f : families.values()) {
      FamilyCodec before = previous.families.get(f.schema.name());
      if (before != null && before.expansion.keepsIndexCells() && !f.expansion.keepsIndexCells()) {
        f.expansion = new LeftoverIndexCells(f.expansion); // a column moving off a search index
      }
    }
  }

  /**
   * Compares this codec's keys with a table's stored key check; during a migration that moves rows,
   * the previous form's check is accepted too (it stays on the table until the migration is done).
   */
  public void verifyKeyCheck(String stored) throws KeyMismatchException {
    try {
      keyCheck.verify(stored);
    } catch (KeyMismatchException e) {
      if (previous == null || !rowsMove()) {
        throw e;
      }
      previous.keyCheck.verify(stored);
    }
  }

  /**
   * Whether a migration moves rows to new stored keys (the row key's protection or the key of row
   * keys and qualifier names changes): then each logical row may be stored in both forms.
   */
  public boolean rowsMove() {
    return previous != null && (!previous.schema.rowKeyPolicy().equals(schema.rowKeyPolicy())
        || previous.keyCheck.keyId() != keyCheck.keyId());
  }

  /** Whether {@code family:qualifier} is being migrated, so its stored cells may be in either form. */
  public boolean isMigrating(byte[] family, byte[] qualifier) {
    return migration != null && migration.changes(family, qualifier);
  }

  /** Whether this codec reads a previous schema's cells too (an online migration). */
  public boolean isMigrating() {
    return migration != null;
  }

  /** The codec of the schema the table moves from, during a migration. */
  public Optional<TableCodec> previousForm() {
    return Optional.ofNullable(previous);
  }

  /** Whether this is the first client-side scan of this table for {@code reason}. */
  public boolean firstClientSideScan(String reason) {
    return clientSideReasonsLogged.add(reason);
  }

  public TableSchema schema() {
    return schema;
  }

  /** The stored format of the table's keyed ciphertexts. */
  public StoredFormat storedFormat() {
    return format;
  }

  /**
   * The key id in the header of {@code stored}, written by a {@code box} (null: unknown, read as
   * format 1): each kind's {@link BoxTraits#header()} says in which form (STD, DET and OPE
   * ciphertexts carry the table's format, ASHE and SSE ones format 1's).
   * Empty if there is none, or (format 2) no key of the keyset ends in its byte.
   */
  public OptionalInt keyIdOf(byte[] stored, BoxKind box) {
    return keyIdOf(stored, box, List.of());
  }

  /** As {@link #keyIdOf(byte[], BoxKind)}, format 2's headers also resolved among {@code moreKeyIds} (disabled keys). */
  public OptionalInt keyIdOf(byte[] stored, BoxKind box, Collection<Integer> moreKeyIds) {
    BoxTraits.KeyHeader header = box == null ? BoxTraits.KeyHeader.KEY_ID_PREFIX : registry.traits(box).header();
    switch (header) {
      case NONE:
        return OptionalInt.empty();
      case KEY_ID_PREFIX:
        return KeyIdPrefix.keyIdOf(stored);
      default:
        OptionalInt known = format.keyIdOf(stored, allKeys);
        return known.isPresent() ? known : format.keyIdOf(stored, moreKeyIds);
    }
  }

  /** As {@link #keyIdOf(byte[], BoxKind, Collection)} for a stored qualifier name ({@code protectQualifiers}). */
  public OptionalInt qualifierKeyIdOf(byte[] stored, Collection<Integer> moreKeyIds) {
    return keyIdOf(stored, QUALIFIER_POLICY.box(), moreKeyIds);
  }

  public String table() {
    return table;
  }

  /**
   * A box of the kind {@code scope} names, under {@code scope}'s keys, which a layout seals its own
   * stored units with (PACKED's packs: {@link KeyScope#layout}); built once per scope.
   *
   * @throws IllegalStateException if the keys cannot be derived
   */
  public CryptoBox layoutBox(KeyScope scope) {
    return layoutBoxes.computeIfAbsent(scope, s -> boxes.create(ColumnPolicy.of(s.box(), ValueType.BYTES), s, keys,
        "layout keys '" + s.purpose() + "'"));
  }

  /** The check that this codec's keys are the ones the table was created with. */
  public KeyCheck keyCheck() {
    return keyCheck;
  }

  /** The row key's box. */
  public CryptoBox rowBox() {
    return rowBox;
  }

  /** {@code row key (BOX)}, for messages. */
  public String describeRowKey() {
    return "row key (" + rowBox.kind() + ")";
  }

  /** Whether the server can compare row keys as the caller wrote them (PLAIN keys). */
  public boolean rowKeysInPlaintext() {
    return rowBox.capability(PlaintextStorage.class).isPresent();
  }

  /**
   * How messages name a decoded row: as it is when row keys are stored in plaintext; else by the
   * fingerprint of its stored key ({@link #printableStoredRow}) when that key is computed again
   * (DET, OPE), or not at all. A protected row key is plaintext the application protects, and
   * messages end up in logs and tickets.
   */
  public String printableRow(byte[] row) {
    if (rowKeysShown()) {
      return Bytes.toStringBinary(row);
    }
    if (registry.traits(schema.rowKeyPolicy().box()).findsStoredRows()) {
      try {
        return StoredKeyFingerprint.of(encodeRow(row));
      } catch (IOException | RuntimeException e) {
        return "(protected row key)";
      }
    }
    return "(protected row key)";
  }

  /**
   * How messages name a stored row key (or a pack id, which is one): as it is when row keys are
   * stored in plaintext, in this form and in the one the table migrates from; else by a fingerprint
   * ({@link StoredKeyFingerprint}), never the stored bytes: an OPE key shows where its plaintext
   * lies, and a DET or OPE key in a log opens to anyone who later holds the table's key.
   */
  public String printableStoredRow(byte[] stored) {
    return rowKeysShown() ? Bytes.toStringBinary(stored) : StoredKeyFingerprint.of(stored);
  }

  private boolean rowKeysShown() {
    return rowKeysInPlaintext() && (previous == null || previous.rowKeysInPlaintext());
  }

  /** Whether stored row keys sort as the plaintext keys do (PLAIN or OPE), so row ranges map to stored ranges. */
  public boolean rowKeysKeepOrder() {
    return rowKeysInPlaintext() || rowBox.capability(OrderOnCiphertext.class).isPresent();
  }

  /** Whether any family stores encrypted qualifier names. */
  public boolean anyProtectedQualifiers() {
    return schema.families().values().stream().anyMatch(FamilySchema::protectQualifiers);
  }

  /** Whether nothing at all in the table is protected. */
  public boolean isFullyPlain() {
    return rowKeysInPlaintext() && families.values().stream().allMatch(f -> f.qualifierBox == null
        && isPlaintext(f.defaultBox) && f.columnBoxes.values().stream().allMatch(TableCodec::isPlaintext));
  }

  private static boolean isPlaintext(CryptoBox box) {
    return box.capability(PlaintextStorage.class).isPresent();
  }

  // ---- row keys

  /**
   * Refuses a row key that is not a value of the row key's type (checked on writes; scan bounds
   * may be any bytes).
   */
  public void checkRowType(byte[] row) {
    ValueType type = schema.rowKeyPolicy().type();
    String problem = type.problemWith(row);
    if (problem != null) {
      throw new IllegalArgumentException("table " + table + ", " + describeRowKey() + ": row key is not a valid "
          + type.yamlName() + ": " + problem);
    }
  }

  public byte[] encodeRow(byte[] row) throws IOException {
    try {
      return rowBox.encrypt(row, AssociatedData.of("row", tableBytes));
    } catch (GeneralSecurityException e) {
      throw new IOException("table " + table + ": cannot encrypt row key: " + e.getMessage(), e);
    }
  }

  public byte[] decodeRow(byte[] stored) throws CellDecodingException {
    try {
      return rowBox.decrypt(stored, AssociatedData.of("row", tableBytes));
    } catch (GeneralSecurityException e) {
      throw new CellDecodingException(table, printableStoredRow(stored), describeRowKey(),
          e.getMessage());
    }
  }

  // ---- families and qualifiers

  public FamilySchema familySchema(byte[] family) throws UnsupportedSecureOperationException {
    return familyCodec(family).schema;
  }

  /** How the family's logical columns map to stored cells. */
  public ColumnExpansion expansion(byte[] family) throws UnsupportedSecureOperationException {
    return familyCodec(family).expansion;
  }


  private FamilyCodec familyCodec(byte[] family) throws UnsupportedSecureOperationException {
    for (int i = 0; i < familyNames.length; i++) {
      if (Arrays.equals(familyNames[i], family)) {
        return familyCodecs[i];
      }
    }
    if (schema.unlistedFamilies() != UnlistedFamilies.PLAIN) {
      throw new UnsupportedSecureOperationException(
          table, "family " + Bytes.toStringBinary(family),
          "the family is not in the table's schema (" + schema.source()
              + "), so CryptoWorker does not know how to protect it: list it under families, or set"
              + " 'unlistedFamilies: PLAIN' to store the families the schema does not list unprotected");
    }
    return unlistedFamilies.computeIfAbsent(ByteBuffer.wrap(family.clone()), b -> plainFamily(family));
  }

  /** A family the schema does not list, under {@code unlistedFamilies: PLAIN}: stored as it is. */
  private FamilyCodec plainFamily(byte[] family) {
    FamilySchema plain;
    try {
      plain = FamilySchema.builder(Bytes.toString(family)).defaultPolicy(ColumnPolicy.PLAIN).build();
    } catch (InvalidSchemaException e) {
      throw new IllegalArgumentException("table " + table + ", family " + Bytes.toStringBinary(family)
          + ": not a family name a schema could list, so not stored as an unlisted family: " + e.getMessage(), e);
    }
    // PLAIN qualifiers: no identity keys needed.
    return familyCodec(plain, keys);
  }

  public byte[] encodeQualifier(byte[] family, byte[] qualifier) throws IOException {
    FamilyCodec f = familyCodec(family);
    if (f.qualifierBox == null) {
      return qualifier;
    }
    try {
      return f.qualifierBox.encrypt(qualifier, AssociatedData.of("qualifier", tableBytes, family));
    } catch (GeneralSecurityException e) {
      throw new IOException("table " + table + ": cannot encrypt qualifier: " + e.getMessage(), e);
    }
  }

  public byte[] decodeQualifier(byte[] row, byte[] family, byte[] stored) throws IOException {
    FamilyCodec f = familyCodec(family);
    if (f.qualifierBox == null) {
      return stored;
    }
    try {
      return f.qualifierBox.decrypt(stored, AssociatedData.of("qualifier", tableBytes, family));
    } catch (GeneralSecurityException e) {
      throw new CellDecodingException(
          table, printableRow(row), "qualifier in family " + Bytes.toString(family) + " (DET)",
          e.getMessage());
    }
  }

  // ---- values

  /** The policy of a column, or of a stored cell of an expanded column. */
  public ColumnPolicy policy(byte[] family, byte[] qualifier) throws UnsupportedSecureOperationException {
    return column(family, qualifier).policy();
  }

  private Column column(byte[] family, byte[] qualifier) throws UnsupportedSecureOperationException {
    FamilyCodec f = familyCodec(family);
    Column known = f.columns.get(ByteBuffer.wrap(qualifier));
    if (known != null) {
      return known;
    }
    ColumnPolicy policy = f.expansion.storedPolicy(qualifier).orElseGet(() -> f.schema.policyFor(Bytes.toString(qualifier)));
    String name = f.expansion.logicalColumn(qualifier).orElseGet(() -> Bytes.toString(qualifier));
    Column column = new Column(policy, f.expansion.hasOwnBox(qualifier) ? partBox(f, name, policy)
        : f.schema.isListed(name) ? f.columnBoxes.get(name) : f.defaultBox);
    if (f.columns.size() < REMEMBERED_COLUMNS) {
      f.columns.put(ByteBuffer.wrap(qualifier.clone()), column);
    }
    return column;
  }

  /**
   * The box of a stored part of {@code column} that has one of its own: keyed for the column and the
   * part's kind (purpose {@code part}), so that it shares no key with the column's own box.
   */
  private CryptoBox partBox(FamilyCodec f, String column, ColumnPolicy policy) {
    return f.partBoxes.computeIfAbsent(column + "\0" + policy.box(), k -> boxes.create(policy,
        new KeyScope(table, f.schema.name(), column, "part", policy.box()), keys,
        "column " + f.schema.name() + ":" + column + " (its " + policy.box() + " part)"));
  }

  /** Printable {@code column f:q (BOX)} for messages. */
  public String describeColumn(byte[] family, byte[] qualifier) throws UnsupportedSecureOperationException {
    return "column " + Bytes.toStringBinary(family) + ":" + Bytes.toStringBinary(qualifier) + " ("
        + policy(family, qualifier).box() + ")";
  }

  /** The box of a column, or of a stored cell of an expanded column (its logical column's box). */
  public CryptoBox valueBox(byte[] family, byte[] qualifier) throws UnsupportedSecureOperationException {
    return column(family, qualifier).box();
  }

  /** The column's box as {@code capability}, if it has it. */
  public <C> Optional<C> capability(byte[] family, byte[] qualifier, Class<C> capability)
      throws UnsupportedSecureOperationException {
    return valueBox(family, qualifier).capability(capability);
  }

  private byte[] valueAssociatedData(CryptoBox box, byte[] row, byte[] family, byte[] qualifier) {
    return box.capability(EqualityOnCiphertext.class).isPresent()
        ? AssociatedData.of("value", tableBytes, family, qualifier)
        : AssociatedData.of("value", tableBytes, row, family, qualifier);
  }

  /**
   * Checks {@code value} against the column's declared type, for layouts that store it without
   * encrypting it through the column's box (shares).
   *
   * @throws IllegalArgumentException naming table, column and problem
   */
  public void checkValue(byte[] family, byte[] qualifier, byte[] value) throws UnsupportedSecureOperationException {
    checkType(family, qualifier, value, "value");
  }

  private void checkType(byte[] family, byte[] qualifier, byte[] value, String what)
      throws UnsupportedSecureOperationException {
    checkType(policy(family, qualifier), family, qualifier, value, what);
  }

  /** As {@link #checkType(byte[], byte[], byte[], String)} for a column whose policy the caller has. */
  private void checkType(ColumnPolicy policy, byte[] family, byte[] qualifier, byte[] value, String what)
      throws UnsupportedSecureOperationException {
    ValueType type = policy.type();
    String problem = type.problemWith(value);
    if (problem != null) {
      throw new IllegalArgumentException("table " + table + ", " + describeColumn(family, qualifier) + ": " + what
          + " is not a valid " + type.yamlName() + ": " + problem);
    }
  }

  /**
   * Encrypts a value for storage.
   *
   * @throws IllegalArgumentException if the value does not match the column's declared type
   */
  public byte[] encodeValue(byte[] row, byte[] family, byte[] qualifier, byte[] value) throws IOException {
    Column column = column(family, qualifier); // once per cell: its lookup hashes the qualifier
    checkType(column.policy(), family, qualifier, value, "value");
    CryptoBox box = column.box();
    try {
      return box.encrypt(value, valueAssociatedData(box, row, family, qualifier));
    } catch (GeneralSecurityException e) {
      throw new IOException("table " + table + ": cannot encrypt value: " + e.getMessage(), e);
    }
  }

  public byte[] decodeValue(byte[] row, byte[] family, byte[] qualifier, byte[] stored) throws IOException {
    CryptoBox box = valueBox(family, qualifier);
    try {
      return box.decrypt(stored, valueAssociatedData(box, row, family, qualifier));
    } catch (GeneralSecurityException e) {
      if (isMigrating(family, qualifier)) {
        try {
          return previous.decodeValue(row, family, qualifier, stored);
        } catch (CellDecodingException notThatEither) {
          // report the current schema's failure below
        }
      }
      FamilySchema f = familyCodec(family).schema;
      String name = Bytes.toString(qualifier);
      String column = f.isListed(name) ? name : "*";
      ColumnPolicy policy = policy(family, qualifier);
      String why = diagnosis.explain(f.name(), column, policy, stored,
          other -> valueAssociatedData(other, row, family, qualifier), keyIdOf(stored, policy.box()));
      throw new CellDecodingException(
          table, printableRow(row), describeColumn(family, qualifier), e.getMessage() + "; " + why);
    }
  }

  /** Whether {@code stored} decodes under this codec's own policy for the column (not a previous schema's). */
  public boolean inOwnForm(byte[] row, byte[] family, byte[] qualifier, byte[] stored) throws UnsupportedSecureOperationException {
    CryptoBox box = valueBox(family, qualifier);
    try {
      box.decrypt(stored, valueAssociatedData(box, row, family, qualifier));
      return true;
    } catch (GeneralSecurityException e) {
      return false;
    }
  }

  /**
   * The stored forms of {@code value} under every active key version, primary first, for an
   * equality test on the server.
   *
   * @throws IllegalStateException if the column's box has no {@link EqualityOnCiphertext}
   */
  public List<byte[]> equalityOperands(byte[] family, byte[] qualifier, byte[] value) throws IOException {
    checkType(family, qualifier, value, "filter operand");
    CryptoBox box = valueBox(family, qualifier);
    EqualityOnCiphertext equality = box.capability(EqualityOnCiphertext.class)
        .orElseThrow(() -> new IllegalStateException(box.kind() + " has no equality on ciphertext"));
    try {
      return equality.encryptUnderEveryKey(value, valueAssociatedData(box, new byte[0], family, qualifier));
    } catch (GeneralSecurityException e) {
      throw new IOException("table " + table + ": cannot encrypt filter operand: " + e.getMessage(), e);
    }
  }

  /**
   * The ciphertext bounds of {@code value} under every active key version, primary first.
   *
   * @throws IllegalStateException if the column's box has no {@link OrderOnCiphertext}
   */
  public List<RangeBounds> rangeBounds(byte[] family, byte[] qualifier, byte[] value) throws IOException {
    checkType(family, qualifier, value, "filter operand");
    CryptoBox box = valueBox(family, qualifier);
    OrderOnCiphertext order = box.capability(OrderOnCiphertext.class)
        .orElseThrow(() -> new IllegalStateException(box.kind() + " has no order on ciphertext"));
    try {
      return order.rangeBounds(value);
    } catch (GeneralSecurityException e) {
      throw new IOException("table " + table + ": cannot encrypt filter operand: " + e.getMessage(), e);
    }
  }

  /** The column's additive aggregation (ASHE, PLAIN numbers), if its box has one. */
  public Optional<AdditiveAggregation> additive(byte[] family, byte[] qualifier) throws UnsupportedSecureOperationException {
    return capability(family, qualifier, AdditiveAggregation.class);
  }

  /**
   * Whether some column of the table keeps a search index, as its kind's traits declare: writes to
   * tables without one skip looking for searchable cells.
   */
  public boolean hasSearchIndex() {
    return searchIndexed;
  }

  /** Whether the column is found through the region servers' entry index (its box has {@link IndexedSearch}). */
  public boolean isSearchable(byte[] family, byte[] qualifier) throws UnsupportedSecureOperationException {
    return column(family, qualifier).searchable();
  }

  /** The box kinds this codec builds from. */
  BoxRegistry registry() {
    return registry;
  }

  /** The kinds of {@code family}'s policies (its default included) whose traits pass {@code test}, in kind order. */
  List<BoxKind> kindsIn(FamilySchema family, Predicate<BoxTraits> test) {
    return Stream.concat(Stream.of(family.defaultPolicy()), family.columns().values().stream())
        .map(ColumnPolicy::box).distinct().filter(k -> test.test(registry.traits(k))).sorted().toList();
  }

  /** The entry index of searchable columns, if a provider is installed. */
  public Optional<SearchIndex> searchIndex() {
    return Optional.ofNullable(searchIndex);
  }

  /**
   * The index a new entry of {@code value} in a searchable column goes under (the primary key's).
   *
   * @throws IllegalStateException if the column's box has no {@link IndexedSearch}
   */
  public ValueIndex writeIndex(byte[] family, byte[] qualifier, byte[] value) throws IOException {
    checkType(family, qualifier, value, "value");
    try {
      return indexedSearch(family, qualifier).writeIndex(value, searchColumn(family, qualifier));
    } catch (GeneralSecurityException e) {
      throw new IOException("table " + table + ": cannot derive the search index of a value: " + e.getMessage(), e);
    }
  }

  /**
   * The indexes a search of a searchable column for {@code condition} covers, under every active
   * key, or empty if the column's box cannot answer it through its index.
   *
   * @throws IllegalStateException if the column's box has no {@link IndexedSearch}
   */
  public Optional<List<ValueIndex>> searchIndexes(byte[] family, byte[] qualifier, ValueCondition condition)
      throws IOException {
    checkType(family, qualifier, condition.operand(), "filter operand");
    try {
      return indexedSearch(family, qualifier).searchIndexes(condition, searchColumn(family, qualifier));
    } catch (GeneralSecurityException e) {
      throw new IOException("table " + table + ": cannot derive the search index of a value: " + e.getMessage(), e);
    }
  }

  @Override
  public IOException refusal(byte[] family, byte[] qualifier, String reason) throws UnsupportedSecureOperationException {
    return new UnsupportedSecureOperationException(table, describeColumn(family, qualifier), reason);
  }

  /** The index search of a searchable column's box. */
  public IndexedSearch indexedSearch(byte[] family, byte[] qualifier) throws UnsupportedSecureOperationException {
    CryptoBox box = valueBox(family, qualifier);
    return box.capability(IndexedSearch.class)
        .orElseThrow(() -> new IllegalStateException(box.kind() + " has no search index"));
  }

  private byte[] searchColumn(byte[] family, byte[] qualifier) {
    return AssociatedData.of("search", tableBytes, family, qualifier);
  }

  /** The counts every writer shares for a stored part (enhanced SPLASHE's tokens), named under the identity key. */
  SharedCounts sharedCounts(byte[] family, byte[] storedQualifier) {
    String familyName = Bytes.toString(family);
    String column = Bytes.toString(storedQualifier);
    Map<String, byte[]> columns = new ConcurrentHashMap<>();
    return counters.sharedCounts(derived(() -> CounterRows.sharedCountsRow(identities, table, familyName, column)),
        name -> columns.computeIfAbsent(name,
            n -> derived(() -> CounterRows.sharedCountColumn(identities, table, familyName, column, n))));
  }

  /** A name derived under this table's keys. */
  private interface Derivation {
    byte[] derive() throws GeneralSecurityException;
  }

  private byte[] derived(Derivation derivation) {
    try {
      return derivation.derive();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("table " + table + ": cannot derive keys", e);
    }
  }

  /** Stores a 64-bit number in an additive column (SPLASHE indicators and splays). */
  byte[] encodeNumber(byte[] family, byte[] storedQualifier, long value) throws IOException {
    try {
      return additiveOrFail(family, storedQualifier).encryptNumber(value);
    } catch (GeneralSecurityException e) {
      throw new IOException("table " + table + ": cannot encrypt value: " + e.getMessage(), e);
    }
  }

  /** Reads a number written by {@link #encodeNumber}. */
  long decodeNumber(byte[] row, byte[] family, byte[] storedQualifier, byte[] stored) throws IOException {
    try {
      return additiveOrFail(family, storedQualifier).decryptNumber(stored);
    } catch (GeneralSecurityException e) {
      throw new CellDecodingException(table, printableRow(row), describeColumn(family, storedQualifier),
          e.getMessage());
    }
  }

  private AdditiveAggregation additiveOrFail(byte[] family, byte[] qualifier) throws UnsupportedSecureOperationException {
    return additive(family, qualifier).orElseThrow(
        () -> new IllegalStateException(describeColumnUnchecked(family, qualifier) + " is not additive"));
  }

  private String describeColumnUnchecked(byte[] family, byte[] qualifier) {
    try {
      return describeColumn(family, qualifier);
    } catch (UnsupportedSecureOperationException e) {
      return "column " + Bytes.toStringBinary(family) + ":" + Bytes.toStringBinary(qualifier);
    }
  }
}
