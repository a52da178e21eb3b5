package dev.cryptoworker.keys;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.crypto.tink.Aead;
import com.google.crypto.tink.subtle.AesGcmJce;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Key-encryption keys named by URI: each built-in scheme opens the key its older factory opens. */
class KekSourcesTest {
  private static final byte[] AD = "ad".getBytes(StandardCharsets.UTF_8);

  @TempDir Path dir;

  private final byte[] key = randomKey();
  private final String base64 = Base64.getEncoder().encodeToString(key);

  private static byte[] randomKey() {
    byte[] key = new byte[32];
    new SecureRandom().nextBytes(key);
    return key;
  }

  /** True when {@code kek} decrypts what the raw key encrypted, and the other way round. */
  private void assertIsTheKey(KeyEncryptionKey kek) throws GeneralSecurityException {
    byte[] m = "keyset".getBytes(StandardCharsets.UTF_8);
    KeyEncryptionKey raw = KeyEncryptionKey.fromBytes(key);
    assertArrayEquals(m, kek.aead().decrypt(raw.aead().encrypt(m, AD), AD));
    assertArrayEquals(m, raw.aead().decrypt(kek.aead().encrypt(m, AD), AD));
  }

  @Test
  void envUriReadsTheVariable() throws Exception {
    assertIsTheKey(KeyEncryptionKey.fromUri("env:MY_KEK", Map.of("MY_KEK", base64)));
    IllegalStateException unset = assertThrows(IllegalStateException.class,
        () -> KeyEncryptionKey.fromUri("env:OTHER", Map.of()));
    assertEquals("environment variable OTHER is not set", unset.getMessage());
  }

  @Test
  void fileUriReadsRelativeAbsoluteAndTripleSlashPaths() throws Exception {
    Path file = dir.resolve("kek.b64");
    Files.writeString(file, base64 + "\n");
    assertIsTheKey(KeyEncryptionKey.fromUri("file:" + file, Map.of()));
    assertIsTheKey(KeyEncryptionKey.fromUri("file://" + file, Map.of()));
    Path relative = Path.of("").toAbsolutePath().relativize(file);
    assertIsTheKey(KeyEncryptionKey.fromUri("file:" + relative, Map.of()));
  }

  @Test
  void pkcs12UriReadsTheAliasWithThePasswordOfTheNamedVariable() throws Exception {
    char[] password = "changeit".toCharArray();
    KeyStore store = KeyStore.getInstance("PKCS12");
    store.load(null, password);
    store.setEntry("cw", new KeyStore.SecretKeyEntry(new SecretKeySpec(key, "AES")),
        new KeyStore.PasswordProtection(password));
    Path file = dir.resolve("kek.p12");
    try (OutputStream out = Files.newOutputStream(file)) {
      store.store(out, password);
    }
    assertIsTheKey(KeyEncryptionKey.fromUri("pkcs12:" + file + "#cw",
        Map.of(Pkcs12KekSource.DEFAULT_PASSWORD_VARIABLE, "changeit")));
    assertIsTheKey(KeyEncryptionKey.fromUri("pkcs12:" + file + "?password-env=P12#cw", Map.of("P12", "changeit")));
    IllegalStateException unset = assertThrows(IllegalStateException.class,
        () -> KeyEncryptionKey.fromUri("pkcs12:" + file + "?password-env=P12#cw", Map.of()));
    assertEquals("environment variable P12 (the keystore's password for pkcs12:" + file
        + "?password-env=P12#cw) is not set", unset.getMessage());
  }

  @Test
  void malformedUrisAreRefusedSayingWhy() {
    Map<String, String> env = Map.of("K", base64);
    assertEquals("key-encryption key URI must start with a scheme such as env:, file:, pkcs12:, pkcs11: or kms:,"
        + " got: /etc/kek", refused("/etc/kek", env));
    assertEquals("key-encryption key URI env: names nothing after its scheme", refused("env:", env));
    assertEquals("key-encryption key URI pkcs12:/k.p12 must name the keystore entry's alias after '#'",
        refused("pkcs12:/k.p12", env));
    assertEquals("key-encryption key URI env:K?pin=1: unknown parameter 'pin' (env: takes none)",
        refused("env:K?pin=1", env));
    assertEquals("key-encryption key URI pkcs11:/p.cfg?pinenv=X#kek: unknown parameter 'pinenv' (known: pin-env)",
        refused("pkcs11:/p.cfg?pinenv=X#kek", env));
    assertEquals("key-encryption key URI env:K#x: env: takes no '#'", refused("env:K#x", env));
    String unknown = refused("kms://http@localhost:9600/kms#kek", env);
    assertTrue(unknown.startsWith("no key-encryption key source for scheme 'kms' of kms://http@localhost:9600/kms#kek;"
        + " known: env:NAME, file:PATH, "), unknown);
    assertTrue(unknown.endsWith("(kms: needs module kek-hadoop-kms on the classpath)"), unknown);
  }

  private static String refused(String uri, Map<String, String> env) {
    return assertThrows(IllegalArgumentException.class, () -> KeyEncryptionKey.fromUri(uri, env)).getMessage();
  }

  /** A source given explicitly is used for its scheme; {@code of(Aead)} keys open keyset files. */
  @Test
  void explicitSourcesAndCustomAeadsOpenKeysetFiles() throws Exception {
    Aead aead = new AesGcmJce(key);
    KekSource vault = new KekSource() {
      @Override
      public String form() {
        return "vault:NAME";
      }

      @Override
      public KeyEncryptionKey open(KekUri uri, Map<String, String> environment) {
        return KeyEncryptionKey.of(aead, uri.text());
      }
    };
    KeyEncryptionKey kek = KekSources.of(List.of(vault)).open("vault:team-a", Map.of());
    assertEquals("KeyEncryptionKey[vault:team-a]", kek.toString());
    Path keyset = dir.resolve("keyset.json");
    KeysetFiles.generate(keyset, kek);
    assertEquals(KeysetFiles.describe(keyset, kek), KeysetFiles.describe(keyset, KeyEncryptionKey.fromBytes(key)));
    assertThrows(IllegalArgumentException.class, () -> KekSources.of(List.of(vault)).open("env:K", Map.of()));
  }
}
