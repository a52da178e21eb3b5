package dev.cryptoworker.client;

/**
 * Options of the tables of a {@link SecureConnection}. Immutable; start from {@link #defaults()}.
 */
public final class SecureTableOptions {
  private static final SecureTableOptions DEFAULTS = new Builder().build();

  private final boolean clientSideEvaluation;

  private SecureTableOptions(Builder b) {
    this.clientSideEvaluation = b.clientSideEvaluation;
  }

  /** Client-side evaluation off. */
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

  /** Builder of {@link SecureTableOptions}. */
  public static final class Builder {
    private boolean clientSideEvaluation;

    private Builder() {}

    /** See {@link SecureTableOptions#clientSideEvaluation()}. */
    public Builder clientSideEvaluation(boolean enabled) {
      this.clientSideEvaluation = enabled;
      return this;
    }

    public SecureTableOptions build() {
      return new SecureTableOptions(this);
    }
  }
}
