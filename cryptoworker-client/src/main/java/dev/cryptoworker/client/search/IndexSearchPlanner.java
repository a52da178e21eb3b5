package dev.cryptoworker.client.search;

import dev.cryptoworker.client.UnsupportedSecureOperationException;
import dev.cryptoworker.client.cell.FilterTranslator;
import dev.cryptoworker.client.codec.HBaseIdentifierSource;
import dev.cryptoworker.client.codec.TableCodec;
import dev.cryptoworker.cryptobox.ValueIndex;
import dev.cryptoworker.cryptobox.search.SubtreeToken;
import dev.cryptoworker.region.SearchIndexCells;
import dev.cryptoworker.region.SearchRequest;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.hadoop.hbase.CompareOperator;
import org.apache.hadoop.hbase.filter.BinaryComparator;
import org.apache.hadoop.hbase.filter.Filter;
import org.apache.hadoop.hbase.filter.FilterList;
import org.apache.hadoop.hbase.filter.SingleColumnValueExcludeFilter;
import org.apache.hadoop.hbase.filter.SingleColumnValueFilter;

/**
 * Finds the part of a scan's filter the search index answers, and turns it into a {@link
 * SearchRequest}: an equality ({@code SingleColumnValueFilter EQUAL} with a {@code
 * BinaryComparator}) on an SSE column, an OR of such equalities (their union), or such conditions
 * inside an AND {@code FilterList} (the index selects candidate rows; the region server applies the
 * rest of the AND to them). Tokens cover each value's entries under every active key, as many as
 * its counter has handed out when the search starts.
 */
public final class IndexSearchPlanner {
  /** A search: the request, the rest of the filter (null if none), and the check of the rows it returns. */
  public record IndexSearch(SearchRequest request, Filter rest, SearchCheck check) {}

  private final TableCodec codec;

  public IndexSearchPlanner(TableCodec codec) {
    this.codec = codec;
  }

  /** The search in {@code filter}, if it has one the index can answer. */
  public Optional<IndexSearch> plan(Filter filter) throws IOException {
    if (filter == null) {
      return Optional.empty();
    }
    List<List<SearchCheck.Equality>> clauses = new ArrayList<>();
    Filter rest = null;
    List<SearchCheck.Equality> whole = clause(filter);
    if (whole != null) {
      clauses.add(whole);
    } else if (filter instanceof FilterList && ((FilterList) filter).getOperator() == FilterList.Operator.MUST_PASS_ALL) {
      List<Filter> others = new ArrayList<>();
      for (Filter child : ((FilterList) filter).getFilters()) {
        List<SearchCheck.Equality> c = clause(child);
        if (c != null) {
          clauses.add(c);
        } else {
          others.add(child);
        }
      }
      rest = others.isEmpty() ? null
          : others.size() == 1 ? others.get(0) : new FilterList(FilterList.Operator.MUST_PASS_ALL, others);
    }
    if (clauses.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(new IndexSearch(request(clauses), rest, new SearchCheck(clauses)));
  }

  /** The equalities of {@code f} if it is one searchable equality or an OR of them, else null. */
  private List<SearchCheck.Equality> clause(Filter f) throws IOException {
    if (f instanceof SingleColumnValueFilter && !(f instanceof SingleColumnValueExcludeFilter)) {
      SingleColumnValueFilter s = (SingleColumnValueFilter) f;
      if (!codec.isSearchable(s.getFamily(), s.getQualifier())) {
        return null;
      }
      if (s.getCompareOperator() != CompareOperator.EQUAL || !(s.getComparator() instanceof BinaryComparator)) {
        return null; // refused with the reason by the FilterTranslator
      }
      if (!s.getFilterIfMissing() || !s.getLatestVersionOnly()) {
        throw new UnsupportedSecureOperationException(codec.table(), codec.describeColumn(s.getFamily(), s.getQualifier()),
            "an SSE column is searched through its index, which finds rows by their current value only: set"
                + " setFilterIfMissing(true) (rows without the column cannot be found through the index) and keep"
                + " setLatestVersionOnly(true)");
      }
      return List.of(new SearchCheck.Equality(s.getFamily(), s.getQualifier(), s.getComparator().getValue()));
    }
    if (f instanceof FilterList && ((FilterList) f).getOperator() == FilterList.Operator.MUST_PASS_ONE
        && !((FilterList) f).getFilters().isEmpty()) {
      List<SearchCheck.Equality> out = new ArrayList<>();
      for (Filter child : ((FilterList) f).getFilters()) {
        List<SearchCheck.Equality> c = clause(child);
        if (c == null) {
          return null;
        }
        out.addAll(c);
      }
      return out;
    }
    return null;
  }

  private SearchRequest request(List<List<SearchCheck.Equality>> clauses) throws IOException {
    List<ValueIndex> indexes = new ArrayList<>();
    List<List<List<ValueIndex>>> perTerm = new ArrayList<>();
    for (List<SearchCheck.Equality> clause : clauses) {
      List<List<ValueIndex>> terms = new ArrayList<>();
      for (SearchCheck.Equality e : clause) {
        List<ValueIndex> versions = codec.valueIndexes(e.family(), e.qualifier(), e.value());
        indexes.addAll(versions);
        terms.add(versions);
      }
      perTerm.add(terms);
    }
    List<Long> counts = counts(indexes);
    List<List<SearchRequest.Term>> out = new ArrayList<>();
    int at = 0;
    for (int i = 0; i < clauses.size(); i++) {
      List<SearchRequest.Term> terms = new ArrayList<>();
      for (int j = 0; j < clauses.get(i).size(); j++) {
        SearchCheck.Equality e = clauses.get(i).get(j);
        List<byte[]> tokens = new ArrayList<>();
        for (ValueIndex version : perTerm.get(i).get(j)) {
          for (SubtreeToken t : version.searchTokens(counts.get(at++))) {
            tokens.add(t.toBytes());
          }
        }
        terms.add(new SearchRequest.Term(e.family(), SearchIndexCells.qualifier(codec.encodeQualifier(e.family(), e.qualifier())),
            tokens));
      }
      out.add(terms);
    }
    return new SearchRequest(out);
  }

  private List<Long> counts(List<ValueIndex> indexes) throws IOException {
    try {
      return codec.searchCounters().counts(indexes);
    } catch (IllegalStateException | IllegalArgumentException e) {
      throw new IOException("table " + codec.table() + ": a search counter in " + HBaseIdentifierSource.TABLE
          + " is unreadable: " + e.getMessage(), e);
    }
  }
}
