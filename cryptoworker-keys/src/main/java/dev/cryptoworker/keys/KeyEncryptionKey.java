package dev.cryptoworker.keys;

import com.google.crypto.tink.Aead;
import com.google.crypto.tink.subtle.AesGcmJce;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.io.InputStream;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Base64;
import java.util.Map;

/**
 * The 32-byte AES-256-GCM key that encrypts a keyset file, read as base64 from an environment
 * variable or a file. In production, prefer a KMS-held key; this form keeps the keyset file
 * useless on its own.
 */
public final class KeyEncryptionKey {
  /** The environment variable {@link #fromEnvironment()} reads. */
  public static final String DEFAULT_ENVIRONMENT_VARIABLE = "CRYPTOWORKER_KEK";

  private final Aead aead;

  private KeyEncryptionKey(byte[] key) throws GeneralSecurityException {
    this.aead = new AesGcmJce(key);
  }

  /** Reads the key from {@value #DEFAULT_ENVIRONMENT_VARIABLE}. */
  public static KeyEncryptionKey fromEnvironment() {
    return fromEnvironment(DEFAULT_ENVIRONMENT_VARIABLE);
  }

  /**
   * Reads a base64 32-byte key from the environment variable {@code name}.
   *
   * @throws IllegalStateException if the variable is unset or not a base64 32-byte key
   */
  public static KeyEncryptionKey fromEnvironment(String name) {
    return fromEnvironment(name, System.getenv());
  }

  /**
   * Reads a base64 32-byte key from the variable {@code name} of {@code environment} (a map like
   * {@link System#getenv()}; tests and tools pass their own).
   *
   * @throws IllegalStateException if the variable is unset or not a base64 32-byte key
   */
  public static KeyEncryptionKey fromEnvironment(String name, Map<String, String> environment) {
    String value = environment.get(name);
    if (value == null || value.isBlank()) {
      throw new IllegalStateException("environment variable " + name + " is not set");
    }
    return fromBase64(value, "environment variable " + name);
  }

  /** Reads a base64 32-byte key from a file (surrounding whitespace ignored). */
  public static KeyEncryptionKey fromFile(Path file) throws IOException {
    return fromBase64(Files.readString(file, StandardCharsets.US_ASCII), "file " + file);
  }

  /**
   * Reads the 32-byte AES secret key stored under {@code alias} in a PKCS#12 keystore.
   *
   * @param password the keystore's password
   * @param entryPassword the entry's password (for PKCS#12 usually the keystore's)
   * @throws IOException if the keystore cannot be read or its password is wrong
   * @throws IllegalStateException if the alias is missing or is not a 32-byte secret key
   */
  public static KeyEncryptionKey fromKeyStore(
      Path keyStore, char[] password, String alias, char[] entryPassword) throws IOException {
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

  /** Uses {@code key} (32 bytes) directly; the array is copied. */
  public static KeyEncryptionKey fromBytes(byte[] key) {
    return fromBytes(key, "key bytes");
  }

  /** A fresh random key, base64-encoded, for storing in a secret manager or file. */
  public static String generateBase64() {
    byte[] key = new byte[32];
    new SecureRandom().nextBytes(key);
    String encoded = Base64.getEncoder().encodeToString(key);
    Arrays.fill(key, (byte) 0);
    return encoded;
  }

  Aead aead() {
    return aead;
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

  private static KeyEncryptionKey fromBytes(byte[] key, String source) {
    if (key.length != 32) {
      throw new IllegalStateException(
          "key-encryption key in " + source + " must be 32 bytes, got " + key.length);
    }
    try {
      return new KeyEncryptionKey(key);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("cannot use key-encryption key from " + source, e);
    }
  }

  @Override
  public String toString() {
    return "KeyEncryptionKey[AES-256-GCM]";
  }
}
