package dev.cryptoworker.client.codec;

import dev.cryptoworker.client.search.IndexedColumns;
import dev.cryptoworker.schema.FamilySchema;
import java.util.List;
import java.util.Optional;

/**
 * Which {@link ColumnExpansion} a family gets: the first factory that claims it, else one stored
 * cell per logical cell. A box that keeps cells beside its columns (SPLASHE's splays, SSE's index
 * cells) adds one factory here.
 */
final class ColumnExpansions {
  /** Claims the families whose schema needs this expansion. */
  @FunctionalInterface
  interface Factory {
    Optional<ColumnExpansion> forFamily(TableCodec codec, FamilySchema family);
  }

  private static final List<Factory> FACTORIES = List.of(
      (codec, family) -> family.hasSplayedColumns() ? Optional.of(new SplayedColumns(codec, family)) : Optional.empty(),
      (codec, family) -> codec.hasSearchableColumns(family) ? Optional.of(new IndexedColumns(codec)) : Optional.empty());

  private ColumnExpansions() {}

  /**
   * The expansion of {@code family}.
   *
   * @throws UnsupportedOperationException if the family mixes boxes whose expansions do not
   *     compose (SPLASHE and SSE)
   */
  static ColumnExpansion forFamily(TableCodec codec, FamilySchema family) {
    if (family.hasSplayedColumns() && codec.hasSearchableColumns(family)) {
      throw new UnsupportedOperationException("table " + codec.table() + ", family " + family.name()
          + ": SPLASHE and SSE columns in one family are not supported; put the SSE columns in another family");
    }
    for (Factory f : FACTORIES) {
      Optional<ColumnExpansion> e = f.forFamily(codec, family);
      if (e.isPresent()) {
        return e.get();
      }
    }
    return new OneCellPerColumn(codec);
  }
}
