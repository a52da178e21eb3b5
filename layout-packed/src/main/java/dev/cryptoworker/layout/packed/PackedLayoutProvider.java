package dev.cryptoworker.layout.packed;

import dev.cryptoworker.packs.PackCodec;
import dev.cryptoworker.client.spi.LayoutCapability;
import dev.cryptoworker.client.spi.LayoutContext;
import dev.cryptoworker.client.spi.LayoutProvider;
import dev.cryptoworker.client.spi.StorageLayout;
import dev.cryptoworker.client.spi.StoredUnits;
import dev.cryptoworker.cryptobox.BoxKind;
import dev.cryptoworker.packs.PackCompression;
import dev.cryptoworker.packs.PackMode;
import dev.cryptoworker.packs.PackPadding;
import dev.cryptoworker.schema.ColumnPolicy;
import dev.cryptoworker.schema.FamilySchema;
import dev.cryptoworker.schema.LayoutSection;
import dev.cryptoworker.schema.Location;
import dev.cryptoworker.schema.TableLayout;
import dev.cryptoworker.schema.TableSchema;
import java.io.IOException;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * The PACKED layout (MiniCrypt): many consecutive rows compressed and encrypted in one stored cell.
 * Registered in {@code META-INF/services/dev.cryptoworker.schema.LayoutDefinition}.
 */
public final class PackedLayoutProvider implements LayoutProvider {
  /** Conditional writes need only the pack (GENERIC); packs and entries can be inspected one by one. */
  private static final Set<LayoutCapability> GENERIC = Set.of(LayoutCapability.CHECK_AND_MUTATE,
      LayoutCapability.INSPECTION);
  private static final Set<LayoutCapability> APPEND = Set.of(LayoutCapability.INSPECTION);

  @Override
  public String type() {
    return PackedTableLayout.TYPE;
  }

  @Override
  public TableLayout read(LayoutSection section) {
    section.allowOnly("mode", "rowsPerPack", "compression", "dictionary", "padding", "cluster", "epochMillis",
        "leaseMillis", "entryPadding");
    PackMode mode = section.enumValue("mode", PackMode.class, PackMode.GENERIC);
    long epochMillis = appendMillis(section, mode, "epochMillis", PackedTableLayout.DEFAULT_EPOCH_MILLIS, 86_400_000);
    long leaseMillis = appendMillis(section, mode, "leaseMillis", PackedTableLayout.DEFAULT_LEASE_MILLIS, 600_000);
    int rowsPerPack = section.integer("rowsPerPack", PackedTableLayout.DEFAULT_ROWS_PER_PACK);
    if (rowsPerPack < 1 || rowsPerPack > PackedTableLayout.MAX_ROWS_PER_PACK) {
      throw section.error("rowsPerPack", "rowsPerPack must be between 1 and " + PackedTableLayout.MAX_ROWS_PER_PACK
          + ", got " + rowsPerPack);
    }
    PackCompression compression = section.enumValue("compression", PackCompression.class, PackCompression.ZSTD);
    boolean dictionary = section.bool("dictionary", false);
    if (dictionary && !compression.supportsDictionaries()) {
      throw section.error("dictionary", compression + " has no dictionaries (ZSTD and DEFLATE have)");
    }
    PackPadding padding = padding(section);
    List<Integer> entryPadding = PackCodec.DEFAULT_ENTRY_PADDING_TIERS;
    if (section.has("entryPadding")) {
      if (mode != PackMode.APPEND) {
        throw section.error("entryPadding", "entryPadding applies to mode APPEND only (this table is " + mode + ")");
      }
      entryPadding = tiers(section, "entryPadding", "[128, 256, 512] (ascending sizes in bytes; [] for none)");
    }
    return new PackedTableLayout(mode, rowsPerPack, compression, dictionary, padding,
        section.string("cluster", TableLayout.DEFAULT_CLUSTER), epochMillis, leaseMillis, entryPadding);
  }

  /** {@code padding}: PADME (the default), NONE, or a list of tiers. */
  private static PackPadding padding(LayoutSection section) {
    if (!section.has("padding")) {
      return PackPadding.padme();
    }
    if (section.isList("padding")) {
      List<Integer> tiers = tiers(section, "padding", "[1024, 4096, 16384] (ascending sizes in bytes)");
      return tiers.isEmpty() ? PackPadding.none() : PackPadding.tiers(tiers);
    }
    return switch (section.string("padding", "").toUpperCase(java.util.Locale.ROOT)) {
      case "PADME" -> PackPadding.padme();
      case "NONE" -> PackPadding.none();
      default -> throw section.error("padding", "padding is PADME (the default), NONE, or a list of ascending sizes"
          + " in bytes such as [1024, 4096, 16384]");
    };
  }

  /** A list of padding tiers: positive and ascending. */
  private static List<Integer> tiers(LayoutSection section, String field, String example) {
    List<Integer> tiers = section.integerList(field, example);
    for (int i = 0; i < tiers.size(); i++) {
      if (tiers.get(i) <= 0 || i > 0 && tiers.get(i) <= tiers.get(i - 1)) {
        throw section.itemError(field, i, "padding tiers must be positive and ascending, got " + tiers.get(i)
            + " after " + tiers.subList(0, i));
      }
    }
    return tiers;
  }

  /** An APPEND-mode duration in milliseconds, between 100 and {@code max}; refused under GENERIC. */
  private static long appendMillis(LayoutSection section, PackMode mode, String field, long fallback, long max) {
    if (!section.has(field)) {
      return fallback;
    }
    if (mode != PackMode.APPEND) {
      throw section.error(field, field + " applies to mode APPEND only (this table is " + mode + ")");
    }
    long millis = section.integer(field, 0);
    if (millis < 100 || millis > max) {
      throw section.error(field, field + " must be between 100 and " + max + " milliseconds, got " + millis);
    }
    return millis;
  }

  @Override
  public Map<String, Object> write(TableLayout layout) {
    PackedTableLayout p = (PackedTableLayout) layout;
    Map<String, Object> fields = new LinkedHashMap<>();
    fields.put("mode", p.mode());
    fields.put("rowsPerPack", p.rowsPerPack());
    fields.put("compression", p.compression());
    fields.put("dictionary", p.dictionary());
    if (p.padding() instanceof PackPadding.Tiers tiers) {
      fields.put("padding", tiers.sizes());
    } else if (p.padding() instanceof PackPadding.None) {
      fields.put("padding", "NONE");
    }
    if (!p.cluster().equals(TableLayout.DEFAULT_CLUSTER)) {
      fields.put("cluster", p.cluster());
    }
    if (p.mode() == PackMode.APPEND) {
      fields.put("epochMillis", p.epochMillis());
      fields.put("leaseMillis", p.leaseMillis());
      if (!p.entryPadding().equals(PackCodec.DEFAULT_ENTRY_PADDING_TIERS)) {
        fields.put("entryPadding", p.entryPadding());
      }
    }
    return fields;
  }

  /**
   * Pack ids are row keys stored so that the smallest key of a pack finds it (PLAIN, OPE: in order;
   * DET: by equality); values live inside encrypted packs, where no server sees them, so only STD
   * (and PLAIN, the same inside a pack) make sense.
   */
  @Override
  public void validate(TableLayout layout, ColumnPolicy rowKey, Map<String, FamilySchema> families, Location at) {
    if (((PackedTableLayout) layout).cluster().isBlank()) {
      throw at.at("layout").at("cluster").error("a cluster name must not be blank");
    }
    if (rowKey.box() == BoxKind.STD) {
      throw at.at("rowKey").error("a PACKED table needs row keys it can find packs by (PLAIN, OPE or DET): STD row keys"
          + " are randomized, so no pack id could be looked up");
    }
    for (FamilySchema f : families.values()) {
      Location familyAt = at.at("families").at(f.name());
      requireStoredInPacks(f.defaultPolicy().box(), familyAt.at("default"));
      for (Map.Entry<String, ColumnPolicy> c : f.columns().entrySet()) {
        requireStoredInPacks(c.getValue().box(), familyAt.at("columns").at(c.getKey()));
      }
    }
  }

  private static void requireStoredInPacks(BoxKind box, Location at) {
    if (box != BoxKind.STD && box != BoxKind.PLAIN) {
      throw at.error("a PACKED table keeps its values inside encrypted packs, where the servers cannot see them: "
          + box + " has no meaning there (use STD or PLAIN, which are the same inside a pack)");
    }
  }

  @Override
  public Set<String> storedFamilies(TableSchema schema) {
    Stream<byte[]> families = ((PackedTableLayout) schema.layout()).mode() == PackMode.APPEND
        ? Stream.of(PackedLayout.FAMILY, PackDictionaryStore.FAMILY, AppendEntries.FAMILY, EpochRecords.FAMILY)
        : Stream.of(PackedLayout.FAMILY, PackDictionaryStore.FAMILY);
    return families.map(Bytes::toString).collect(Collectors.toUnmodifiableSet());
  }

  @Override
  public Set<LayoutCapability> capabilities(TableLayout layout) {
    return ((PackedTableLayout) layout).mode() == PackMode.APPEND ? APPEND : GENERIC;
  }

  @Override
  public StorageLayout open(LayoutContext context) throws IOException {
    PackedTableLayout spec = (PackedTableLayout) context.layout();
    if (spec.mode() == PackMode.APPEND && context.options().backgroundMerges()) {
      context.connectionService(EpochMergers.class, EpochMergers::new).mergeInBackground(context);
    }
    return PackedLayout.open(context);
  }

  @Override
  public StoredUnits storedUnits(LayoutContext context, Collection<Integer> keysetKeyIds) throws IOException {
    return PackedLayout.storedUnits(context, keysetKeyIds);
  }

  @Override
  public void initialize(LayoutContext context) throws IOException {
    try (Table table = context.homeCluster().getTable(context.table())) {
      PackedLayout.createFirstPack(table, context.codec());
    }
  }
}
