package dev.cryptoworker.cli.plan;

/**
 * A sample query no box can answer on the servers, and why.
 *
 * @param query the query
 * @param reason why
 */
public record Unservable(SampleQuery query, String reason) {}
