package dev.cryptoworker.keys;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.Key;
import java.security.KeyStore;
import java.security.Provider;
import java.security.Security;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import javax.crypto.SecretKey;

/**
 * {@code pkcs11:CONFIG[?pin-env=NAME]#label}: an AES key on a PKCS#11 token (an HSM, or SoftHSM2),
 * reached through the JDK's SunPKCS11 provider configured by the file {@code CONFIG} (its {@code
 * library} and {@code slot} or {@code slotListIndex}), logged in with the user PIN in the
 * environment variable {@code NAME} (default {@value #DEFAULT_PIN_VARIABLE}). Keysets are encrypted
 * and decrypted with AES-GCM on the token; the key never enters this JVM. (This scheme is
 * CryptoWorker's own, not RFC 7512's {@code pkcs11:} URI.)
 */
public final class Pkcs11KekSource implements KekSource {
  /** The variable holding the token's user PIN unless the URI names another. */
  public static final String DEFAULT_PIN_VARIABLE = "CRYPTOWORKER_PKCS11_PIN";

  /** One provider per configuration file: each loads and initializes the token's library. */
  private static final Map<Path, Provider> PROVIDERS = new ConcurrentHashMap<>();

  @Override
  public String form() {
    return "pkcs11:CONFIG[?pin-env=NAME]#label";
  }

  @Override
  public KeyEncryptionKey open(KekUri uri, Map<String, String> environment) throws IOException, GeneralSecurityException {
    uri.checkParameters("pin-env");
    String label = uri.requiredFragment("key's label");
    char[] pin = Secrets.variable(environment, uri.parameter("pin-env", DEFAULT_PIN_VARIABLE), "the token's user PIN",
        uri);
    try {
      Provider provider = provider(Path.of(uri.body()));
      KeyStore token = KeyStore.getInstance("PKCS11", provider);
      token.load(null, pin);
      Key key = token.getKey(label, null);
      if (key == null) {
        throw new GeneralSecurityException("token of " + uri.body() + " has no key labelled " + label);
      }
      if (!(key instanceof SecretKey secret) || !"AES".equalsIgnoreCase(key.getAlgorithm())) {
        throw new GeneralSecurityException("key labelled " + label + " on the token of " + uri.body()
            + " is not an AES secret key (" + key.getAlgorithm() + ")");
      }
      return KeyEncryptionKey.of(new Pkcs11Aead(provider, secret), uri.text() + " (AES-GCM on the token)");
    } finally {
      Arrays.fill(pin, '\0');
    }
  }

  /** The SunPKCS11 provider configured by {@code config}, created once per file. */
  static Provider provider(Path config) throws IOException {
    Path key = config.toAbsolutePath().normalize();
    if (!Files.isReadable(key)) {
      throw new IOException("PKCS#11 configuration " + config + " cannot be read");
    }
    try {
      return PROVIDERS.computeIfAbsent(key, p -> Security.getProvider("SunPKCS11").configure(p.toString()));
    } catch (java.security.ProviderException e) {
      throw new IOException("cannot load the PKCS#11 token of " + config + ": " + e.getMessage(), e);
    }
  }
}
