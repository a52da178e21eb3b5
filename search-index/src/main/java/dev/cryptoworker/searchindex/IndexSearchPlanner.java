package dev.cryptoworker.searchindex;

import dev.cryptoworker.cryptobox.IndexedSearch;
import dev.cryptoworker.cryptobox.ValueCondition;
import dev.cryptoworker.cryptobox.ValueIndex;
import dev.cryptoworker.region.SearchIndexCells;
import dev.cryptoworker.region.SearchRequest;
import dev.cryptoworker.searchindex.spi.FilterConditions;
import dev.cryptoworker.searchindex.spi.SearchIndex.IndexSearch;
import dev.cryptoworker.searchindex.spi.SearchableTable;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.hadoop.hbase.filter.Filter;
import org.apache.hadoop.hbase.filter.FilterList;
import org.apache.hadoop.hbase.filter.SingleColumnValueExcludeFilter;
import org.apache.hadoop.hbase.filter.SingleColumnValueFilter;

/**
 * Finds the part of a scan's filter the entry index answers, and turns it into a {@link
 * SearchRequest}: a condition on a column whose box has {@link IndexedSearch} and answers it
 * ({@link IndexedSearch#searchIndexes}; SSE answers {@code SingleColumnValueFilter EQUAL} with a
 * {@code BinaryComparator}), an OR of such conditions (their union), or such conditions inside an
 * AND {@code FilterList} (the index selects candidate rows; the region server applies the rest of
 * the AND to them). Tokens cover each index's entries, as many as its counter has handed out when
 * the search starts.
 */
final class IndexSearchPlanner {
  /** One searched condition and the indexes it covers. */
  private record Term(SearchClauses.Term check, List<ValueIndex> indexes) {}

  private final SearchableTable codec;
  private final SearchCounters counters;

  IndexSearchPlanner(SearchableTable codec, SearchCounters counters) {
    this.codec = codec;
    this.counters = counters;
  }

  /** The search in {@code filter}, if it has one the index can answer. */
  Optional<IndexSearch> plan(Filter filter) throws IOException {
    if (filter == null) {
      return Optional.empty();
    }
    List<List<Term>> clauses = new ArrayList<>();
    Filter rest = null;
    List<Term> whole = clause(filter);
    if (whole != null) {
      clauses.add(whole);
    } else if (filter instanceof FilterList && ((FilterList) filter).getOperator() == FilterList.Operator.MUST_PASS_ALL) {
      List<Filter> others = new ArrayList<>();
      for (Filter child : ((FilterList) filter).getFilters()) {
        List<Term> c = clause(child);
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
    return Optional.of(new IndexSearch(request(clauses), rest,
        new SearchClauses(clauses.stream().map(c -> c.stream().map(Term::check).toList()).toList())));
  }

  /** The terms of {@code f} if it is one condition the index answers or an OR of them, else null. */
  private List<Term> clause(Filter f) throws IOException {
    if (f instanceof SingleColumnValueFilter && !(f instanceof SingleColumnValueExcludeFilter)) {
      SingleColumnValueFilter s = (SingleColumnValueFilter) f;
      if (!codec.isSearchable(s.getFamily(), s.getQualifier())) {
        return null;
      }
      ValueCondition condition = FilterConditions.of(s).orElse(null);
      Optional<List<ValueIndex>> indexes = condition == null ? Optional.empty()
          : codec.searchIndexes(s.getFamily(), s.getQualifier(), condition);
      if (indexes.isEmpty()) {
        return null; // refused with the reason by the client (FilterTranslator)
      }
      if (!s.getFilterIfMissing() || !s.getLatestVersionOnly()) {
        throw codec.refusal(s.getFamily(), s.getQualifier(),
            "the column is searched through its index, which finds rows by their current value only: set"
                + " setFilterIfMissing(true) (rows without the column cannot be found through the index) and keep"
                + " setLatestVersionOnly(true)");
      }
      return List.of(new Term(new SearchClauses.Term(s.getFamily(), s.getQualifier(), condition,
          codec.indexedSearch(s.getFamily(), s.getQualifier()), codec.policy(s.getFamily(), s.getQualifier()).box().name()),
          indexes.get()));
    }
    if (f instanceof FilterList && ((FilterList) f).getOperator() == FilterList.Operator.MUST_PASS_ONE
        && !((FilterList) f).getFilters().isEmpty()) {
      List<Term> out = new ArrayList<>();
      for (Filter child : ((FilterList) f).getFilters()) {
        List<Term> c = clause(child);
        if (c == null) {
          return null;
        }
        out.addAll(c);
      }
      return out;
    }
    return null;
  }

  private SearchRequest request(List<List<Term>> clauses) throws IOException {
    List<ValueIndex> indexes = new ArrayList<>();
    for (List<Term> clause : clauses) {
      for (Term t : clause) {
        indexes.addAll(t.indexes());
      }
    }
    List<List<byte[]>> tokensOf = tokens(indexes);
    List<List<SearchRequest.Term>> out = new ArrayList<>();
    int at = 0;
    for (List<Term> clause : clauses) {
      List<SearchRequest.Term> terms = new ArrayList<>();
      for (Term t : clause) {
        List<byte[]> tokens = new ArrayList<>();
        for (ValueIndex index : t.indexes()) {
          tokens.addAll(tokensOf.get(at++));
        }
        byte[] family = t.check().family();
        terms.add(new SearchRequest.Term(family,
            SearchIndexCells.qualifier(codec.encodeQualifier(family, t.check().qualifier())), tokens));
      }
      out.add(terms);
    }
    return new SearchRequest(out);
  }

  private List<List<byte[]>> tokens(List<ValueIndex> indexes) throws IOException {
    try {
      return counters.searchTokens(indexes);
    } catch (IllegalStateException | IllegalArgumentException e) {
      throw new IOException("table " + codec.table() + ": a search counter in " + counters.counterTableName()
          + " is unreadable: " + e.getMessage(), e);
    }
  }
}
