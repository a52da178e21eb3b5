package dev.cryptoworker.client;

import dev.cryptoworker.cryptobox.AssociatedData;
import dev.cryptoworker.cryptobox.BoxKind;
import dev.cryptoworker.cryptobox.CryptoBox;
import dev.cryptoworker.cryptobox.ashe.AsheBox;
import dev.cryptoworker.cryptobox.det.DeterministicBox;
import dev.cryptoworker.cryptobox.ope.OrderPreservingBox;
import dev.cryptoworker.cryptobox.std.RandomizedBox;
import dev.cryptoworker.keys.KeyProvider;
import dev.cryptoworker.keys.KeyScope;
import dev.cryptoworker.schema.ColumnPolicy;
import dev.cryptoworker.schema.FamilySchema;
import dev.cryptoworker.schema.TableSchema;
import dev.cryptoworker.schema.ValueType;
import java.io.IOException;
import java.security.GeneralSecurityException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * Encode and Decode for the cells of one table: row keys, qualifier names and values, each through
 * the box its schema names, bound to its coordinates.
 *
 * <p>Associated data: STD values bind table, row, family and qualifier; DET values bind table,
 * family and qualifier but not the row (equal values must match across rows); row keys bind the
 * table; protected qualifiers bind table and family.
 */
final class TableCodec {
  private final TableSchema schema;
  private final String table;
  private final byte[] tableBytes;
  private final CryptoBox rowBox;
  private final Map<String, FamilyCodec> families = new HashMap<>();

  /** Boxes of one family: qualifier-name box, default value box, per-column value boxes. */
  private static final class FamilyCodec {
    final FamilySchema schema;
    final CryptoBox qualifierBox;
    final CryptoBox defaultBox;
    final Map<String, CryptoBox> columnBoxes = new HashMap<>();

    FamilyCodec(FamilySchema schema, CryptoBox qualifierBox, CryptoBox defaultBox) {
      this.schema = schema;
      this.qualifierBox = qualifierBox;
      this.defaultBox = defaultBox;
    }
  }

  /** Creates the identifier source of an ASHE column, named by its counter row. */
  @FunctionalInterface
  interface IdentifierSources {
    dev.cryptoworker.cryptobox.ashe.IdentifierSource forCounter(String counterRow);
  }

  private final IdentifierSources identifiers;
  private final int orderPreservingMemoEntries;

  TableCodec(TableSchema schema, KeyProvider keys) {
    this(schema, keys, counter -> () -> {
      throw new java.io.IOException("no identifier source configured for ASHE column " + counter);
    }, OrderPreservingBox.DEFAULT_MEMO_ENTRIES);
  }

  TableCodec(TableSchema schema, KeyProvider keys, IdentifierSources identifiers, int orderPreservingMemoEntries) {
    this.identifiers = identifiers;
    this.orderPreservingMemoEntries = orderPreservingMemoEntries;
    this.schema = schema;
    this.table = schema.tableName();
    this.tableBytes = Bytes.toBytes(table);
    ColumnPolicy rowPolicy = schema.rowKeyPolicy();
    // Row keys and qualifier names are identities: always under the oldest key (see the README).
    this.rowBox = box(rowPolicy, KeyScope.rowKey(table, rowPolicy.box()), identities(keys), "row key");
    for (FamilySchema family : schema.families().values()) {
      CryptoBox qualifierBox =
          family.protectQualifiers()
              ? box(QUALIFIER_POLICY, KeyScope.qualifiers(table, family.name(), BoxKind.DET), identities(keys),
                  "qualifiers of " + family.name())
              : null;
      BoxKind defaultKind = family.defaultPolicy().box();
      FamilyCodec codec =
          new FamilyCodec(
              family,
              qualifierBox,
              box(family.defaultPolicy(), KeyScope.column(table, family.name(), "*", defaultKind), keys,
                  "column " + family.name() + ":*"));
      for (Map.Entry<String, ColumnPolicy> c : family.columns().entrySet()) {
        BoxKind kind = c.getValue().box();
        codec.columnBoxes.put(
            c.getKey(),
            box(c.getValue(), KeyScope.column(table, family.name(), c.getKey(), kind), keys,
                "column " + family.name() + ":" + c.getKey()));
      }
      families.put(family.name(), codec);
    }
  }

  /** Builds the box a policy names: the closed set of boxes this client implements. */
  private CryptoBox box(ColumnPolicy policy, KeyScope scope, KeyProvider keys, String what) {
    try {
      switch (policy.box()) {
        case PLAIN:
          return null;
        case STD:
          return RandomizedBox.create(keys.keyRing(scope, RandomizedBox.KEY_LENGTH_BYTES));
        case DET:
          return DeterministicBox.create(keys.keyRing(scope, DeterministicBox.KEY_LENGTH_BYTES));
        case OPE:
          CryptoBox companion =
              policy.companion().isPresent()
                  ? RandomizedBox.create(keys.keyRing(
                      new KeyScope(scope.table(), scope.family(), scope.column(), "companion", BoxKind.STD),
                      RandomizedBox.KEY_LENGTH_BYTES))
                  : null;
          return OrderPreservingBox.create(
              keys.keyRing(scope, OrderPreservingBox.KEY_LENGTH_BYTES), opeEncoding(policy.type()), companion,
              orderPreservingMemoEntries);
        case SPLASHE: // the dimension's 0/1 indicators are ASHE values
        case ASHE:
          return AsheBox.create(
              keys.keyRing(scope, AsheBox.KEY_LENGTH_BYTES),
              identifiers.forCounter(scope.table() + "/" + scope.family() + "/" + scope.column()),
              policy.type() == ValueType.INT);
        default:
          throw new UnsupportedOperationException(
              "table " + table + ", " + what + ": the " + policy.box()
                  + " box is not implemented yet (see the README's status section)");
      }
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("table " + table + ", " + what + ": cannot derive keys", e);
    }
  }

  /** A provider whose rings hold only their oldest key: identities do not rotate. */
  private static KeyProvider identities(KeyProvider keys) {
    return (scope, length) -> keys.keyRing(scope, length).oldestOnly();
  }

  /** The DET box of a column, for equality operands under every key version. */
  DeterministicBox deterministicBox(byte[] family, byte[] qualifier) throws UnsupportedSecureOperationException {
    return (DeterministicBox) valueBox(family, qualifier);
  }

  private static final ColumnPolicy QUALIFIER_POLICY = ColumnPolicy.of(BoxKind.DET, ValueType.BYTES);

  private static OrderPreservingBox.Encoding opeEncoding(ValueType type) {
    switch (type) {
      case LONG:
        return OrderPreservingBox.Encoding.LONG;
      case INT:
        return OrderPreservingBox.Encoding.INT;
      case DATE:
        return OrderPreservingBox.Encoding.DATE;
      default:
        return OrderPreservingBox.Encoding.BYTES;
    }
  }

  private final java.util.Set<String> clientSideReasonsLogged = java.util.concurrent.ConcurrentHashMap.newKeySet();

  /** Whether this is the first client-side scan of this table for {@code reason}. */
  boolean firstClientSideScan(String reason) {
    return clientSideReasonsLogged.add(reason);
  }

  TableSchema schema() {
    return schema;
  }

  String table() {
    return table;
  }

  ColumnPolicy rowKeyPolicy() {
    return schema.rowKeyPolicy();
  }

  BoxKind rowKeyBox() {
    return schema.rowKeyPolicy().box();
  }

  /** Whether any family stores encrypted qualifier names. */
  boolean anyProtectedQualifiers() {
    return schema.families().values().stream().anyMatch(FamilySchema::protectQualifiers);
  }

  /** Whether nothing at all in the table is protected. */
  boolean isFullyPlain() {
    return !rowKeyBox().isProtected()
        && schema.families().values().stream().noneMatch(FamilySchema::isProtected);
  }

  // ---- row keys

  byte[] encodeRow(byte[] row) throws IOException {
    if (rowBox == null) {
      return row;
    }
    try {
      return rowBox.encrypt(row, AssociatedData.of("row", tableBytes));
    } catch (GeneralSecurityException e) {
      throw new IOException("table " + table + ": cannot encrypt row key: " + e.getMessage(), e);
    }
  }

  byte[] decodeRow(byte[] stored) throws CellDecodingException {
    if (rowBox == null) {
      return stored;
    }
    try {
      return rowBox.decrypt(stored, AssociatedData.of("row", tableBytes));
    } catch (GeneralSecurityException e) {
      throw new CellDecodingException(
          table, Bytes.toStringBinary(stored) + " (as stored)", "row key (" + rowKeyBox() + ")",
          e.getMessage());
    }
  }

  // ---- qualifiers

  FamilySchema familySchema(byte[] family) throws UnsupportedSecureOperationException {
    return familyCodec(family).schema;
  }

  private FamilyCodec familyCodec(byte[] family) throws UnsupportedSecureOperationException {
    FamilyCodec codec = families.get(Bytes.toString(family));
    if (codec == null) {
      throw new UnsupportedSecureOperationException(
          table, "family " + Bytes.toStringBinary(family),
          "the family is not in the table's schema (" + schema.source()
              + "), so CryptoWorker does not know how to protect it");
    }
    return codec;
  }

  byte[] encodeQualifier(byte[] family, byte[] qualifier) throws IOException {
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

  byte[] decodeQualifier(byte[] row, byte[] family, byte[] stored) throws IOException {
    FamilyCodec f = familyCodec(family);
    if (f.qualifierBox == null) {
      return stored;
    }
    try {
      return f.qualifierBox.decrypt(stored, AssociatedData.of("qualifier", tableBytes, family));
    } catch (GeneralSecurityException e) {
      throw new CellDecodingException(
          table, Bytes.toStringBinary(row), "qualifier in family " + Bytes.toString(family) + " (DET)",
          e.getMessage());
    }
  }

  // ---- values

  ColumnPolicy policy(byte[] family, byte[] qualifier) throws UnsupportedSecureOperationException {
    FamilySchema f = familyCodec(family).schema;
    String base = SplayedColumns.base(qualifier);
    if (base != null && f.isListed(base)) {
      ColumnPolicy p = f.policyFor(base);
      return p.box() == BoxKind.SPLASHE ? INDICATOR_POLICY : p;
    }
    return f.policyFor(Bytes.toString(qualifier));
  }

  private static final ColumnPolicy INDICATOR_POLICY = ColumnPolicy.of(BoxKind.ASHE, ValueType.LONG);

  /** Printable {@code column f:q (BOX)} for messages. */
  String describeColumn(byte[] family, byte[] qualifier) throws UnsupportedSecureOperationException {
    return "column " + Bytes.toStringBinary(family) + ":" + Bytes.toStringBinary(qualifier) + " ("
        + policy(family, qualifier).box() + ")";
  }

  private CryptoBox valueBox(byte[] family, byte[] qualifier) throws UnsupportedSecureOperationException {
    FamilyCodec f = familyCodec(family);
    String base = SplayedColumns.base(qualifier);
    String name = base != null && f.schema.isListed(base) ? base : Bytes.toString(qualifier);
    return f.schema.isListed(name) ? f.columnBoxes.get(name) : f.defaultBox;
  }

  private byte[] valueAssociatedData(CryptoBox box, byte[] row, byte[] family, byte[] qualifier) {
    return box.kind() == BoxKind.DET
        ? AssociatedData.of("value", tableBytes, family, qualifier)
        : AssociatedData.of("value", tableBytes, row, family, qualifier);
  }

  /**
   * Encrypts a value for storage.
   *
   * @throws IllegalArgumentException if the value does not match the column's declared type
   */
  byte[] encodeValue(byte[] row, byte[] family, byte[] qualifier, byte[] value) throws IOException {
    ColumnPolicy policy = policy(family, qualifier);
    String problem = policy.type().problemWith(value);
    if (problem != null) {
      throw new IllegalArgumentException(
          "table " + table + ", " + describeColumn(family, qualifier) + ": value is not a valid "
              + policy.type().yamlName() + ": " + problem);
    }
    CryptoBox box = valueBox(family, qualifier);
    if (box == null) {
      return value;
    }
    try {
      return box.encrypt(value, valueAssociatedData(box, row, family, qualifier));
    } catch (GeneralSecurityException e) {
      throw new IOException("table " + table + ": cannot encrypt value: " + e.getMessage(), e);
    }
  }

  /**
   * Encrypts a comparison operand for a server-side filter on a DET column (no row bound).
   */
  byte[] encodeDeterministicOperand(byte[] family, byte[] qualifier, byte[] value) throws IOException {
    CryptoBox box = valueBox(family, qualifier);
    if (box == null) {
      return value;
    }
    if (box.kind() != BoxKind.DET) {
      throw new IllegalStateException("not a DET column");
    }
    return encodeValue(new byte[0], family, qualifier, value);
  }

  /** The OPE box of a column, for translating range operands. */
  OrderPreservingBox orderPreservingBox(byte[] family, byte[] qualifier) throws UnsupportedSecureOperationException {
    return (OrderPreservingBox) valueBox(family, qualifier);
  }

  /** Encrypts a SPLASHE indicator or splayed measure value (a 64-bit number) for storage. */
  byte[] encodeSplayed(byte[] family, byte[] storedQualifier, long value) throws IOException {
    try {
      return ((AsheBox) valueBox(family, storedQualifier)).encryptLong(value);
    } catch (GeneralSecurityException e) {
      throw new IOException("table " + table + ": cannot encrypt value: " + e.getMessage(), e);
    }
  }

  /** Decrypts a SPLASHE indicator or splayed value. */
  long decodeSplayed(byte[] row, byte[] family, byte[] storedQualifier, byte[] stored) throws IOException {
    try {
      return ((AsheBox) valueBox(family, storedQualifier)).decryptLong(stored);
    } catch (GeneralSecurityException e) {
      throw new CellDecodingException(table, Bytes.toStringBinary(row), describeColumn(family, storedQualifier),
          e.getMessage());
    }
  }

  /** The ASHE box of a column, for decrypting sums. */
  AsheBox asheBox(byte[] family, byte[] qualifier) throws UnsupportedSecureOperationException {
    return (AsheBox) valueBox(family, qualifier);
  }

  /** Whether any column of the table is ASHE (or SPLASHE, which stores ASHE values). */
  boolean hasAsheColumns() {
    return schema.families().values().stream().anyMatch(f -> f.defaultPolicy().box() == BoxKind.ASHE
        || f.columns().values().stream().anyMatch(p -> p.box() == BoxKind.ASHE || p.box() == BoxKind.SPLASHE));
  }

  /** The row key's OPE box. */
  OrderPreservingBox orderPreservingRowBox() {
    return (OrderPreservingBox) rowBox;
  }

  /** The stored forms of a DET value under every active key version, primary first. */
  List<byte[]> encodeDeterministicOperands(byte[] family, byte[] qualifier, byte[] value) throws IOException {
    String problem = policy(family, qualifier).type().problemWith(value);
    if (problem != null) {
      throw new IllegalArgumentException("table " + table + ", " + describeColumn(family, qualifier)
          + ": filter operand is not a valid " + policy(family, qualifier).type().yamlName() + ": " + problem);
    }
    DeterministicBox box = deterministicBox(family, qualifier);
    try {
      return box.encryptUnderEveryKey(value, valueAssociatedData(box, new byte[0], family, qualifier));
    } catch (GeneralSecurityException e) {
      throw new IOException("table " + table + ": cannot encrypt filter operand: " + e.getMessage(), e);
    }
  }

  byte[] decodeValue(byte[] row, byte[] family, byte[] qualifier, byte[] stored) throws IOException {
    CryptoBox box = valueBox(family, qualifier);
    if (box == null) {
      return stored;
    }
    try {
      return box.decrypt(stored, valueAssociatedData(box, row, family, qualifier));
    } catch (GeneralSecurityException e) {
      throw new CellDecodingException(
          table, Bytes.toStringBinary(row), describeColumn(family, qualifier), e.getMessage());
    }
  }
}
