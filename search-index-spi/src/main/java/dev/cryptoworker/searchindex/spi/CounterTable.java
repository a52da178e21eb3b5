package dev.cryptoworker.searchindex.spi;

import org.apache.hadoop.hbase.TableName;

/**
 * Where the client keeps counters ({@code cryptoworker_ids}): the table and family that entry
 * counters go in, and the region observer its regions need to answer counter takes (named in
 * messages).
 */
public record CounterTable(TableName table, byte[] family, String regionObserver) {}
