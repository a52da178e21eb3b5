package dev.cryptoworker.keys;

import com.google.crypto.tink.KeysetHandle;
import com.google.crypto.tink.TinkJsonProtoKeysetFormat;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.security.GeneralSecurityException;

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

  static KeysetHandle read(Path file, KeyEncryptionKey kek)
      throws IOException, GeneralSecurityException {
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
