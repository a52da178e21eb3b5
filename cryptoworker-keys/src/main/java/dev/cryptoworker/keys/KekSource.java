package dev.cryptoworker.keys;

import java.io.IOException;
import java.security.GeneralSecurityException;
import java.util.Map;

/**
 * Opens the key-encryption keys of one URI scheme: the service interface {@link
 * KeyEncryptionKey#fromUri} finds through {@link java.util.ServiceLoader}. A module that adds a
 * key store (a KMS, an HSM) implements it and lists it in {@code
 * META-INF/services/dev.cryptoworker.keys.KekSource}.
 */
public interface KekSource {

  /** The form of the URIs this source opens, for messages listing the schemes ({@code env:NAME}). */
  String form();

  /** The URI scheme this source opens: its {@link #form()} up to the colon, lower case. */
  default String scheme() {
    return form().substring(0, form().indexOf(':')).toLowerCase(java.util.Locale.ROOT);
  }

  /**
   * The key {@code uri} names.
   *
   * @param environment where passwords, PINs and keys named by variable are read
   * @throws IllegalArgumentException if the URI is malformed for this scheme
   * @throws IOException if the store or server cannot be read or reached
   * @throws GeneralSecurityException if it refuses the key
   */
  KeyEncryptionKey open(KekUri uri, Map<String, String> environment) throws IOException, GeneralSecurityException;
}
