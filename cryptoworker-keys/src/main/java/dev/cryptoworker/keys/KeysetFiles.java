package dev.cryptoworker.keys;

import com.google.crypto.tink.KeyStatus;
import com.google.crypto.tink.KeysetHandle;
import com.google.crypto.tink.TinkJsonProtoKeysetFormat;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.security.GeneralSecurityException;
import java.util.ArrayList;
import java.util.List;

/**
 * Creates, reads and rotates encrypted keyset files: Tink JSON keysets of HKDF-PRF root keys,
 * encrypted under a {@link KeyEncryptionKey}. The file never holds a key in the clear.
 */
public final class KeysetFiles {
  private static final byte[] ASSOCIATED_DATA =
      "cryptoworker-keyset-v1".getBytes(StandardCharsets.UTF_8);

  private KeysetFiles() {}

  /**
   * Writes a new keyset with one fresh random root key to {@code file}.
   *
   * @throws java.nio.file.FileAlreadyExistsException if the file exists (keys are never
   *     overwritten by accident)
   */
  public static void generate(Path file, KeyEncryptionKey kek)
      throws IOException, GeneralSecurityException {
    KeysetHandle handle =
        KeysetHandle.newBuilder()
            .addEntry(
                KeysetHandle.generateEntryFromParameters(PrfSetKeyProvider.rootKeyParameters())
                    .withRandomId()
                    .makePrimary())
            .build();
    write(file, handle, kek, false);
  }

  /**
   * Adds a fresh root key to the keyset in {@code file} and makes it primary. Older keys stay
   * enabled, so data written under them still decrypts.
   */
  public static void rotate(Path file, KeyEncryptionKey kek)
      throws IOException, GeneralSecurityException {
    KeysetHandle old = read(file, kek);
    KeysetHandle.Builder builder = KeysetHandle.newBuilder(old);
    builder.addEntry(
        KeysetHandle.generateEntryFromParameters(PrfSetKeyProvider.rootKeyParameters())
            .withRandomId()
            .makePrimary());
    write(file, builder.build(), kek, true);
  }

  /**
   * The keys of the keyset in {@code file}, in keyset order (oldest first): ids, status, which is
   * primary and which is the oldest enabled one. No key material.
   */
  public static List<KeysetKey> describe(Path file, KeyEncryptionKey kek)
      throws IOException, GeneralSecurityException {
    KeysetHandle handle = read(file, kek);
    int oldest = oldestEnabledIndex(handle);
    List<KeysetKey> keys = new ArrayList<>();
    for (int i = 0; i < handle.size(); i++) {
      KeysetHandle.Entry entry = handle.getAt(i);
      keys.add(
          new KeysetKey(entry.getId(), entry.getStatus().toString(), entry.isPrimary(), i == oldest));
    }
    return List.copyOf(keys);
  }

  /**
   * Disables the key {@code keyId}: ciphertexts under it no longer decrypt until it is enabled
   * again. Refuses the primary key, and the oldest enabled key unless {@code force}: row keys and
   * protected qualifier names of every table are under that one, so disabling it makes every row
   * unaddressable.
   *
   * @throws IllegalArgumentException if the key is not in the keyset or may not be disabled
   */
  public static void disable(Path file, KeyEncryptionKey kek, int keyId, boolean force)
      throws IOException, GeneralSecurityException {
    KeysetHandle old = read(file, kek);
    int index = indexOf(old, keyId, file);
    if (old.getAt(index).isPrimary()) {
      throw new IllegalArgumentException(
          "key " + KeysetKey.hex(keyId) + " is the primary key; rotate first, then disable it");
    }
    if (index == oldestEnabledIndex(old) && !force) {
      throw new IllegalArgumentException(
          "key " + KeysetKey.hex(keyId) + " is the keyset's oldest key: row keys and protected"
              + " qualifier names of every table are encrypted under it, so disabling it makes"
              + " every row unreadable (use --force only if no table has data under it)");
    }
    setStatus(file, kek, old, index, KeyStatus.DISABLED);
  }

  /**
   * Enables the key {@code keyId} again.
   *
   * @throws IllegalArgumentException if the key is not in the keyset
   */
  public static void enable(Path file, KeyEncryptionKey kek, int keyId)
      throws IOException, GeneralSecurityException {
    KeysetHandle old = read(file, kek);
    setStatus(file, kek, old, indexOf(old, keyId, file), KeyStatus.ENABLED);
  }

  private static void setStatus(
      Path file, KeyEncryptionKey kek, KeysetHandle old, int index, KeyStatus status)
      throws IOException, GeneralSecurityException {
    KeysetHandle.Builder builder = KeysetHandle.newBuilder(old);
    builder.getAt(index).setStatus(status);
    write(file, builder.build(), kek, true);
  }

  private static int indexOf(KeysetHandle handle, int keyId, Path file) {
    for (int i = 0; i < handle.size(); i++) {
      if (handle.getAt(i).getId() == keyId) {
        return i;
      }
    }
    throw new IllegalArgumentException(
        "keyset file " + file + " has no key " + KeysetKey.hex(keyId));
  }

  private static int oldestEnabledIndex(KeysetHandle handle) {
    for (int i = 0; i < handle.size(); i++) {
      if (handle.getAt(i).getStatus() == KeyStatus.ENABLED) {
        return i;
      }
    }
    return -1;
  }

  static KeysetHandle read(Path file, KeyEncryptionKey kek)
      throws IOException, GeneralSecurityException {
    // Before parsing: keys of unregistered types would parse as opaque LegacyProtoKeys.
    PrfSetKeyProvider.registerKeyTypes();
    String json = Files.readString(file, StandardCharsets.UTF_8);
    try {
      return TinkJsonProtoKeysetFormat.parseEncryptedKeyset(json, kek.aead(), ASSOCIATED_DATA);
    } catch (GeneralSecurityException e) {
      throw new GeneralSecurityException(
          "cannot decrypt keyset file " + file
              + ": wrong key-encryption key, or the file is corrupt or tampered",
          e);
    }
  }

  private static void write(Path file, KeysetHandle handle, KeyEncryptionKey kek, boolean replace)
      throws IOException, GeneralSecurityException {
    String json =
        TinkJsonProtoKeysetFormat.serializeEncryptedKeyset(handle, kek.aead(), ASSOCIATED_DATA);
    if (!replace) {
      Files.writeString(file, json, StandardCharsets.UTF_8, StandardOpenOption.CREATE_NEW);
      return;
    }
    Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
    Files.writeString(tmp, json, StandardCharsets.UTF_8);
    Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
  }
}
