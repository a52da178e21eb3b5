package dev.cryptoworker.client.codec;

import dev.cryptoworker.client.CellDecodingException;
import dev.cryptoworker.cryptobox.expansion.DeclaredColumn;
import dev.cryptoworker.cryptobox.expansion.FamilyExpansion;
import dev.cryptoworker.cryptobox.expansion.FamilyExpansion.CellValue;
import dev.cryptoworker.cryptobox.expansion.FamilyStore;
import dev.cryptoworker.cryptobox.expansion.PresplitMeasure;
import dev.cryptoworker.cryptobox.expansion.Recount;
import dev.cryptoworker.cryptobox.expansion.SharedCounts;
import dev.cryptoworker.cryptobox.expansion.StoredPart;
import dev.cryptoworker.schema.ColumnPolicy;
import dev.cryptoworker.schema.FamilySchema;
import dev.cryptoworker.schema.ValueType;
import java.io.IOException;
import java.security.GeneralSecurityException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * A family stored as its box kind's {@link FamilyExpansion} says (SPLASHE's indicators and splays):
 * this class only carries cells between HBase's types and the expansion's, and offers it the
 * family's columns and encryption ({@link FamilyStore}).
 */
final class BoxOwnedExpansion implements ColumnExpansion, FamilyStore {
  private final TableCodec codec;
  private final FamilySchema family;
  private final byte[] familyName;
  private final FamilyExpansion expansion;

  private BoxOwnedExpansion(TableCodec codec, FamilySchema family, BoxExpansionFactory factory) {
    this.codec = codec;
    this.family = family;
    this.familyName = Bytes.toBytes(family.name());
    this.expansion = factory.create(this);
  }

  /** How a kind's provider builds its expansion of a family. */
  @FunctionalInterface
  interface BoxExpansionFactory {
    FamilyExpansion create(FamilyStore store);
  }

  static ColumnExpansion of(TableCodec codec, FamilySchema family, BoxExpansionFactory factory) {
    return new BoxOwnedExpansion(codec, family, factory);
  }

  // ---- ColumnExpansion, for the client

  @Override
  public void encode(byte[] row, byte[] familyBytes, List<Cell> cells, Put out) throws IOException {
    for (CellValue stored : expansion.encode(row, logical(cells))) {
      out.addColumn(familyBytes, stored.qualifier(), stored.timestamp(), stored.value());
    }
  }

  private static List<CellValue> logical(List<Cell> cells) {
    List<CellValue> logical = new ArrayList<>(cells.size());
    for (Cell c : cells) {
      logical.add(new CellValue(CellUtil.cloneQualifier(c), c.getTimestamp(), CellUtil.cloneValue(c)));
    }
    return logical;
  }

  @Override
  public boolean plansBatches() {
    return expansion.plansBatches();
  }

  @Override
  public void beginBatch(List<List<Cell>> rows) throws IOException {
    List<List<CellValue>> logical = new ArrayList<>(rows.size());
    for (List<Cell> row : rows) {
      logical.add(logical(row));
    }
    expansion.beginBatch(logical);
  }

  @Override
  public void endBatch() {
    expansion.endBatch();
  }

  @Override
  public Optional<Recount> recount() {
    return expansion.recount();
  }

  @Override
  public List<byte[]> storedQualifiers(byte[] familyBytes, byte[] qualifier, boolean forDelete) {
    return expansion.storedQualifiers(qualifier, forDelete);
  }

  @Override
  public Cell decode(byte[] row, byte[] familyBytes, Cell stored) throws IOException {
    byte[] qualifier = CellUtil.cloneQualifier(stored);
    try {
      Optional<CellValue> logical = expansion.decode(row, new CellValue(qualifier, stored.getTimestamp(),
          CellUtil.cloneValue(stored)));
      return logical.map(c -> OneCellPerColumn.decoded(row, familyBytes, c.qualifier(), stored, c.value())).orElse(null);
    } catch (GeneralSecurityException e) {
      String column = logicalColumn(qualifier).orElseGet(() -> Bytes.toStringBinary(qualifier));
      throw new CellDecodingException(codec.table(), codec.printableRow(row),
          "column " + family.name() + ":" + column + " (" + family.policyFor(column).box() + ")", e.getMessage());
    }
  }

  @Override
  public Optional<String> logicalColumn(byte[] storedQualifier) {
    return expansion.storedPart(storedQualifier).map(StoredPart::logicalColumn);
  }

  @Override
  public Optional<PresplitMeasure> presplit(byte[] measure) {
    return expansion.presplit(measure);
  }

  @Override
  public Optional<ColumnPolicy> storedPolicy(byte[] storedQualifier) {
    return expansion.storedPart(storedQualifier).map(p -> p.numbersKind()
        .map(kind -> ColumnPolicy.of(kind, ValueType.LONG))
        .or(() -> p.ownBox().map(kind -> ColumnPolicy.of(kind, family.policyFor(p.logicalColumn()).type())))
        .orElseGet(() -> family.policyFor(p.logicalColumn())));
  }

  @Override
  public boolean hasOwnBox(byte[] storedQualifier) {
    return expansion.storedPart(storedQualifier).flatMap(StoredPart::ownBox).isPresent();
  }

  // ---- FamilyStore, for the expansion

  @Override
  public String table() {
    return codec.table();
  }

  @Override
  public String family() {
    return family.name();
  }

  @Override
  public List<DeclaredColumn> columns() {
    List<DeclaredColumn> out = new ArrayList<>();
    for (Map.Entry<String, ColumnPolicy> c : family.columns().entrySet()) {
      ColumnPolicy p = c.getValue();
      out.add(new DeclaredColumn(c.getKey(), p.box(), p.values(), p.splays(), p.frequent()));
    }
    return out;
  }

  @Override
  public byte[] encodeValue(byte[] row, byte[] storedQualifier, byte[] value) throws IOException {
    return codec.encodeValue(row, familyName, storedQualifier, value);
  }

  @Override
  public byte[] encodeNumber(byte[] storedQualifier, long value) throws IOException {
    return codec.encodeNumber(familyName, storedQualifier, value);
  }

  @Override
  public byte[] decodeValue(byte[] row, byte[] storedQualifier, byte[] stored) throws IOException {
    return codec.decodeValue(row, familyName, storedQualifier, stored);
  }

  @Override
  public long decodeNumber(byte[] row, byte[] storedQualifier, byte[] stored) throws IOException {
    return codec.decodeNumber(row, familyName, storedQualifier, stored);
  }

  @Override
  public SharedCounts sharedCounts(byte[] storedQualifier) {
    return codec.sharedCounts(familyName, storedQualifier);
  }
}
