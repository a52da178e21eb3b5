package dev.cryptoworker.client.codec;

import dev.cryptoworker.cryptobox.BoxKind;
import dev.cryptoworker.cryptobox.BoxTraits;
import dev.cryptoworker.schema.FamilySchema;
import dev.cryptoworker.searchindex.spi.SearchIndex;
import java.util.List;
import java.util.function.Predicate;

/**
 * Which {@link ColumnExpansion} a family gets, chosen by the traits its kinds declare: a kind whose
 * values take several cells ({@link BoxTraits#severalCellsPerValue()}) stores the family as its
 * provider's expansion says ({@link BoxOwnedExpansion}); a kind that keeps a search index ({@link
 * BoxTraits#searchIndex()}) gets the installed entry index's expansion ({@link SearchIndexes}:
 * index cells beside its values, {@link IndexedFamily}); else one stored cell per logical cell.
 */
final class ColumnExpansions {
  /**
   * An expansion, the traits of the kinds that need it, and whether one family may hold only one
   * such kind (an expansion owned by its kind does not compose with another kind's).
   */
  private record Factory(Predicate<BoxTraits> claims, Creator create, boolean oneKind) {}

  @FunctionalInterface
  private interface Creator {
    ColumnExpansion create(TableCodec codec, FamilySchema family, BoxKind kind);
  }

  private static final List<Factory> FACTORIES = List.of(
      new Factory(BoxTraits::severalCellsPerValue, ColumnExpansions::ownedBy, true),
      new Factory(BoxTraits::searchIndex, ColumnExpansions::indexed, false));

  private ColumnExpansions() {}

  /**
   * The expansion of {@code family}.
   *
   * @throws UnsupportedOperationException if the family mixes kinds whose expansions do not
   *     compose (two kinds that expand, or one that expands and one that keeps a search index)
   */
  static ColumnExpansion forFamily(TableCodec codec, FamilySchema family) {
    List<Factory> claiming = FACTORIES.stream().filter(f -> !codec.kindsIn(family, f.claims()).isEmpty()).toList();
    if (claiming.size() > 1) {
      refuse(codec, family, codec.kindsIn(family, claiming.get(0).claims()), codec.kindsIn(family, claiming.get(1).claims()));
    }
    if (claiming.isEmpty()) {
      return new OneCellPerColumn(codec);
    }
    List<BoxKind> kinds = codec.kindsIn(family, claiming.get(0).claims());
    if (claiming.get(0).oneKind() && kinds.size() > 1) {
      refuse(codec, family, kinds.subList(0, 1), kinds.subList(1, kinds.size()));
    }
    return claiming.get(0).create().create(codec, family, kinds.get(0));
  }

  private static ColumnExpansion ownedBy(TableCodec codec, FamilySchema family, BoxKind kind) {
    return BoxOwnedExpansion.of(codec, family, store -> codec.registry().expansion(kind, store).orElseThrow(
        () -> new UnsupportedOperationException("box kind " + kind + " declares several cells per value but its"
            + " provider gives no expansion (BoxProvider.expansion)")));
  }

  private static ColumnExpansion indexed(TableCodec codec, FamilySchema family, BoxKind kind) {
    SearchIndex index = codec.searchIndex().orElseThrow(() -> {
      String column = family.columns().entrySet().stream().filter(c -> c.getValue().box().equals(kind))
          .map(c -> family.name() + ":" + c.getKey()).findFirst().orElse(family.name() + ":*");
      return new UnsupportedOperationException("table " + codec.table() + ", column " + column + ": its box " + kind
          + " keeps a search index, and no search-index provider is on the class path: add the module "
          + SearchIndexes.MODULE);
    });
    return new IndexedFamily(index.expansion(codec, new OneCellPerColumn(codec)));
  }

  private static void refuse(TableCodec codec, FamilySchema family, List<BoxKind> first, List<BoxKind> second) {
    throw new UnsupportedOperationException("table " + codec.table() + ", family " + family.name() + ": " + names(first)
        + " and " + names(second) + " columns in one family are not supported; put the " + names(second)
        + " columns in another family");
  }

  private static String names(List<BoxKind> kinds) {
    return String.join(", ", kinds.stream().map(BoxKind::name).toList());
  }
}
