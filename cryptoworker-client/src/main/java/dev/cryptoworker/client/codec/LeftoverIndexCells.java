package dev.cryptoworker.client.codec;

import dev.cryptoworker.cryptobox.expansion.PresplitMeasure;
import dev.cryptoworker.cryptobox.expansion.Recount;
import dev.cryptoworker.region.SearchIndexCells;
import dev.cryptoworker.schema.ColumnPolicy;
import java.io.IOException;
import java.util.List;
import java.util.Optional;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.client.Put;

/**
 * A family whose column moves off a search index, while the migration runs: rows not yet rewritten
 * still hold their index cells, which reads skip (the migration deletes each with its row's
 * rewrite). Everything else is the family's own expansion.
 */
final class LeftoverIndexCells implements ColumnExpansion {
  private final ColumnExpansion own;

  LeftoverIndexCells(ColumnExpansion own) {
    this.own = own;
  }

  @Override
  public void encode(byte[] row, byte[] family, List<Cell> cells, Put out) throws IOException {
    own.encode(row, family, cells, out);
  }

  @Override
  public boolean plansBatches() {
    return own.plansBatches();
  }

  @Override
  public void beginBatch(List<List<Cell>> rows) throws IOException {
    own.beginBatch(rows);
  }

  @Override
  public void endBatch() {
    own.endBatch();
  }

  @Override
  public Optional<Recount> recount() {
    return own.recount();
  }

  @Override
  public List<byte[]> storedQualifiers(byte[] family, byte[] qualifier, boolean forDelete) throws IOException {
    return own.storedQualifiers(family, qualifier, forDelete);
  }

  @Override
  public Cell decode(byte[] row, byte[] family, Cell stored) throws IOException {
    return SearchIndexCells.isIndexQualifier(stored.getQualifierArray(), stored.getQualifierOffset(),
        stored.getQualifierLength()) ? null : own.decode(row, family, stored);
  }

  @Override
  public Optional<String> logicalColumn(byte[] storedQualifier) {
    return own.logicalColumn(storedQualifier);
  }

  @Override
  public Optional<PresplitMeasure> presplit(byte[] measure) {
    return own.presplit(measure);
  }

  @Override
  public Optional<ColumnPolicy> storedPolicy(byte[] storedQualifier) {
    return own.storedPolicy(storedQualifier);
  }

  @Override
  public boolean hasOwnBox(byte[] storedQualifier) {
    return own.hasOwnBox(storedQualifier);
  }
}
