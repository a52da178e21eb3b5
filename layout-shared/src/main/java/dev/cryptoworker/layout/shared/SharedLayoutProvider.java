package dev.cryptoworker.layout.shared;

import dev.cryptoworker.client.spi.LayoutCapability;
import dev.cryptoworker.client.spi.LayoutContext;
import dev.cryptoworker.client.spi.LayoutProvider;
import dev.cryptoworker.client.spi.StorageLayout;
import dev.cryptoworker.client.spi.StoredUnits;
import dev.cryptoworker.cryptobox.BoxKind;
import dev.cryptoworker.schema.ColumnPolicy;
import dev.cryptoworker.schema.FamilySchema;
import dev.cryptoworker.schema.LayoutSection;
import dev.cryptoworker.schema.Location;
import dev.cryptoworker.schema.TableLayout;
import dev.cryptoworker.schema.TableSchema;
import dev.cryptoworker.schema.ValueType;
import dev.cryptoworker.sharing.SharingKind;
import dev.cryptoworker.sharing.SharingParameters;
import java.io.IOException;
import java.util.Collection;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The SHARED layout: each value split into shares over n independent clusters. Registered in
 * {@code META-INF/services/dev.cryptoworker.schema.LayoutDefinition}.
 */
public final class SharedLayoutProvider implements LayoutProvider {
  @Override
  public String type() {
    return SharedTableLayout.TYPE;
  }

  @Override
  public TableLayout read(LayoutSection section) {
    section.allowOnly("scheme", "n", "r", "z", "clusters", "summed");
    SharingKind scheme = section.enumValue("scheme", SharingKind.class, null);
    if (scheme == null) {
      throw section.error("scheme", "'scheme' is required");
    }
    SharingParameters parameters;
    try {
      parameters = new SharingParameters(section.requiredInteger("n"), section.requiredInteger("r"),
          section.requiredInteger("z"));
    } catch (IllegalArgumentException e) {
      throw section.error("", e.getMessage());
    }
    return new SharedTableLayout(scheme, parameters, section.stringList("clusters"),
        section.has("summed") ? section.stringList("summed") : List.of());
  }

  @Override
  public Map<String, Object> write(TableLayout layout) {
    SharedTableLayout s = (SharedTableLayout) layout;
    Map<String, Object> fields = new LinkedHashMap<>();
    fields.put("scheme", s.scheme());
    fields.put("n", s.parameters().n());
    fields.put("r", s.parameters().r());
    fields.put("z", s.parameters().z());
    fields.put("clusters", s.clusters());
    if (!s.summed().isEmpty()) {
      fields.put("summed", s.summed());
    }
    return fields;
  }

  /**
   * One distinct cluster per share; row keys that every cluster stores alike (so a row's shares
   * meet: PLAIN, DET or OPE); every value shared (STD), since no server can compare, order or add
   * shares.
   */
  @Override
  public void validate(TableLayout layout, ColumnPolicy rowKey, Map<String, FamilySchema> families, Location at) {
    SharedTableLayout shared = (SharedTableLayout) layout;
    Location layoutAt = at.at("layout");
    int n = shared.parameters().n();
    if (shared.clusters().size() != n) {
      throw layoutAt.at("clusters").error("n is " + n + " but " + shared.clusters().size()
          + " clusters are named: one cluster per share");
    }
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < n; i++) {
      String c = shared.clusters().get(i);
      if (c.isBlank() || !seen.add(c)) {
        throw layoutAt.at("clusters").item(i).error(c.isBlank() ? "a cluster name must not be blank"
            : "cluster '" + c + "' is named twice: two shares on one cluster let it learn what z shares hide");
      }
    }
    if (shared.scheme().sumsShares()) {
      requireLongs(shared.scheme(), families, at);
    }
    checkSummed(shared, families, layoutAt.at("summed"));
    if (rowKey.box() == BoxKind.STD) {
      throw at.at("rowKey").error("a SHARED table needs row keys every cluster stores alike (PLAIN, DET or OPE):"
          + " STD row keys differ per cluster, so a row's shares could not be found together");
    }
    for (FamilySchema f : families.values()) {
      Location familyAt = at.at("families").at(f.name());
      requireShared(f.defaultPolicy().box(), familyAt.at("default"));
      for (Map.Entry<String, ColumnPolicy> c : f.columns().entrySet()) {
        requireShared(c.getValue().box(), familyAt.at("columns").at(c.getKey()));
      }
    }
  }

  /** A scheme of numbers (SHAMIR_P127) shares 8-byte longs: every column, family defaults too, is {@code type: long}. */
  private static void requireLongs(SharingKind scheme, Map<String, FamilySchema> families, Location at) {
    for (FamilySchema f : families.values()) {
      Location familyAt = at.at("families").at(f.name());
      requireLong(scheme, f.defaultPolicy(), familyAt.at("default"));
      for (Map.Entry<String, ColumnPolicy> c : f.columns().entrySet()) {
        requireLong(scheme, c.getValue(), familyAt.at("columns").at(c.getKey()));
      }
    }
  }

  /**
   * Each summed column is {@code family:qualifier}, listed once, a column the schema names with
   * {@code type: long}, in a family that stores qualifiers as they are (so a stored cell names its
   * column); and SHAMIR_P127 needs z >= 1, as any Shamir does.
   */
  private static void checkSummed(SharedTableLayout shared, Map<String, FamilySchema> families, Location at) {
    if (shared.summed().isEmpty()) {
      return;
    }
    if (shared.scheme().sumsShares()) {
      throw at.error("scheme " + shared.scheme() + " already sums every column: list no summed columns");
    }
    if (shared.parameters().z() < 1) {
      throw at.error("summed columns are shared with " + SharingKind.SHAMIR_P127 + ", which needs z >= 1 (z = 0 would"
          + " store them in the clear)");
    }
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < shared.summed().size(); i++) {
      String column = shared.summed().get(i);
      int colon = column.indexOf(':');
      FamilySchema family = colon > 0 ? families.get(column.substring(0, colon)) : null;
      ColumnPolicy policy = family == null ? null : family.columns().get(column.substring(colon + 1));
      String problem = colon <= 0 ? "write family:qualifier"
          : policy == null ? "the schema lists no column " + column
          : policy.type() != ValueType.LONG ? "a summed column is shared as a signed 64-bit number: declare it { box:"
              + " STD, type: long } (it is " + policy.type().yamlName() + ")"
          : family.protectQualifiers() ? "family " + family.name() + " protects its qualifiers; summed columns need"
              + " qualifiers stored as they are"
          : !seen.add(column) ? "listed twice" : null;
      if (problem != null) {
        throw at.item(i).error("summed column '" + column + "': " + problem);
      }
    }
  }

  private static void requireLong(SharingKind scheme, ColumnPolicy policy, Location at) {
    if (policy.type() != ValueType.LONG) {
      throw at.error("scheme " + scheme + " shares signed 64-bit numbers over a prime field: write { box: STD, type:"
          + " long } (this is " + policy.type().yamlName() + ")");
    }
  }

  private static void requireShared(BoxKind box, Location at) {
    if (box != BoxKind.STD) {
      throw at.error("a SHARED table shares every value: write { box: STD } (the servers cannot compare, order or add"
          + " shares, so " + box + " has no meaning here)");
    }
  }

  @Override
  public Set<String> storedFamilies(TableSchema schema) {
    return schema.families().keySet();
  }

  /**
   * Servers hold shares they can compute on only where the scheme sums them (SHAMIR_P127: {@code
   * REGION_WORK}, sums), and one write spans independent clusters: shares can be inspected and
   * bulk loaded (each cluster's HFiles of its shares), and a put conditioned on one cell runs as a
   * compare-and-set on its shares where any two write quorums share a cluster ({@link ConditionalPut}).
   */
  @Override
  public Set<LayoutCapability> capabilities(TableLayout layout) {
    SharedTableLayout shared = (SharedTableLayout) layout;
    SharingParameters p = shared.parameters();
    Set<LayoutCapability> out = EnumSet.of(LayoutCapability.INSPECTION, LayoutCapability.BULK_LOAD);
    if (ConditionalPut.quorumsIntersect(p.n(), p.r())) {
      out.add(LayoutCapability.CHECK_AND_MUTATE);
    }
    if (shared.sumsShares()) {
      out.add(LayoutCapability.REGION_WORK); // sums of shares (SharedSums); no search
    }
    return Set.copyOf(out);
  }

  /** The regions of each cluster add SHAMIR_P127 shares ({@link SharedSums}). */
  @Override
  public boolean needsRegionObserver(TableLayout layout) {
    return ((SharedTableLayout) layout).sumsShares();
  }

  @Override
  public StoredUnits storedUnits(LayoutContext context, Collection<Integer> keysetKeyIds) throws IOException {
    return SharedLayout.open(context).storedUnits(keysetKeyIds);
  }

  @Override
  public StorageLayout open(LayoutContext context) throws IOException {
    return SharedLayout.open(context);
  }
}
