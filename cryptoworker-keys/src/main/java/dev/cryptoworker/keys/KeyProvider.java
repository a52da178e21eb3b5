package dev.cryptoworker.keys;

import dev.cryptoworker.cryptobox.KeyRing;
import java.io.IOException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;

/**
 * Hands each protected column its keys. Keys stay on trusted clients; nothing from here is ever
 * sent to HBase.
 *
 * <p>Two sources:
 *
 * <ul>
 *   <li>{@link #fromMasterKey(byte[])}: one 32-byte master key (from a CSPRNG or a KMS); every
 *       column key is derived from it with HKDF-SHA256.
 *   <li>{@link #fromKeysetFile(Path, KeyEncryptionKey)}: a Tink JSON keyset of HKDF-PRF root keys,
 *       encrypted under a key-encryption key; its primary key makes new ciphertexts, every enabled
 *       key still reads (rotation). Create one with {@link KeysetFiles#generate}.
 * </ul>
 */
public interface KeyProvider {

  /**
   * The keys for {@code scope}, each {@code keyLengthBytes} long.
   *
   * @throws GeneralSecurityException if the keys cannot be derived
   */
  KeyRing keyRing(KeyScope scope, int keyLengthBytes) throws GeneralSecurityException;

  /**
   * A provider deriving every column key from one 32-byte master key with HKDF-SHA256.
   *
   * @throws IllegalArgumentException if the key is not 32 bytes
   */
  static KeyProvider fromMasterKey(byte[] key32) {
    return PrfSetKeyProvider.fromMasterKey(key32);
  }

  /**
   * A provider reading an encrypted Tink keyset file written by {@link KeysetFiles}.
   *
   * @throws GeneralSecurityException if {@code kek} does not decrypt the file (wrong key or
   *     tampered file) or the keyset holds no usable HKDF-PRF key
   */
  static KeyProvider fromKeysetFile(Path keysetFile, KeyEncryptionKey kek)
      throws IOException, GeneralSecurityException {
    return PrfSetKeyProvider.fromKeyset(KeysetFiles.read(keysetFile, kek));
  }

  /**
   * A provider reading an encrypted keyset file under the key-encryption key {@code kekUri} names
   * ({@link KeyEncryptionKey#fromUri}): the one way every entry point (builder, CLI, MapReduce,
   * YCSB, demo) obtains keys.
   *
   * @throws IllegalArgumentException if the URI is malformed or its scheme has no source
   * @throws GeneralSecurityException as {@link #fromKeysetFile(Path, KeyEncryptionKey)}, or if the
   *     key's store refuses it
   */
  static KeyProvider fromKeysetFile(Path keysetFile, String kekUri) throws IOException, GeneralSecurityException {
    return fromKeysetFile(keysetFile, KeyEncryptionKey.fromUri(kekUri));
  }

  /**
   * A provider reading the contents of an encrypted keyset file, for processes that receive the
   * file's text rather than a path (MapReduce tasks get it in the job's credentials).
   *
   * @param source names the file in errors
   * @throws GeneralSecurityException as {@link #fromKeysetFile}
   */
  static KeyProvider fromKeysetFileContents(String contents, String source, KeyEncryptionKey kek)
      throws GeneralSecurityException {
    return PrfSetKeyProvider.fromKeyset(KeysetFiles.read(contents, source, kek));
  }
}
