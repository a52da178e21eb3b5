package dev.cryptoworker.coprocessor;

/**
 * The observer's earlier name, kept so that tables created by earlier versions (whose descriptors
 * name this class) keep opening. New tables register {@link RegionRequestObserver}.
 *
 * @deprecated use {@link RegionRequestObserver}
 */
@Deprecated
public final class AsheAggregationObserver extends RegionRequestObserver {}
