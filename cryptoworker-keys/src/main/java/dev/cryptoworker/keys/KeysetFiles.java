package dev.cryptoworker.keys;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
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
import java.security.SecureRandom;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Creates, reads and rotates encrypted keyset files: Tink JSON keysets of HKDF-PRF root keys,
 * encrypted under a {@link KeyEncryptionKey}. The file never holds a key in the clear.
 *
 * <p>Format 2 wraps Tink's encrypted keyset with each key's creation time (Tink records none):
 * {@code {"format": "cryptoworker-keyset-2", "created": {"<key id hex>": "<ISO-8601>"}, "keyset":
 * "<Tink's encrypted keyset JSON>"}}, the creation times bound to the keyset as associated data, so
 * altering them makes the file undecryptable. Files of format 1 (Tink's JSON alone) still read; their
 * keys have no creation time, and the next change writes format 2.
 */
public final class KeysetFiles {
  private static final byte[] ASSOCIATED_DATA_V1 =
      "cryptoworker-keyset-v1".getBytes(StandardCharsets.UTF_8);
  private static final String FORMAT_2 = "cryptoworker-keyset-2";
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final SecureRandom RANDOM = new SecureRandom();

  /** A keyset and the creation times of its keys (absent for keys of format-1 files). */
  private record Stored(KeysetHandle handle, Map<Integer, Instant> created) {}

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
    write(file, new Stored(handle, Map.of(handle.getPrimary().getId(), now())), kek, false);
  }

  private static Instant now() {
    return Instant.now().truncatedTo(ChronoUnit.SECONDS);
  }

  /**
   * Adds a fresh root key to the keyset in {@code file} and makes it primary. Older keys stay
   * enabled, so data written under them still decrypts. The new key's random id differs from every
   * other key's in its last byte, which is all of the id that stored format 2 keeps.
   */
  public static void rotate(Path file, KeyEncryptionKey kek)
      throws IOException, GeneralSecurityException {
    Stored old = readStored(file, kek);
    KeysetHandle.Builder builder = KeysetHandle.newBuilder(old.handle());
    builder.addEntry(
        KeysetHandle.generateEntryFromParameters(PrfSetKeyProvider.rootKeyParameters())
            .withFixedId(idWithFreshLastByte(old.handle(), file))
            .makePrimary());
    KeysetHandle rotated = builder.build();
    Map<Integer, Instant> created = new HashMap<>(old.created());
    created.put(rotated.getPrimary().getId(), now());
    write(file, new Stored(rotated, created), kek, true);
  }

  private static int idWithFreshLastByte(KeysetHandle handle, Path file) throws GeneralSecurityException {
    boolean[] taken = new boolean[256];
    for (int i = 0; i < handle.size(); i++) {
      taken[handle.getAt(i).getId() & 0xff] = true;
    }
    if (handle.size() >= 256) {
      throw new GeneralSecurityException("keyset file " + file + " holds " + handle.size()
          + " keys; remove old ones (after migrating their data) before rotating again");
    }
    while (true) {
      int id = RANDOM.nextInt();
      if (id != 0 && !taken[id & 0xff]) {
        return id;
      }
    }
  }

  /**
   * Encrypts the keyset in {@code file} under {@code to} instead of {@code from}, keeping its keys,
   * their ids, status and creation times: stored data is untouched and reads as before. The file is
   * replaced atomically; afterwards {@code from} no longer opens it (copies of the old file, such as
   * backups, still open with {@code from}).
   *
   * @throws GeneralSecurityException if {@code from} does not open the file, or {@code to} cannot
   *     encrypt (a key server or token refusing)
   */
  public static void rewrap(Path file, KeyEncryptionKey from, KeyEncryptionKey to)
      throws IOException, GeneralSecurityException {
    write(file, readStored(file, from), to, true);
  }

  /**
   * The keys of the keyset in {@code file}, in keyset order (oldest first): ids, status, which is
   * primary and which is the oldest enabled one. No key material.
   */
  public static List<KeysetKey> describe(Path file, KeyEncryptionKey kek)
      throws IOException, GeneralSecurityException {
    Stored stored = readStored(file, kek);
    KeysetHandle handle = stored.handle();
    int oldest = oldestEnabledIndex(handle);
    List<KeysetKey> keys = new ArrayList<>();
    for (int i = 0; i < handle.size(); i++) {
      KeysetHandle.Entry entry = handle.getAt(i);
      keys.add(new KeysetKey(entry.getId(), entry.getStatus().toString(), entry.isPrimary(), i == oldest,
          Optional.ofNullable(stored.created().get(entry.getId()))));
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
    Stored stored = readStored(file, kek);
    KeysetHandle old = stored.handle();
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
    setStatus(file, kek, stored, index, KeyStatus.DISABLED);
  }

  /**
   * Enables the key {@code keyId} again.
   *
   * @throws IllegalArgumentException if the key is not in the keyset
   */
  public static void enable(Path file, KeyEncryptionKey kek, int keyId)
      throws IOException, GeneralSecurityException {
    Stored stored = readStored(file, kek);
    setStatus(file, kek, stored, indexOf(stored.handle(), keyId, file), KeyStatus.ENABLED);
  }

  private static void setStatus(
      Path file, KeyEncryptionKey kek, Stored old, int index, KeyStatus status)
      throws IOException, GeneralSecurityException {
    KeysetHandle.Builder builder = KeysetHandle.newBuilder(old.handle());
    builder.getAt(index).setStatus(status);
    write(file, new Stored(builder.build(), old.created()), kek, true);
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
    return readStored(file, kek).handle();
  }

  /** Reads a keyset file's {@code text}; {@code file} names it in errors. */
  static KeysetHandle read(String text, String file, KeyEncryptionKey kek) throws GeneralSecurityException {
    return readStored(text, file, kek).handle();
  }

  private static Stored readStored(Path file, KeyEncryptionKey kek)
      throws IOException, GeneralSecurityException {
    return readStored(Files.readString(file, StandardCharsets.UTF_8), file.toString(), kek);
  }

  private static Stored readStored(String text, String file, KeyEncryptionKey kek) throws GeneralSecurityException {
    // Before parsing: keys of unregistered types would parse as opaque LegacyProtoKeys.
    PrfSetKeyProvider.registerKeyTypes();
    JsonNode root;
    try {
      root = JSON.readTree(text);
    } catch (JsonProcessingException e) {
      throw new GeneralSecurityException("keyset file " + file + " is not JSON: the file is corrupt", e);
    }
    boolean format2 = root != null && FORMAT_2.equals(root.path("format").asText(null));
    Map<Integer, Instant> created = new TreeMap<>();
    String keyset = text;
    byte[] associatedData = ASSOCIATED_DATA_V1;
    if (format2) {
      try {
        root.path("created").properties().forEach(e ->
            created.put(Integer.parseUnsignedInt(e.getKey(), 16), Instant.parse(e.getValue().asText())));
      } catch (RuntimeException e) {
        throw new GeneralSecurityException("keyset file " + file + " has malformed creation times: corrupt or tampered",
            e);
      }
      keyset = root.path("keyset").asText();
      associatedData = associatedData(created);
    }
    try {
      return new Stored(TinkJsonProtoKeysetFormat.parseEncryptedKeyset(keyset, kek.aead(), associatedData), created);
    } catch (GeneralSecurityException e) {
      throw new GeneralSecurityException(
          "cannot decrypt keyset file " + file
              + ": wrong key-encryption key, or the file is corrupt or tampered",
          e);
    }
  }

  /** Binds the creation times to the keyset: one canonical line per key, by id. */
  private static byte[] associatedData(Map<Integer, Instant> created) {
    StringBuilder s = new StringBuilder(FORMAT_2);
    new TreeMap<>(created).forEach((id, time) -> s.append('\n').append(KeysetKey.hex(id)).append('=').append(time));
    return s.toString().getBytes(StandardCharsets.UTF_8);
  }

  private static void write(Path file, Stored stored, KeyEncryptionKey kek, boolean replace)
      throws IOException, GeneralSecurityException {
    String keyset = TinkJsonProtoKeysetFormat.serializeEncryptedKeyset(stored.handle(), kek.aead(),
        associatedData(stored.created()));
    ObjectNode root = JSON.createObjectNode().put("format", FORMAT_2);
    ObjectNode created = root.putObject("created");
    new TreeMap<>(stored.created()).forEach((id, time) -> created.put(KeysetKey.hex(id), time.toString()));
    root.put("keyset", keyset);
    String json = JSON.writerWithDefaultPrettyPrinter().writeValueAsString(root);
    if (!replace) {
      Files.writeString(file, json, StandardCharsets.UTF_8, StandardOpenOption.CREATE_NEW);
      return;
    }
    Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
    Files.writeString(tmp, json, StandardCharsets.UTF_8);
    Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
  }
}
