package dev.cryptoworker.client;

import dev.cryptoworker.cryptobox.BoxProvider;
import dev.cryptoworker.cryptobox.BoxProviders;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.hadoop.hbase.TableName;

/**
 * Options of the tables of a {@link SecureConnection}. Immutable; start from {@link #defaults()}.
 */
public final class SecureTableOptions {
  private static final SecureTableOptions DEFAULTS = new Builder().build();

  private final boolean clientSideEvaluation;
  private final Map<String, Integer> boxOptions;
  private final boolean unprotectedTables;
  private final boolean skipUndecodableRows;
  private final Duration clusterTimeout;
  private final boolean backgroundMerges;
  private final Set<String> legacyKeyChecks;

  private SecureTableOptions(Builder b) {
    this.legacyKeyChecks = Set.copyOf(b.legacyKeyChecks);
    this.backgroundMerges = b.backgroundMerges;
    this.clusterTimeout = b.clusterTimeout;
    this.skipUndecodableRows = b.skipUndecodableRows;
    this.clientSideEvaluation = b.clientSideEvaluation;
    this.boxOptions = Map.copyOf(b.boxOptions);
    this.unprotectedTables = b.unprotectedTables;
  }

  /** Client-side evaluation off, tables without a schema refused. */
  public static SecureTableOptions defaults() {
    return DEFAULTS;
  }

  public static Builder builder() {
    return new Builder();
  }

  /**
   * Whether filters and row ranges the boxes cannot evaluate on ciphertext are evaluated on the
   * client (fetch, decrypt, filter) instead of being refused. Off by default: it can download a
   * whole table. A single scan can opt in with {@link SecureScans#allowClientSideEvaluation}.
   */
  public boolean clientSideEvaluation() {
    return clientSideEvaluation;
  }

  /**
   * The box options this connection sets, by name; boxes use their provider's default for the
   * others ({@link BoxProvider#options()}). With this version's modules: {@code ope.memoEntries},
   * how many distinct values per OPE column (and key version) the client remembers the encryption
   * and decryption of (16,384 by default, 0 disables; the memo holds plaintexts in the client's
   * memory only).
   */
  public Map<String, Integer> boxOptions() {
    return boxOptions;
  }

  /**
   * Whether {@link SecureConnection#getTable} hands out the plain HBase table for a table no schema
   * names. Off by default: a typo in a schema's table name must not silently write plaintext.
   */
  public boolean unprotectedTables() {
    return unprotectedTables;
  }

  /**
   * Whether every scan skips and counts stored rows that do not decode instead of throwing (see
   * {@link SecureScans#skipUndecodableRows}). Off by default: an undecodable row is an error.
   */
  public boolean skipUndecodableRows() {
    return skipUndecodableRows;
  }

  /**
   * How long a SHARED table waits for each cluster's answer before counting the cluster as
   * unavailable for that operation (30 s by default). Give the clusters' HBase clients retry and
   * timeout settings below it, or their calls keep running in the background after it.
   */
  public Duration clusterTimeout() {
    return clusterTimeout;
  }

  /**
   * Whether the connection merges the epochs of the APPEND-mode PACKED tables it opens into packs in
   * the background (on by default): one daemon thread per connection, a round per table every
   * half of its epoch or lease length, whichever is shorter. Off, run {@code
   * PackedTables.of(secure).mergeEpochs(table)} (module layout-packed) yourself, from a dedicated
   * process say: entries not merged stay readable but make reads slower.
   */
  public boolean backgroundMerges() {
    return backgroundMerges;
  }

  /**
   * The tables opened although their descriptors carry no key check, or one of version 1 that does
   * not bind the stored format: tables created by versions of CryptoWorker before key checks bound
   * the format, or adopted from plain HBase. Every other such table is refused, because a server
   * that removes both descriptor attributes, or replays an old check, would make a newer table open
   * in stored format 1 (gets miss, puts write second copies of DET-keyed rows, searches find
   * nothing). {@code cryptoworker migrate --prepare-only} gives such a table a current check; then
   * take it off this list. Empty by default.
   */
  public Set<String> legacyKeyChecks() {
    return legacyKeyChecks;
  }

  /** Builder of {@link SecureTableOptions}. */
  public static final class Builder {
    private boolean skipUndecodableRows;
    private boolean backgroundMerges = true;
    private Duration clusterTimeout = Duration.ofSeconds(30);
    private boolean clientSideEvaluation;
    private final Map<String, Integer> boxOptions = new LinkedHashMap<>();
    private boolean unprotectedTables;
    private final Set<String> legacyKeyChecks = new TreeSet<>();

    private Builder() {}

    /** Adds {@code tables} (names as HBase writes them: {@code default:t} is {@code t}) to {@link SecureTableOptions#legacyKeyChecks()}. */
    public Builder legacyKeyChecks(String... tables) {
      for (String t : tables) {
        legacyKeyChecks.add(TableName.valueOf(t).getNameAsString());
      }
      return this;
    }

    /** See {@link SecureTableOptions#backgroundMerges()}. */
    public Builder backgroundMerges(boolean enabled) {
      this.backgroundMerges = enabled;
      return this;
    }

    /** See {@link SecureTableOptions#clusterTimeout()}. */
    public Builder clusterTimeout(Duration timeout) {
      if (timeout.isNegative() || timeout.isZero()) {
        throw new IllegalArgumentException("clusterTimeout must be positive, got " + timeout);
      }
      this.clusterTimeout = timeout;
      return this;
    }

    /** See {@link SecureTableOptions#skipUndecodableRows()}. */
    public Builder skipUndecodableRows(boolean skip) {
      this.skipUndecodableRows = skip;
      return this;
    }

    /** See {@link SecureTableOptions#unprotectedTables()}. */
    public Builder unprotectedTables(boolean allowed) {
      this.unprotectedTables = allowed;
      return this;
    }

    /** See {@link SecureTableOptions#clientSideEvaluation()}. */
    public Builder clientSideEvaluation(boolean enabled) {
      this.clientSideEvaluation = enabled;
      return this;
    }

    /**
     * Sets box option {@code name} (see {@link SecureTableOptions#boxOptions()}).
     *
     * @throws IllegalArgumentException if no installed box declares {@code name}, or {@code value} is negative
     */
    public Builder boxOption(String name, int value) {
      TreeSet<String> known = new TreeSet<>();
      for (BoxProvider p : BoxProviders.installed()) {
        known.addAll(p.options().keySet());
      }
      if (!known.contains(name)) {
        throw new IllegalArgumentException("unknown box option '" + name + "' (the installed boxes take: "
            + (known.isEmpty() ? "none" : String.join(", ", known)) + ")");
      }
      if (value < 0) {
        throw new IllegalArgumentException("box option " + name + " must be >= 0, got " + value);
      }
      boxOptions.put(name, value);
      return this;
    }

    public SecureTableOptions build() {
      return new SecureTableOptions(this);
    }
  }
}
