package dev.cryptoworker.cli.plan;

import java.util.List;
import java.util.Objects;

/**
 * What one sample query asks of the columns, or why no box can serve it on the servers.
 *
 * @param query the query
 * @param demands what it asks of each column it reads (empty if unservable)
 * @param unservable why the servers cannot answer it whatever the boxes, or null
 */
public record QueryReading(SampleQuery query, List<Demand> demands, String unservable) {
  public QueryReading {
    Objects.requireNonNull(query, "query");
    demands = List.copyOf(demands);
  }

  static QueryReading unservable(SampleQuery query, String reason) {
    return new QueryReading(query, List.of(), reason);
  }
}
