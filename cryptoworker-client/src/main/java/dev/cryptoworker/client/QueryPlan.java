package dev.cryptoworker.client;

import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * How a read or an aggregate over a secure table runs, part by part: what the region servers
 * answer on ciphertext, what the client does after decryption, and what each part lets the
 * servers learn. Made by {@link SecureTable#plan(org.apache.hadoop.hbase.client.Scan)} and {@link
 * SecureTable#plan(org.apache.hadoop.hbase.client.Scan, AggregateQuery)} without running anything;
 * they refuse, with {@link UnsupportedSecureOperationException}, what the operation itself would
 * refuse. Parts name filters by type only: operands may be secret.
 *
 * @param table the logical table
 * @param steps the parts in the order they run
 * @param clientSideReason why part of the selection (a filter, a row range, a limit) is evaluated
 *     by the client on decrypted rows rather than by the servers, or null if the servers select
 *     every row returned
 * @param findsRowsByIndex whether the region servers find the selected rows through an index
 *     instead of scanning: each region returns only rows that match, and {@link
 *     SecureTable#getScanner(org.apache.hadoop.hbase.client.Scan)} asks every region at once, so
 *     splitting such a read by region adds work without adding parallelism
 */
public record QueryPlan(String table, List<Step> steps, String clientSideReason, boolean findsRowsByIndex) {

  /** Where a step runs. */
  public enum Site {
    /** In the region servers, on ciphertext and without keys. */
    REGION_SERVERS("region servers"),
    /** In the client, after decryption: the servers learn nothing from it. */
    CLIENT("client");

    private final String label;

    Site(String label) {
      this.label = label;
    }
  }

  /**
   * One part of the plan.
   *
   * @param site where it runs
   * @param work what it does
   * @param leaks what the servers learn from it
   */
  public record Step(Site site, String work, String leaks) {
    public Step {
      Objects.requireNonNull(site, "site");
      Objects.requireNonNull(work, "work");
      Objects.requireNonNull(leaks, "leaks");
    }

    /** A step in the region servers. */
    public static Step onServers(String work, String leaks) {
      return new Step(Site.REGION_SERVERS, work, leaks);
    }

    /** A step in the client, after decryption. */
    public static Step onClient(String work) {
      return new Step(Site.CLIENT, work, "nothing (runs in the client)");
    }
  }

  public QueryPlan {
    Objects.requireNonNull(table, "table");
    steps = List.copyOf(steps);
  }

  /** A plan whose servers scan for the rows they select (no index). */
  public QueryPlan(String table, List<Step> steps, String clientSideReason) {
    this(table, steps, clientSideReason, false);
  }

  /** Whether the client evaluates part of the selection on decrypted rows (see {@code clientSideReason}). */
  public boolean evaluatesOnClient() {
    return clientSideReason != null;
  }

  /** The steps that run at {@code site}. */
  public List<Step> stepsAt(Site site) {
    return steps.stream().filter(s -> s.site() == site).toList();
  }

  /** One line per site: {@code region servers: ...; client: ...} (what {@link SecureTable#explain} returns). */
  public String describe() {
    return steps.stream().map(s -> s.site().label + ": " + s.work()).collect(Collectors.joining("; "))
        + (clientSideReason == null ? "" : " (client-side evaluation: " + clientSideReason + ")");
  }

  /** {@link #describe()} followed by what each server step leaks, one line each. */
  public String describeWithLeakage() {
    StringBuilder s = new StringBuilder(describe());
    for (Step step : stepsAt(Site.REGION_SERVERS)) {
      s.append("\n  ").append(step.work()).append(" leaks: ").append(step.leaks());
    }
    return s.toString();
  }
}
