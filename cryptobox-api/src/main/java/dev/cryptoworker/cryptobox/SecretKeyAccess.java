package dev.cryptoworker.cryptobox;

/**
 * The token that code must hold to copy raw key bytes into or out of a {@link SecretKeyBytes}
 * (after Tink's {@code SecretKeyAccess} and {@code InsecureSecretKeyAccess}).
 *
 * <p>It protects against accidents, not against malicious code: anyone may call {@link
 * #insecure()}, but every place that handles raw key bytes then names it, so a review can find
 * them all with {@code grep -rn "SecretKeyAccess.insecure()"}.
 */
public final class SecretKeyAccess {
  private static final SecretKeyAccess INSTANCE = new SecretKeyAccess();

  private SecretKeyAccess() {}

  /**
   * The access token, for box implementations and key derivation only; grep for it in review.
   * Application code never needs raw key bytes: it hands a {@code KeyProvider} to CryptoWorker.
   */
  public static SecretKeyAccess insecure() {
    return INSTANCE;
  }

  @Override
  public String toString() {
    return "SecretKeyAccess";
  }
}
