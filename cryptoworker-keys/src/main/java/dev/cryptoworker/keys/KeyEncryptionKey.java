package dev.cryptoworker.keys;

import com.google.crypto.tink.Aead;
import java.io.IOException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.util.Map;

/**
 * The key that encrypts a keyset file: an {@link Aead} and a description of where the key is, as
 * Tink's {@code KmsClient.getAead(uri)} gives one. Where the key is held outside the JVM (a PKCS#11
 * token, a key management server) the AEAD calls out to it and the key never enters this process;
 * the keyset it decrypts does.
 *
 * <p>One way to obtain one: {@link #fromUri(String)}, with a URI whose scheme picks a {@link
 * KekSource} ({@code env:NAME}, {@code file:PATH}, {@code pkcs12:PATH#alias}, {@code
 * pkcs11:CONFIG#label}, and {@code kms://http@host:port/kms#key} with module {@code
 * kek-hadoop-kms}). The other factories are that URI's older spellings and still work.
 *
 * <p>Any URI may end its query with {@code cache-ttl=SECONDS} and/or {@code cache-uses=N}: the
 * process then opens the key once and remembers each keyset it decrypts for that long and that
 * many opens ({@link #cached}; defaults 300 seconds and no limit on uses).
 */
public interface KeyEncryptionKey {
  /** The environment variable {@link #fromEnvironment()} reads. */
  String DEFAULT_ENVIRONMENT_VARIABLE = "CRYPTOWORKER_KEK";

  /** The AEAD that encrypts and decrypts keysets. */
  Aead aead();

  /** Where the key is (a URI, a file, a variable name), for messages; never key material. */
  String description();

  /** A key-encryption key that is {@code aead}; {@code description} says where its key is. */
  static KeyEncryptionKey of(Aead aead, String description) {
    return new AeadKeyEncryptionKey(aead, description);
  }

  /**
   * {@code kek}, remembering each keyset it decrypts for {@code ttl} and {@code maxUses} opens: within
   * them, opening the keyset again makes no call to the key's KMS or token. A revoked key, or a
   * changed ACL, takes effect for this process only when the entry expires.
   *
   * @throws IllegalArgumentException if {@code ttl} is not positive or {@code maxUses} below 1
   */
  static KeyEncryptionKey cached(KeyEncryptionKey kek, java.time.Duration ttl, long maxUses) {
    return of(new CachingAead(kek.aead(), ttl, maxUses, java.time.Clock.systemUTC()),
        kek.description() + ", keysets cached for " + ttl + " or " + maxUses + " opens");
  }

  /**
   * The key the URI names, found through the {@link KekSource} registered for its scheme; variables
   * it names are read from the process's environment.
   *
   * @throws IllegalArgumentException if the URI is malformed or its scheme has no source
   * @throws IOException if the key's store or server cannot be read or reached
   * @throws GeneralSecurityException if the store refuses the key (wrong password or PIN, denied)
   */
  static KeyEncryptionKey fromUri(String uri) throws IOException, GeneralSecurityException {
    return fromUri(uri, System.getenv());
  }

  /** As {@link #fromUri(String)}, reading variables from {@code environment}. */
  static KeyEncryptionKey fromUri(String uri, Map<String, String> environment)
      throws IOException, GeneralSecurityException {
    return KekSources.standard().open(uri, environment);
  }

  /** Reads the key from {@value #DEFAULT_ENVIRONMENT_VARIABLE}; as {@code env:CRYPTOWORKER_KEK}. */
  static KeyEncryptionKey fromEnvironment() {
    return fromEnvironment(DEFAULT_ENVIRONMENT_VARIABLE);
  }

  /**
   * Reads a base64 32-byte key from the environment variable {@code name}; as {@code env:NAME}.
   *
   * @throws IllegalStateException if the variable is unset or not a base64 32-byte key
   */
  static KeyEncryptionKey fromEnvironment(String name) {
    return fromEnvironment(name, System.getenv());
  }

  /**
   * Reads a base64 32-byte key from the variable {@code name} of {@code environment} (a map like
   * {@link System#getenv()}; tests and tools pass their own).
   *
   * @throws IllegalStateException if the variable is unset or not a base64 32-byte key
   */
  static KeyEncryptionKey fromEnvironment(String name, Map<String, String> environment) {
    return RawKeyEncryptionKeys.fromEnvironment(name, environment);
  }

  /** Reads a base64 32-byte key from a file (surrounding whitespace ignored); as {@code file:PATH}. */
  static KeyEncryptionKey fromFile(Path file) throws IOException {
    return RawKeyEncryptionKeys.fromFile(file);
  }

  /**
   * Reads the 32-byte AES secret key stored under {@code alias} in a PKCS#12 keystore; as {@code
   * pkcs12:PATH#alias}. The key's bytes enter this JVM.
   *
   * @param password the keystore's password
   * @param entryPassword the entry's password (for PKCS#12 usually the keystore's)
   * @throws IOException if the keystore cannot be read or its password is wrong
   * @throws IllegalStateException if the alias is missing or is not a 32-byte secret key
   */
  static KeyEncryptionKey fromKeyStore(Path keyStore, char[] password, String alias, char[] entryPassword)
      throws IOException {
    return RawKeyEncryptionKeys.fromKeyStore(keyStore, password, alias, entryPassword);
  }

  /** Uses {@code key} (32 bytes) directly; the array is copied. */
  static KeyEncryptionKey fromBytes(byte[] key) {
    return RawKeyEncryptionKeys.fromBytes(key, "key bytes");
  }

  /** A fresh random key, base64-encoded, for storing in a secret manager or file. */
  static String generateBase64() {
    return RawKeyEncryptionKeys.generateBase64();
  }
}
