package dev.cryptoworker.keys;

import com.google.crypto.tink.subtle.AesGcmJce;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Base64;
import java.util.Map;

/**
 * Key-encryption keys whose 32 AES-256-GCM key bytes are read into this JVM: from an environment
 * variable, a file or a PKCS#12 keystore. The keyset file stays useless on its own, but whoever
 * reads this process's memory or environment has the key.
 */
final class RawKeyEncryptionKeys {
  private RawKeyEncryptionKeys() {}

  static KeyEncryptionKey fromEnvironment(String name, Map<String, String> environment) {
    String value = environment.get(name);
    if (value == null || value.isBlank()) {
      throw new IllegalStateException("environment variable " + name + " is not set");
    }
    return fromBase64(value, "environment variable " + name);
  }

  static KeyEncryptionKey fromFile(Path file) throws IOException {
    return fromBase64(Files.readString(file, StandardCharsets.US_ASCII), "file " + file);
  }

  static KeyEncryptionKey fromKeyStore(Path keyStore, char[] password, String alias, char[] entryPassword)
      throws IOException {
    String source = "keystore " + keyStore + " alias " + alias;
    KeyStore.Entry entry;
    try (InputStream in = Files.newInputStream(keyStore)) {
      KeyStore store = KeyStore.getInstance("PKCS12");
      store.load(in, password);
      if (!store.containsAlias(alias)) {
        throw new IllegalStateException("keystore " + keyStore + " has no entry " + alias);
      }
      entry = store.getEntry(alias, new KeyStore.PasswordProtection(entryPassword));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("cannot read " + source + ": " + e.getMessage(), e);
    }
    if (!(entry instanceof KeyStore.SecretKeyEntry secret)) {
      throw new IllegalStateException(source + " is not a secret key entry");
    }
    byte[] encoded = secret.getSecretKey().getEncoded();
    if (encoded == null) {
      throw new IllegalStateException(source + " cannot be exported as raw key bytes");
    }
    return fromTemporary(encoded, source);
  }

  static String generateBase64() {
    byte[] key = new byte[32];
    new SecureRandom().nextBytes(key);
    String encoded = Base64.getEncoder().encodeToString(key);
    Arrays.fill(key, (byte) 0);
    return encoded;
  }

  private static KeyEncryptionKey fromBase64(String value, String source) {
    byte[] key;
    try {
      key = Base64.getDecoder().decode(value.strip());
    } catch (IllegalArgumentException e) {
      throw new IllegalStateException("key-encryption key in " + source + " is not base64");
    }
    return fromTemporary(key, source);
  }

  /**
   * Builds the key from {@code key}, a temporary this class owns (decoded base64), and overwrites
   * it with zeros whether that succeeds or not: the AEAD keeps its own copy.
   */
  static KeyEncryptionKey fromTemporary(byte[] key, String source) {
    try {
      return fromBytes(key, source);
    } finally {
      Arrays.fill(key, (byte) 0);
    }
  }

  /** Uses {@code key} (32 bytes; copied by the AEAD); {@code source} names it in messages. */
  static KeyEncryptionKey fromBytes(byte[] key, String source) {
    if (key.length != 32) {
      throw new IllegalStateException(
          "key-encryption key in " + source + " must be 32 bytes, got " + key.length);
    }
    try {
      return KeyEncryptionKey.of(new AesGcmJce(key), source + " (AES-256-GCM)");
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("cannot use key-encryption key from " + source, e);
    }
  }
}
