package dev.cryptoworker.client.cell;

import dev.cryptoworker.client.SecureScans;
import dev.cryptoworker.client.SecureTableOptions;
import dev.cryptoworker.client.UnsupportedSecureOperationException;
import dev.cryptoworker.client.codec.TableCodec;
import dev.cryptoworker.cryptobox.BoxKind;
import dev.cryptoworker.cryptobox.CryptoBox;
import dev.cryptoworker.cryptobox.EqualityOnCiphertext;
import dev.cryptoworker.cryptobox.IndexedSearch;
import dev.cryptoworker.cryptobox.OrderOnCiphertext;
import dev.cryptoworker.cryptobox.PlaintextStorage;
import dev.cryptoworker.cryptobox.RangeBounds;
import dev.cryptoworker.cryptobox.ValueCondition;
import dev.cryptoworker.searchindex.spi.FilterConditions;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.apache.hadoop.hbase.CompareOperator;
import org.apache.hadoop.hbase.filter.BinaryComparator;
import org.apache.hadoop.hbase.filter.ByteArrayComparable;
import org.apache.hadoop.hbase.filter.ColumnPrefixFilter;
import org.apache.hadoop.hbase.filter.ColumnRangeFilter;
import org.apache.hadoop.hbase.filter.Filter;
import org.apache.hadoop.hbase.filter.FilterList;
import org.apache.hadoop.hbase.filter.FirstKeyOnlyFilter;
import org.apache.hadoop.hbase.filter.FuzzyRowFilter;
import org.apache.hadoop.hbase.filter.InclusiveStopFilter;
import org.apache.hadoop.hbase.filter.MultiRowRangeFilter;
import org.apache.hadoop.hbase.filter.MultipleColumnPrefixFilter;
import org.apache.hadoop.hbase.filter.PageFilter;
import org.apache.hadoop.hbase.filter.PrefixFilter;
import org.apache.hadoop.hbase.filter.QualifierFilter;
import org.apache.hadoop.hbase.filter.RowFilter;
import org.apache.hadoop.hbase.filter.SingleColumnValueExcludeFilter;
import org.apache.hadoop.hbase.filter.SingleColumnValueFilter;

/**
 * Rewrites a filter for the server: the part that can run on ciphertext goes to the region
 * servers; the rest is refused or, when the caller opted in, kept as a residual evaluated on the
 * client over decoded rows.
 *
 * <p>An allowlist: filters it does not know are never forwarded, since they would compare
 * plaintext operands against ciphertext (wrong results) or leak operands to the server.
 */
public final class FilterTranslator {
  /** Filters that look only at the row key. */
  private static final Set<Class<?>> ROW_KEY_FILTERS =
      Set.of(PrefixFilter.class, RowFilter.class, InclusiveStopFilter.class, MultiRowRangeFilter.class,
          FuzzyRowFilter.class);
  /** Filters that look only at qualifier names. */
  private static final Set<Class<?>> QUALIFIER_FILTERS =
      Set.of(QualifierFilter.class, ColumnPrefixFilter.class, MultipleColumnPrefixFilter.class,
          ColumnRangeFilter.class);
  /** Filters that look at neither keys, qualifiers nor values. */
  private static final Set<Class<?>> STRUCTURAL_FILTERS = Set.of(PageFilter.class, FirstKeyOnlyFilter.class);

  /**
   * The result of translation.
   *
   * @param serverFilter what the region servers evaluate, or null
   * @param clientResidual the original filter, to evaluate on decoded rows, or null if the server
   *     does everything
   */
  record Translation(Filter serverFilter, Filter clientResidual) {}

  private final TableCodec codec;
  private final SecureTableOptions options;

  public FilterTranslator(TableCodec codec, SecureTableOptions options) {
    this.codec = codec;
    this.options = options;
  }

  SecureTableOptions options() {
    return options;
  }

  Translation translate(Filter filter, boolean clientSideAllowed) throws IOException {
    if (filter == null) {
      return new Translation(null, null);
    }
    Part part = serverPart(filter, clientSideAllowed);
    return new Translation(part.server, part.needsClient ? filter : null);
  }

  /**
   * The server side of one filter.
   *
   * @param server what the region servers can evaluate (null: nothing)
   * @param needsClient whether the original must also run on the client; then {@code server} only
   *     narrows (every row the original accepts passes it)
   */
  private record Part(Filter server, boolean needsClient) {
    static Part onServer(Filter f) {
      return new Part(f, false);
    }

    static final Part ON_CLIENT = new Part(null, true);
  }

  private Part serverPart(Filter filter, boolean clientSideAllowed) throws IOException {
    if (filter instanceof FilterList) {
      return list((FilterList) filter, clientSideAllowed);
    }
    if (filter instanceof SingleColumnValueFilter) {
      return singleColumnValue((SingleColumnValueFilter) filter, clientSideAllowed);
    }
    Class<?> type = filter.getClass();
    if (ROW_KEY_FILTERS.contains(type)) {
      if (codec.rowKeysInPlaintext()) {
        return Part.onServer(filter);
      }
      return refuseOrClient(filter, codec.describeRowKey(),
          "compares row keys, which are stored encrypted", clientSideAllowed);
    }
    if (QUALIFIER_FILTERS.contains(type)) {
      if (!codec.anyProtectedQualifiers()) {
        return Part.onServer(filter);
      }
      return refuseOrClient(filter, "qualifier names",
          "compares qualifier names, which some families store encrypted (protectQualifiers)",
          clientSideAllowed);
    }
    if (STRUCTURAL_FILTERS.contains(type) || codec.isFullyPlain()) {
      return Part.onServer(filter);
    }
    return refuseOrClient(filter, "protected data",
        "is not one CryptoWorker can evaluate on ciphertext (server-side:"
            + " SingleColumnValueFilter EQUAL/NOT_EQUAL on DET, any comparison on OPE and PLAIN columns,"
            + " FilterList of those, row-key filters on PLAIN row keys, PageFilter, FirstKeyOnlyFilter)",
        clientSideAllowed);
  }

  private Part list(FilterList list, boolean clientSideAllowed) throws IOException {
    List<Filter> servers = new ArrayList<>();
    boolean needsClient = false;
    for (Filter child : list.getFilters()) {
      Part p = serverPart(child, clientSideAllowed);
      needsClient |= p.needsClient;
      if (p.server != null) {
        servers.add(p.server);
      }
    }
    if (!needsClient) {
      return Part.onServer(new FilterList(list.getOperator(), servers));
    }
    // With a client residual, the server may only narrow by stateless row predicates joined by AND;
    // anything else (OR, paging) must see exactly the rows the client would, so it runs locally.
    if (list.getOperator() == FilterList.Operator.MUST_PASS_ALL) {
      List<Filter> narrowing = new ArrayList<>();
      for (Filter s : servers) {
        if (isStatelessRowPredicate(s)) {
          narrowing.add(s);
        }
      }
      if (!narrowing.isEmpty()) {
        return new Part(new FilterList(FilterList.Operator.MUST_PASS_ALL, narrowing), true);
      }
    }
    return Part.ON_CLIENT;
  }

  private static boolean isStatelessRowPredicate(Filter f) {
    if (f instanceof FilterList) {
      return ((FilterList) f).getFilters().stream().allMatch(FilterTranslator::isStatelessRowPredicate);
    }
    return f instanceof SingleColumnValueFilter && !(f instanceof SingleColumnValueExcludeFilter);
  }

  private Part singleColumnValue(SingleColumnValueFilter f, boolean clientSideAllowed) throws IOException {
    byte[] family = f.getFamily();
    byte[] qualifier = f.getQualifier();
    CryptoBox box = codec.valueBox(family, qualifier);
    String column = codec.describeColumn(family, qualifier);
    byte[] storedQualifier = codec.encodeQualifier(family, qualifier);
    CompareOperator op = f.getCompareOperator();
    if (box.capability(PlaintextStorage.class).isPresent()) {
      return Part.onServer(copy(f, storedQualifier, op, f.getComparator()));
    }
    boolean equality = op == CompareOperator.EQUAL || op == CompareOperator.NOT_EQUAL;
    boolean binary = f.getComparator() instanceof BinaryComparator;
    boolean ordered = box.capability(OrderOnCiphertext.class).isPresent();
    boolean deterministic = box.capability(EqualityOnCiphertext.class).isPresent();
    if (ordered && binary) {
      return Part.onServer(orderPreserving(f, storedQualifier,
          codec.rangeBounds(family, qualifier, f.getComparator().getValue())));
    }
    if (deterministic && equality && binary) {
      // After a rotation old rows keep old ciphertexts: match the value under every active key.
      List<Filter> perVersion = new ArrayList<>();
      for (byte[] operand : codec.equalityOperands(family, qualifier, f.getComparator().getValue())) {
        perVersion.add(copy(f, storedQualifier, op, new BinaryComparator(operand)));
      }
      return Part.onServer(perVersion.size() == 1 ? perVersion.get(0)
          : new FilterList(op == CompareOperator.EQUAL ? FilterList.Operator.MUST_PASS_ONE
              : FilterList.Operator.MUST_PASS_ALL, perVersion));
    }
    BoxKind kind = box.kind();
    if (box.capability(IndexedSearch.class).isPresent()) {
      Optional<ValueCondition> condition = FilterConditions.of(f);
      boolean indexed = condition.isPresent() && codec.searchIndexes(family, qualifier, condition.get()).isPresent();
      return refuseOrClient(f, column, indexed
          ? "on a " + kind + " column is answered from the search index only as the scan's whole filter, a child of"
              + " an AND FilterList, or one of an OR FilterList of such conditions; here it is nested elsewhere"
          : op + " with " + f.getComparator().getClass().getSimpleName() + " cannot run on " + kind
              + " ciphertext (its search index does not answer it)", clientSideAllowed);
    }
    String what =
        ordered
            ? "with " + f.getComparator().getClass().getSimpleName()
                + " cannot run on " + kind + " ciphertext (only BinaryComparator comparisons can)"
            : deterministic && equality
            ? "with " + f.getComparator().getClass().getSimpleName()
                + " cannot run on " + kind + " ciphertext (only BinaryComparator equality can)"
            : op + " cannot run on " + kind + " ciphertext"
                + (deterministic ? " (" + kind + " supports EQUAL and NOT_EQUAL)" : "");
    return refuseOrClient(f, column, what, clientSideAllowed);
  }

  /**
   * A comparison on an order-preserving column as comparisons against ciphertext bounds: {@code
   * lower} = E(v) and {@code upperExclusive} = E(successor of v), so that stored x < v iff E(x) <
   * lower and x <= v iff E(x) < upperExclusive, whatever companion bytes follow the blocks.
   */
  private static Filter orderPreserving(SingleColumnValueFilter f, byte[] storedQualifier, List<RangeBounds> bounds) {
    if (bounds.size() > 1) {
      return orderPreservingAcrossVersions(f, storedQualifier, bounds);
    }
    byte[] lo = bounds.get(0).lower();
    byte[] hi = bounds.get(0).upperExclusive();
    switch (f.getCompareOperator()) {
      case LESS:
        return copy(f, storedQualifier, CompareOperator.LESS, new BinaryComparator(lo));
      case LESS_OR_EQUAL:
        return copy(f, storedQualifier, CompareOperator.LESS, new BinaryComparator(hi));
      case GREATER:
        return copy(f, storedQualifier, CompareOperator.GREATER_OR_EQUAL, new BinaryComparator(hi));
      case GREATER_OR_EQUAL:
        return copy(f, storedQualifier, CompareOperator.GREATER_OR_EQUAL, new BinaryComparator(lo));
      case EQUAL:
        return between(f, storedQualifier, lo, hi);
      case NOT_EQUAL:
        return new FilterList(FilterList.Operator.MUST_PASS_ONE,
            copy(f, storedQualifier, CompareOperator.LESS, new BinaryComparator(lo)),
            copy(f, storedQualifier, CompareOperator.GREATER_OR_EQUAL, new BinaryComparator(hi)));
      default: // NO_OP
        return copy(f, storedQualifier, f.getCompareOperator(), new BinaryComparator(lo));
    }
  }

  /**
   * After a rotation: the union over key versions of the comparison within each version's own
   * ciphertext range [versionStart, versionEnd), since versions differ in their key-id prefix.
   */
  private static Filter orderPreservingAcrossVersions(
      SingleColumnValueFilter f, byte[] storedQualifier, List<RangeBounds> bounds) {
    List<Filter> versions = new ArrayList<>();
    for (RangeBounds b : bounds) {
      switch (f.getCompareOperator()) {
        case LESS:
          versions.add(between(f, storedQualifier, b.versionStart(), b.lower()));
          break;
        case LESS_OR_EQUAL:
          versions.add(between(f, storedQualifier, b.versionStart(), b.upperExclusive()));
          break;
        case GREATER:
          versions.add(between(f, storedQualifier, b.upperExclusive(), b.versionEnd()));
          break;
        case GREATER_OR_EQUAL:
          versions.add(between(f, storedQualifier, b.lower(), b.versionEnd()));
          break;
        case EQUAL:
          versions.add(between(f, storedQualifier, b.lower(), b.upperExclusive()));
          break;
        default: // NOT_EQUAL
          versions.add(between(f, storedQualifier, b.versionStart(), b.lower()));
          versions.add(between(f, storedQualifier, b.upperExclusive(), b.versionEnd()));
          break;
      }
    }
    return new FilterList(FilterList.Operator.MUST_PASS_ONE, versions);
  }

  /** from <= value < to. */
  private static Filter between(SingleColumnValueFilter f, byte[] storedQualifier, byte[] from, byte[] to) {
    return new FilterList(FilterList.Operator.MUST_PASS_ALL,
        copy(f, storedQualifier, CompareOperator.GREATER_OR_EQUAL, new BinaryComparator(from)),
        copy(f, storedQualifier, CompareOperator.LESS, new BinaryComparator(to)));
  }

  private static SingleColumnValueFilter copy(
      SingleColumnValueFilter f, byte[] qualifier, CompareOperator op,
      ByteArrayComparable comparator) {
    SingleColumnValueFilter out =
        f instanceof SingleColumnValueExcludeFilter
            ? new SingleColumnValueExcludeFilter(f.getFamily(), qualifier, op, comparator)
            : new SingleColumnValueFilter(f.getFamily(), qualifier, op, comparator);
    out.setFilterIfMissing(f.getFilterIfMissing());
    out.setLatestVersionOnly(f.getLatestVersionOnly());
    return out;
  }

  private Part refuseOrClient(Filter f, String column, String why, boolean clientSideAllowed)
      throws UnsupportedSecureOperationException {
    if (clientSideAllowed) {
      return Part.ON_CLIENT;
    }
    throw new UnsupportedSecureOperationException(
        codec.table(), column,
        f.getClass().getSimpleName() + " " + why
            + "; refused rather than downloading the table. To evaluate it on the client, opt in with"
            + " SecureScans.allowClientSideEvaluation(scan) or SecureTableOptions.clientSideEvaluation");
  }
}
