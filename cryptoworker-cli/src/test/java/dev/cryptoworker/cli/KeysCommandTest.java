package dev.cryptoworker.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cryptoworker.keys.KeyEncryptionKey;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.util.Base64;
import java.util.Map;
import java.util.regex.Pattern;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class KeysCommandTest {
  private static final String KEK = KeyEncryptionKey.generateBase64();
  private static final Map<String, String> ENV = Map.of("CRYPTOWORKER_KEK", KEK);
  /** Key material would show up as a long run of base64 or hex; ids are 8 hex digits. */
  private static final Pattern LONG_RUN = Pattern.compile("[A-Za-z0-9+/=]{16,}");

  @TempDir Path dir;

  private Path keyset() {
    return dir.resolve("keyset.json");
  }

  private Cli.Result keys(String... args) {
    String[] full = new String[args.length + 1];
    full[0] = "keys";
    System.arraycopy(args, 0, full, 1, args.length);
    return Cli.run(ENV, full);
  }

  private Cli.Result ok(Cli.Result result) {
    assertEquals(0, result.exitCode(), result.err());
    return result;
  }

  private JsonNode listJson() throws Exception {
    return new ObjectMapper().readTree(
        ok(keys("list", "--keyset", keyset().toString(), "--json")).out()).get("keys");
  }

  private String keyId(int index) throws Exception {
    return listJson().get(index).get("id").asText();
  }

  private void assertNoKeyMaterial(String output) {
    String text = output.replace(keyset().toString(), "KEYSET");
    assertFalse(LONG_RUN.matcher(text).find(), text);
  }

  private Path keysetWithTwoKeys() {
    ok(keys("generate", "--keyset", keyset().toString()));
    ok(keys("rotate", "--keyset", keyset().toString()));
    return keyset();
  }

  @Test
  void generateRotateAndListAsText() {
    Cli.Result generated = ok(keys("generate", "--keyset", keyset().toString()));
    assertTrue(generated.out().matches("wrote .* with primary key [0-9a-f]{8}\\R"), generated.out());
    Cli.Result rotated = ok(keys("rotate", "--keyset", keyset().toString()));
    assertTrue(rotated.out().contains("new primary key "), rotated.out());

    Cli.Result list = ok(keys("list", "--keyset", keyset().toString()));
    String[] lines = list.out().split("\\R");
    assertEquals(3, lines.length, list.out());
    assertTrue(lines[0].startsWith("KEY ID"));
    String created = "\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ";
    assertTrue(lines[1].matches("[0-9a-f]{8}  ENABLED +no +yes +" + created), lines[1]);
    assertTrue(lines[2].matches("[0-9a-f]{8}  ENABLED +yes +no +" + created), lines[2]);
    assertNoKeyMaterial(generated.out() + rotated.out() + list.out());
    assertNoKeyMaterial(Cli.run(ENV, "keys", "list", "--keyset", keyset().toString(), "--json").out());
  }

  @Test
  void listAsJson() throws Exception {
    java.time.Instant before = java.time.Instant.now().minusSeconds(1);
    keysetWithTwoKeys();
    java.time.Instant after = java.time.Instant.now().plusSeconds(1);
    JsonNode keys = listJson();
    assertEquals(2, keys.size());
    assertTrue(keys.get(0).get("oldest").asBoolean());
    assertTrue(keys.get(1).get("primary").asBoolean());
    for (JsonNode key : keys) {
      java.time.Instant created = java.time.Instant.parse(key.get("created").asText());
      assertTrue(!created.isBefore(before) && !created.isAfter(after), created.toString());
    }
    assertTrue(keys.get(0).get("id").asText().matches("[0-9a-f]{8}"));
    assertEquals("ENABLED", keys.get(1).get("status").asText());
  }

  @Test
  void generateNeverOverwrites() {
    keysetWithTwoKeys();
    Cli.Result again = keys("generate", "--keyset", keyset().toString());
    assertEquals(1, again.exitCode());
    assertEquals("cryptoworker: file already exists (never overwritten): " + keyset()
        + System.lineSeparator(), again.err());
    Cli.Result missing = keys("list", "--keyset", dir.resolve("none.json").toString());
    assertEquals("cryptoworker: no such file: " + dir.resolve("none.json")
        + System.lineSeparator(), missing.err());
  }

  @Test
  void disableRefusesThePrimaryAndTheOldest() throws Exception {
    keysetWithTwoKeys();
    String oldest = keyId(0);
    String primary = keyId(1);

    Cli.Result refusedPrimary = keys("disable", "--keyset", keyset().toString(), primary, "--force");
    assertEquals(1, refusedPrimary.exitCode());
    assertEquals("cryptoworker: key " + primary + " is the primary key; rotate first, then disable it"
        + System.lineSeparator(), refusedPrimary.err());

    Cli.Result refusedOldest = keys("disable", "--keyset", keyset().toString(), oldest);
    assertEquals(1, refusedOldest.exitCode());
    assertTrue(refusedOldest.err().contains("oldest key"), refusedOldest.err());
    assertFalse(refusedOldest.err().contains("\tat "), "no stack trace without --verbose");

    Cli.Result verbose = keys("disable", "--keyset", keyset().toString(), oldest, "--verbose");
    assertEquals(1, verbose.exitCode());
    assertTrue(verbose.err().contains("\tat "), "stack trace with --verbose");

    Cli.Result forced = ok(keys("disable", "--keyset", keyset().toString(), oldest, "--force"));
    assertTrue(forced.err().contains("warning: disabled the keyset's oldest key " + oldest),
        forced.err());
    assertEquals("DISABLED", listJson().get(0).get("status").asText());

    ok(keys("enable", "--keyset", keyset().toString(), oldest));
    assertEquals("ENABLED", listJson().get(0).get("status").asText());
  }

  @Test
  void disableAndEnableAMiddleKey() throws Exception {
    keysetWithTwoKeys();
    ok(keys("rotate", "--keyset", keyset().toString()));
    String middle = keyId(1);
    Cli.Result disabled = ok(keys("disable", "--keyset", keyset().toString(), "0x" + middle));
    assertEquals("", disabled.err());
    assertEquals("DISABLED", listJson().get(1).get("status").asText());
    ok(keys("enable", "--keyset", keyset().toString(), middle));
    assertEquals("ENABLED", listJson().get(1).get("status").asText());
    assertEquals(1, keys("enable", "--keyset", keyset().toString(), "7").exitCode());
  }

  @Test
  void kekFromAnotherVariableAndFromAFile() throws Exception {
    Map<String, String> env = Map.of("MY_KEK", KEK);
    assertEquals(0, Cli.run(env, "keys", "generate", "--keyset", keyset().toString(),
        "--kek-env", "MY_KEK").exitCode());
    Path kekFile = Files.writeString(dir.resolve("kek.txt"), KEK + "\n");
    ok(keys("rotate", "--keyset", keyset().toString(), "--kek-file", kekFile.toString()));
    assertEquals(2, listJson().size());
  }

  @Test
  void kekFromAPkcs12KeyStore() throws Exception {
    char[] password = "store-pass".toCharArray();
    KeyStore store = KeyStore.getInstance("PKCS12");
    store.load(null, password);
    store.setEntry("cw-kek",
        new KeyStore.SecretKeyEntry(new SecretKeySpec(Base64.getDecoder().decode(KEK), "AES")),
        new KeyStore.PasswordProtection(password));
    Path p12 = dir.resolve("kek.p12");
    try (OutputStream out = Files.newOutputStream(p12)) {
      store.store(out, password);
    }
    Map<String, String> env = Map.of("P12_PASS", "store-pass");
    String[] kekOptions = {"--kek-keystore", p12.toString(), "--kek-alias", "cw-kek",
        "--kek-keystore-password-env", "P12_PASS"};
    Cli.Result generated = Cli.run(env, concat(
        new String[] {"keys", "generate", "--keyset", keyset().toString()}, kekOptions));
    assertEquals(0, generated.exitCode(), generated.err());
    assertEquals(1, listJson().size(), "the environment's KEK is the same key");

    Cli.Result wrongAlias = Cli.run(env, "keys", "list", "--keyset", keyset().toString(),
        "--kek-keystore", p12.toString(), "--kek-alias", "other",
        "--kek-keystore-password-env", "P12_PASS");
    assertEquals(1, wrongAlias.exitCode());
    assertEquals("cryptoworker: keystore " + p12 + " has no entry other" + System.lineSeparator(),
        wrongAlias.err());

    Cli.Result missingAlias = Cli.run(env, "keys", "list", "--keyset", keyset().toString(),
        "--kek-keystore", p12.toString(), "--kek-keystore-password-env", "P12_PASS");
    assertEquals(2, missingAlias.exitCode(), "the keystore options go together");
  }

  /** --kek takes a URI; rewrap moves the keyset to another key, after which the old one no longer opens it. */
  @Test
  void kekUriAndRewrap() throws Exception {
    Map<String, String> env = Map.of("MY_KEK", KEK);
    ok(Cli.run(env, "keys", "generate", "--keyset", keyset().toString(), "--kek", "env:MY_KEK"));
    ok(Cli.run(env, "keys", "rotate", "--keyset", keyset().toString(), "--kek", "env:MY_KEK"));
    String ids = listJson().toString();
    Path newKek = Files.writeString(dir.resolve("new.b64"), KeyEncryptionKey.generateBase64());

    Cli.Result rewrapped = ok(Cli.run(env, "keys", "rewrap", "--keyset", keyset().toString(), "--kek", "env:MY_KEK",
        "--to", "file:" + newKek));
    assertEquals("rewrapped " + keyset() + " under file:" + newKek + "; the key-encryption key env:MY_KEK no longer"
        + " opens it" + System.lineSeparator(), rewrapped.out());

    Cli.Result old = Cli.run(env, "keys", "list", "--keyset", keyset().toString(), "--kek", "env:MY_KEK");
    assertEquals(1, old.exitCode());
    assertTrue(old.err().startsWith("cryptoworker: cannot decrypt keyset file " + keyset()), old.err());
    Cli.Result moved = ok(Cli.run(Map.of(), "keys", "list", "--keyset", keyset().toString(), "--json",
        "--kek", "file:" + newKek));
    assertEquals(ids, new ObjectMapper().readTree(moved.out()).get("keys").toString());

    Cli.Result unknown = Cli.run(env, "keys", "list", "--keyset", keyset().toString(), "--kek", "vault:x");
    assertEquals(1, unknown.exitCode());
    assertTrue(unknown.err().startsWith("cryptoworker: no key-encryption key source for scheme 'vault' of vault:x;"),
        unknown.err());
    assertEquals(2, Cli.run(env, "keys", "rewrap", "--keyset", keyset().toString()).exitCode(), "--to is required");
  }

  @Test
  void kekFailuresAreOneLine() {
    keysetWithTwoKeys();
    Cli.Result unset = Cli.run(Map.of(), "keys", "list", "--keyset", keyset().toString());
    assertEquals(1, unset.exitCode());
    assertEquals("cryptoworker: environment variable CRYPTOWORKER_KEK is not set"
        + System.lineSeparator(), unset.err());

    Cli.Result wrong = Cli.run(Map.of("CRYPTOWORKER_KEK", KeyEncryptionKey.generateBase64()),
        "keys", "list", "--keyset", keyset().toString());
    assertEquals(1, wrong.exitCode());
    assertTrue(wrong.err().startsWith("cryptoworker: cannot decrypt keyset file"), wrong.err());
    assertEquals(1, wrong.err().lines().count());
  }

  @Test
  void kekGeneratePrintsA32ByteBase64Key() {
    Cli.Result result = ok(Cli.run("keys", "kek", "generate"));
    assertEquals(32, Base64.getDecoder().decode(result.out().strip()).length);
  }

  @Test
  void usageErrorsExitTwo() {
    assertEquals(2, Cli.run("keys").exitCode(), "missing subcommand");
    assertEquals(2, Cli.run("keys", "list").exitCode(), "missing --keyset");
    assertEquals(2, Cli.run("keys", "list", "--keyset", "k", "--bogus").exitCode());
    assertEquals(2, Cli.run("keys", "disable", "--keyset", "k", "not-hex").exitCode());
    assertEquals(2, Cli.run("keys", "list", "--keyset", "k", "--kek-env", "A", "--kek-file", "f")
        .exitCode(), "KEK sources are mutually exclusive");
    assertEquals(2, Cli.run("nosuchcommand").exitCode());
  }

  @Test
  void everyCommandHasHelp() {
    for (String[] command : new String[][] {{}, {"keys"}, {"keys", "generate"}, {"keys", "rotate"},
        {"keys", "list"}, {"keys", "disable"}, {"keys", "enable"}, {"keys", "rewrap"}, {"keys", "kek"},
        {"keys", "kek", "generate"}, {"schema"}, {"schema", "check"}, {"schema", "show"},
        {"schema", "diff"}}) {
      Cli.Result help = Cli.run(concat(command, new String[] {"--help"}));
      assertEquals(0, help.exitCode(), String.join(" ", command));
      assertTrue(help.out().startsWith("Usage: cryptoworker"), help.out());
    }
  }

  @Test
  void generatesABashCompletionScript() {
    Cli.Result completion = ok(Cli.run("generate-completion"));
    assertTrue(completion.out().contains("complete -F"), completion.out());
  }

  static String[] concat(String[] a, String[] b) {
    String[] all = new String[a.length + b.length];
    System.arraycopy(a, 0, all, 0, a.length);
    System.arraycopy(b, 0, all, a.length, b.length);
    return all;
  }
}
