package dev.cryptoworker.keys;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.crypto.tink.InsecureSecretKeyAccess;
import com.google.crypto.tink.KeysetHandle;
import com.google.crypto.tink.TinkJsonProtoKeysetFormat;
import com.google.crypto.tink.TinkProtoKeysetFormat;
import com.google.crypto.tink.prf.HkdfPrfKey;
import dev.cryptoworker.cryptobox.BoxKind;
import dev.cryptoworker.cryptobox.KeyRing;
import dev.cryptoworker.cryptobox.SecretKeyAccess;
import dev.cryptoworker.cryptobox.VersionedKey;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.logging.Formatter;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.logging.SimpleFormatter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;

class KeyProviderTest {
  private static byte[] master(int fill) {
    byte[] k = new byte[32];
    Arrays.fill(k, (byte) fill);
    return k;
  }

  private static final KeyScope NAME = KeyScope.column("patients", "identification", "name", BoxKind.STD);
  private static final SecretKeyAccess ACCESS = SecretKeyAccess.insecure();

  @Test
  void masterKeyDerivationIsStableAndScoped() throws Exception {
    KeyProvider a = KeyProvider.fromMasterKey(master(1));
    KeyProvider a2 = KeyProvider.fromMasterKey(master(1));
    KeyRing ring = a.keyRing(NAME, 32);
    assertEquals(32, ring.primary().key().length());
    assertTrue(ring.primary().key().equalsKey(a2.keyRing(NAME, 32).primary().key()));
    assertEquals(ring.primary().keyId(), a2.keyRing(NAME, 32).primary().keyId());

    // Every coordinate of the scope changes the key.
    for (KeyScope other :
        new KeyScope[] {
          KeyScope.column("patients2", "identification", "name", BoxKind.STD),
          KeyScope.column("patients", "contacts", "name", BoxKind.STD),
          KeyScope.column("patients", "identification", "surname", BoxKind.STD),
          KeyScope.column("patients", "identification", "name", BoxKind.DET),
          KeyScope.rowKey("patients", BoxKind.STD),
          KeyScope.qualifiers("patients", "identification", BoxKind.DET)
        }) {
      assertFalse(ring.primary().key().equalsKey(a.keyRing(other, 32).primary().key()), other.toString());
    }
    // Different lengths are different keys, not prefixes of each other.
    byte[] k32 = ring.primary().key().copyBytes(ACCESS);
    byte[] k64 = a.keyRing(NAME, 64).primary().key().copyBytes(ACCESS);
    assertFalse(Arrays.equals(k32, Arrays.copyOf(k64, 32)));
  }

  @Test
  void scopesThatPrintAlikeGetDifferentKeys() throws Exception {
    KeyProvider keys = KeyProvider.fromMasterKey(master(4));
    KeyScope a = KeyScope.column("t", "f, column=a", "b", BoxKind.STD);
    KeyScope b = KeyScope.column("t", "f", "a, column=b", BoxKind.STD);
    assertEquals(a.toString(), b.toString()); // what the ring cache was once keyed by
    KeyRing first = keys.keyRing(a, 32);
    assertFalse(first.primary().key().equalsKey(keys.keyRing(b, 32).primary().key()));
    assertFalse(first.primary().key().equalsKey(keys.keyRing(a, 16).primary().key()));
  }

  @Test
  void differentMasterKeysGiveDifferentKeysAndIds() throws Exception {
    VersionedKey k1 = KeyProvider.fromMasterKey(master(1)).keyRing(NAME, 32).primary();
    VersionedKey k2 = KeyProvider.fromMasterKey(master(2)).keyRing(NAME, 32).primary();
    assertFalse(k1.key().equalsKey(k2.key()));
    assertNotEquals(k1.keyId(), k2.keyId());
  }

  @Test
  void masterKeyMustBe32Bytes() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> KeyProvider.fromMasterKey(new byte[16]));
    assertTrue(e.getMessage().contains("32 bytes"));
  }

  /** One piece of text the module produced, and where it came from. */
  private record Printed(String where, String text) {}

  /** Length of the pieces of key material looked for besides the whole: a printed prefix leaks too. */
  private static final int PIECE = 8;

  /**
   * Every form in which {@code key}'s bytes could turn up in text, each with a description for the
   * failure message: hex (lower and upper case), Base64 (standard and URL-safe, with and without
   * padding), the bytes read as ISO-8859-1 and as UTF-8, and Arrays.toString; the whole key and,
   * if {@code pieces}, every piece of {@value #PIECE} bytes in each form but UTF-8 (whose
   * replacement characters would match any binary junk). Base64 pieces are taken from the
   * encodings of the key shifted by 0, 1 and 2 bytes, whole 4-character groups only, so a piece
   * printed from any offset is found. Serialized keys are looked for whole only: their pieces
   * include public parts (the HKDF salt, type URLs) that may print.
   */
  private static Map<String, String> printedForms(String name, byte[] key, boolean pieces) {
    Map<String, String> forms = new LinkedHashMap<>();
    forms.put(name + " as lower-case hex", HexFormat.of().formatHex(key));
    forms.put(name + " as upper-case hex", HexFormat.of().withUpperCase().formatHex(key));
    forms.put(name + " as Base64", Base64.getEncoder().encodeToString(key));
    forms.put(name + " as Base64 without padding", Base64.getEncoder().withoutPadding().encodeToString(key));
    forms.put(name + " as URL-safe Base64", Base64.getUrlEncoder().encodeToString(key));
    forms.put(name + " as URL-safe Base64 without padding",
        Base64.getUrlEncoder().withoutPadding().encodeToString(key));
    forms.put(name + " read as ISO-8859-1", new String(key, StandardCharsets.ISO_8859_1));
    forms.put(name + " read as UTF-8", new String(key, StandardCharsets.UTF_8));
    forms.put(name + " as Arrays.toString", Arrays.toString(key));
    if (!pieces) {
      return forms;
    }
    for (int from = 0; from + PIECE <= key.length; from++) {
      byte[] piece = Arrays.copyOfRange(key, from, from + PIECE);
      String bytes = " of bytes " + from + ".." + (from + PIECE - 1);
      forms.put(name + " as lower-case hex" + bytes, HexFormat.of().formatHex(piece));
      forms.put(name + " as upper-case hex" + bytes, HexFormat.of().withUpperCase().formatHex(piece));
      forms.put(name + " read as ISO-8859-1" + bytes, new String(piece, StandardCharsets.ISO_8859_1));
      String list = Arrays.toString(piece);
      forms.put(name + " as Arrays.toString" + bytes, list.substring(1, list.length() - 1));
    }
    for (int shift = 0; shift < 3; shift++) {
      byte[] shifted = Arrays.copyOfRange(key, shift, key.length);
      String standard = Base64.getEncoder().withoutPadding().encodeToString(shifted);
      String urlSafe = Base64.getUrlEncoder().withoutPadding().encodeToString(shifted);
      // 12 characters are 9 whole bytes; every group of 4 starts at a byte boundary of the shifted key.
      for (int at = 0; at + 12 <= 4 * (shifted.length / 3); at += 4) {
        String bytes = " of bytes " + (shift + at / 4 * 3) + ".." + (shift + at / 4 * 3 + 8);
        forms.put(name + " as Base64" + bytes, standard.substring(at, at + 12));
        forms.put(name + " as URL-safe Base64" + bytes, urlSafe.substring(at, at + 12));
      }
    }
    return forms;
  }

  /** The description of the first form of {@code forms} that {@code text} contains, if any. */
  private static Optional<String> leak(Map<String, String> forms, String text) {
    return forms.entrySet().stream().filter(f -> text.contains(f.getValue())).map(Map.Entry::getKey).findFirst();
  }

  /** The full stack trace (messages of the exception, its causes and suppressed ones) of what {@code action} throws. */
  private static <T extends Throwable> Printed failure(String where, Class<T> type, Executable action) {
    T thrown = assertThrows(type, action, where + " must fail");
    StringWriter trace = new StringWriter();
    thrown.printStackTrace(new PrintWriter(trace));
    return new Printed(where + " (exception and its stack trace)", trace.toString());
  }

  /**
   * No form of key material appears in anything this module prints: toString() of providers, rings
   * and keys, the exceptions it throws (messages of every cause, whole stack traces), the keyset
   * file, what KeysetFiles.describe returns, and whatever reaches System.out, System.err or
   * java.util.logging meanwhile (the module logs nothing; a leak there would be a new logger).
   * Key material: the master key, the key-encryption keys, the keyset's HKDF-PRF root keys (raw,
   * and as Tink's keyset JSON and binary proto hold them), and every derived key.
   */
  @Test
  void keyMaterialNeverPrints(@TempDir Path dir) throws Exception {
    Random random = new Random(0x6b65_7973L); // fixed: the master key and KEKs, hence any finding, reproduce
    byte[] masterKey = new byte[32];
    random.nextBytes(masterKey);
    byte[] kekBytes = new byte[32];
    random.nextBytes(kekBytes);
    byte[] otherKekBytes = new byte[32];
    random.nextBytes(otherKekBytes);
    Map<String, byte[]> material = new LinkedHashMap<>(); // raw key bytes
    Map<String, byte[]> serialized = new LinkedHashMap<>(); // structures holding key bytes
    material.put("the master key", masterKey);
    material.put("the key-encryption key", kekBytes);
    material.put("the wrong key-encryption key", otherKekBytes);
    List<Printed> printed = new ArrayList<>();

    PrintStream out = System.out;
    PrintStream err = System.err;
    ByteArrayOutputStream capturedOut = new ByteArrayOutputStream();
    ByteArrayOutputStream capturedErr = new ByteArrayOutputStream();
    Logger rootLogger = Logger.getLogger("");
    Level rootLevel = rootLogger.getLevel();
    StringBuilder logged = new StringBuilder();
    Handler logHandler = new Handler() {
      private final Formatter formatter = new SimpleFormatter();

      @Override
      public void publish(LogRecord record) {
        logged.append(formatter.format(record));
      }

      @Override
      public void flush() {}

      @Override
      public void close() {}
    };
    logHandler.setLevel(Level.ALL);
    System.setOut(new PrintStream(capturedOut, true, StandardCharsets.UTF_8));
    System.setErr(new PrintStream(capturedErr, true, StandardCharsets.UTF_8));
    rootLogger.setLevel(Level.ALL);
    rootLogger.addHandler(logHandler);
    try {
      Path file = dir.resolve("keyset.json");
      KeyEncryptionKey kek = KeyEncryptionKey.fromBytes(kekBytes);
      KeysetFiles.generate(file, kek);
      KeysetFiles.rotate(file, kek); // two root keys: an old one and the primary
      Map<String, KeyProvider> providers = new LinkedHashMap<>();
      providers.put("master-key provider", KeyProvider.fromMasterKey(masterKey));
      providers.put("keyset-file provider", KeyProvider.fromKeysetFile(file, kek));
      providers.put("keyset-contents provider",
          KeyProvider.fromKeysetFileContents(Files.readString(file, StandardCharsets.UTF_8), "contents", kek));
      for (Map.Entry<String, KeyProvider> provider : providers.entrySet()) {
        for (int length : new int[] {16, 32, 64}) {
          KeyRing ring = provider.getValue().keyRing(NAME, length);
          String which = provider.getKey() + "'s ring of " + length + "-byte keys";
          printed.add(new Printed(which + ".toString()", ring.toString()));
          printed.add(new Printed(which + ".keys().toString()", ring.keys().toString()));
          printed.add(new Printed(which + ".primary().toString()", ring.primary().toString()));
          for (VersionedKey k : ring.keys()) {
            String key = which + ": key " + Integer.toHexString(k.keyId());
            material.put(key, k.key().copyBytes(ACCESS));
            printed.add(new Printed(key + ".toString()", k.toString()));
            printed.add(new Printed(key + ".key().toString()", k.key().toString()));
          }
        }
        // After deriving: a provider holds its rings from then on.
        printed.add(new Printed(provider.getKey() + ".toString()", provider.getValue().toString()));
      }

      // The root keys, as Tink holds them: raw bytes, and the serialized HkdfPrfKey proto that
      // keyset JSON carries Base64-encoded in keyData.value, and the whole binary keyset.
      KeysetHandle handle = KeysetFiles.read(file, kek);
      String clearJson = TinkJsonProtoKeysetFormat.serializeKeyset(handle, InsecureSecretKeyAccess.get());
      for (int i = 0; i < handle.size(); i++) {
        HkdfPrfKey root = (HkdfPrfKey) handle.getAt(i).getKey();
        material.put("root key " + i, root.getKeyBytes().toByteArray(InsecureSecretKeyAccess.get()));
      }
      int protoKeys = 0;
      for (JsonNode entry : new ObjectMapper().readTree(clearJson).path("key")) {
        String value = entry.path("keyData").path("value").asText();
        serialized.put("root key " + protoKeys + " as Tink's HkdfPrfKey proto (keyset JSON keyData.value)",
            Base64.getDecoder().decode(value));
        protoKeys++;
      }
      assertEquals(handle.size(), protoKeys, "the keyset JSON holds every root key: " + clearJson);
      serialized.put("the binary Tink keyset",
          TinkProtoKeysetFormat.serializeKeyset(handle, InsecureSecretKeyAccess.get()));

      printed.add(new Printed("the keyset file", Files.readString(file, StandardCharsets.UTF_8)));
      printed.add(new Printed("KeysetFiles.describe", KeysetFiles.describe(file, kek).toString()));
      printed.add(new Printed("KeyEncryptionKey.toString()", kek.toString()));

      // Every refusal, fed with key material or a near miss of it.
      KeyProvider master = providers.get("master-key provider");
      printed.add(failure("a master key one byte short", IllegalArgumentException.class,
          () -> KeyProvider.fromMasterKey(Arrays.copyOf(masterKey, 31))));
      printed.add(failure("a master key one byte long", IllegalArgumentException.class,
          () -> KeyProvider.fromMasterKey(Arrays.copyOf(masterKey, 33))));
      printed.add(failure("a key length of 15", IllegalArgumentException.class, () -> master.keyRing(NAME, 15)));
      printed.add(failure("a key length of 65", IllegalArgumentException.class, () -> master.keyRing(NAME, 65)));
      printed.add(failure("the wrong key-encryption key", GeneralSecurityException.class,
          () -> KeyProvider.fromKeysetFile(file, KeyEncryptionKey.fromBytes(otherKekBytes))));
      String stored = Files.readString(file, StandardCharsets.UTF_8);
      int middle = stored.indexOf("encryptedKeyset") + 30; // inside the ciphertext
      String tampered = stored.substring(0, middle) + (stored.charAt(middle) == 'A' ? 'B' : 'A')
          + stored.substring(middle + 1);
      printed.add(failure("a tampered keyset file", GeneralSecurityException.class,
          () -> KeyProvider.fromKeysetFileContents(tampered, "tampered", kek)));
      printed.add(failure("a keyset file cut short", GeneralSecurityException.class,
          () -> KeyProvider.fromKeysetFileContents(stored.substring(0, stored.length() / 2), "cut", kek)));
      // An unencrypted keyset given by mistake: its key material must not come back in the error.
      printed.add(failure("a cleartext keyset", GeneralSecurityException.class,
          () -> KeyProvider.fromKeysetFileContents(clearJson, "cleartext", kek)));
      printed.add(failure("a cleartext keyset cut short", GeneralSecurityException.class,
          () -> KeyProvider.fromKeysetFileContents(clearJson.substring(0, clearJson.length() - 10), "cut", kek)));
      byte[] longKek = Arrays.copyOf(kekBytes, 33);
      printed.add(failure("a key-encryption key one byte long", IllegalStateException.class,
          () -> KeyEncryptionKey.fromEnvironment("KEK", Map.of("KEK", Base64.getEncoder().encodeToString(longKek)))));
      byte[] shortKek = Arrays.copyOf(kekBytes, 31);
      Path kekFile = dir.resolve("kek");
      Files.writeString(kekFile, Base64.getEncoder().encodeToString(shortKek));
      printed.add(failure("a key-encryption key file one byte short", IllegalStateException.class,
          () -> KeyEncryptionKey.fromFile(kekFile)));
      printed.add(failure("a key-encryption key in hex, not Base64", IllegalStateException.class,
          () -> KeyEncryptionKey.fromEnvironment("KEK", Map.of("KEK", HexFormat.of().formatHex(kekBytes) + "!"))));
      int primary = KeysetFiles.describe(file, kek).stream().filter(KeysetKey::primary).findFirst().orElseThrow().id();
      printed.add(failure("disabling the primary key", IllegalArgumentException.class,
          () -> KeysetFiles.disable(file, kek, primary, false)));
    } finally {
      rootLogger.removeHandler(logHandler);
      rootLogger.setLevel(rootLevel);
      System.setOut(out);
      System.setErr(err);
    }
    printed.add(new Printed("System.out", capturedOut.toString(StandardCharsets.UTF_8)));
    printed.add(new Printed("System.err", capturedErr.toString(StandardCharsets.UTF_8)));
    printed.add(new Printed("java.util.logging", logged.toString()));

    // The search finds fragments, not only whole keys: here bytes 7 to 19, URL-safe Base64.
    String fragment = Base64.getUrlEncoder().withoutPadding().encodeToString(Arrays.copyOfRange(masterKey, 7, 20));
    assertTrue(leak(printedForms("the master key", masterKey, true), "key=" + fragment + ";").isPresent(),
        "a Base64 fragment from an odd offset is recognized");

    Map<String, String> forms = new LinkedHashMap<>();
    material.forEach((name, key) -> forms.putAll(printedForms(name, key, true)));
    serialized.forEach((name, bytes) -> forms.putAll(printedForms(name, bytes, false)));
    for (Printed p : printed) {
      Optional<String> found = leak(forms, p.text());
      assertTrue(found.isEmpty(), () -> p.where() + " prints " + found.get() + ":\n" + p.text());
    }
  }

  @Test
  void keysetFileRoundTripAndRotation(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("keyset.json");
    KeyEncryptionKey kek = KeyEncryptionKey.fromBytes(master(9));
    KeysetFiles.generate(file, kek);
    String stored = Files.readString(file, StandardCharsets.UTF_8);
    assertTrue(stored.contains("encryptedKeyset"), "the file holds only an encrypted keyset");

    KeyRing before = KeyProvider.fromKeysetFile(file, kek).keyRing(NAME, 32);
    assertEquals(1, before.keys().size());
    assertThrows(FileAlreadyExistsException.class, () -> KeysetFiles.generate(file, kek));

    KeysetFiles.rotate(file, kek);
    KeyRing after = KeyProvider.fromKeysetFile(file, kek).keyRing(NAME, 32);
    assertEquals(2, after.keys().size());
    assertNotEquals(before.primary().keyId(), after.primary().keyId());
    // The old key is still there, unchanged, for reading old data, and first in keyset order
    // (identities such as row keys stay under it), whatever the random key ids.
    VersionedKey old = after.byId(before.primary().keyId()).orElseThrow();
    assertArrayEquals(before.primary().key().copyBytes(ACCESS), old.key().copyBytes(ACCESS));
    assertEquals(before.primary().keyId(), after.keys().get(0).keyId());
    for (int i = 0; i < 5; i++) {
      KeysetFiles.rotate(file, kek);
    }
    KeyRing many = KeyProvider.fromKeysetFile(file, kek).keyRing(NAME, 32);
    assertEquals(7, many.keys().size());
    assertEquals(before.primary().keyId(), many.keys().get(0).keyId(), "the first key stays first");
    assertEquals(many.primary().keyId(), many.keys().get(6).keyId(), "the newest key is primary and last");
  }

  @Test
  void wrongKeyEncryptionKeyIsRefused(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("keyset.json");
    KeysetFiles.generate(file, KeyEncryptionKey.fromBytes(master(9)));
    GeneralSecurityException e =
        assertThrows(
            GeneralSecurityException.class,
            () -> KeyProvider.fromKeysetFile(file, KeyEncryptionKey.fromBytes(master(8))));
    assertTrue(e.getMessage().contains("wrong key-encryption key"), e.getMessage());
  }

  @Test
  void keyEncryptionKeyFromFileAndBadInput(@TempDir Path dir) throws Exception {
    Path kekFile = dir.resolve("kek");
    Files.writeString(kekFile, KeyEncryptionKey.generateBase64() + "\n");
    Path file = dir.resolve("keyset.json");
    KeysetFiles.generate(file, KeyEncryptionKey.fromFile(kekFile));
    KeyProvider.fromKeysetFile(file, KeyEncryptionKey.fromFile(kekFile)).keyRing(NAME, 64);

    Files.writeString(kekFile, Base64.getEncoder().encodeToString(new byte[16]));
    IllegalStateException shortKey =
        assertThrows(IllegalStateException.class, () -> KeyEncryptionKey.fromFile(kekFile));
    assertTrue(shortKey.getMessage().contains("must be 32 bytes"), shortKey.getMessage());
    Files.writeString(kekFile, "not base64 !!");
    assertThrows(IllegalStateException.class, () -> KeyEncryptionKey.fromFile(kekFile));
    assertThrows(
        IllegalStateException.class, () -> KeyEncryptionKey.fromEnvironment("CRYPTOWORKER_TEST_UNSET_VARIABLE"));
  }

  /**
   * Rings are cached and the same ring goes to every box of a scope, so boxes must never destroy
   * the keys they are given (they wipe only their own temporary copies).
   */
  @Test
  void ringsAreCachedAndShared() throws Exception {
    KeyProvider p = KeyProvider.fromMasterKey(master(4));
    assertSame(p.keyRing(NAME, 32), p.keyRing(NAME, 32));
  }
}
