package dev.cryptoworker.client.codec;

import dev.cryptoworker.client.search.IndexedColumns;
import dev.cryptoworker.cryptobox.BoxKind;
import dev.cryptoworker.cryptobox.BoxTraits;
import dev.cryptoworker.schema.FamilySchema;
import java.util.List;
import java.util.function.BiFunction;
import java.util.function.Predicate;

/**
 * Which {@link ColumnExpansion} a family gets, chosen by the traits its kinds declare: a kind whose
 * values take several cells ({@link BoxTraits#severalCellsPerValue()}: SPLASHE's splays) or keep a
 * search index ({@link BoxTraits#searchIndex()}: SSE's index cells) claims its family; else one
 * stored cell per logical cell.
 */
final class ColumnExpansions {
  /** An expansion, and the traits of the kinds that need it. */
  private record Factory(Predicate<BoxTraits> claims, BiFunction<TableCodec, FamilySchema, ColumnExpansion> create) {}

  private static final List<Factory> FACTORIES = List.of(
      new Factory(BoxTraits::severalCellsPerValue, SplayedColumns::new),
      new Factory(BoxTraits::searchIndex, (codec, family) -> new IndexedColumns(codec)));

  private ColumnExpansions() {}

  /**
   * The expansion of {@code family}.
   *
   * @throws UnsupportedOperationException if the family mixes kinds whose expansions do not
   *     compose (SPLASHE and SSE)
   */
  static ColumnExpansion forFamily(TableCodec codec, FamilySchema family) {
    List<Factory> claiming = FACTORIES.stream().filter(f -> !codec.kindsIn(family, f.claims()).isEmpty()).toList();
    if (claiming.size() > 1) {
      String first = names(codec.kindsIn(family, claiming.get(0).claims()));
      String second = names(codec.kindsIn(family, claiming.get(1).claims()));
      throw new UnsupportedOperationException("table " + codec.table() + ", family " + family.name() + ": " + first
          + " and " + second + " columns in one family are not supported; put the " + second
          + " columns in another family");
    }
    return claiming.isEmpty() ? new OneCellPerColumn(codec) : claiming.get(0).create().apply(codec, family);
  }

  private static String names(List<BoxKind> kinds) {
    return String.join(", ", kinds.stream().map(BoxKind::name).toList());
  }
}
