package dev.cryptoworker.keys;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Reading a keyset file is the first thing a fresh JVM does with this module (a command line that
 * only reads), before anything has registered Tink's key types: run that in a child JVM.
 */
class FreshJvmKeysetReadTest {
  private static final String KEK = KeyEncryptionKey.generateBase64();

  @TempDir Path dir;

  /** The child JVM: opens a key provider from the keyset file as its very first use of Tink. */
  public static void main(String[] args) throws Exception {
    KeyProvider keys = KeyProvider.fromKeysetFile(Paths.get(args[0]),
        KeyEncryptionKey.fromEnvironment("CRYPTOWORKER_KEK", System.getenv()));
    System.out.println("keys for 32 bytes: " + keys.keyRing(KeyScope.column("t", "f", "q",
        dev.cryptoworker.cryptobox.BoxKind.STD), 32).keys().size());
  }

  @Test
  void aFreshJvmOpensAKeyProviderFromAKeysetFile() throws Exception {
    Path keyset = dir.resolve("keyset.json");
    KeysetFiles.generate(keyset, KeyEncryptionKey.fromEnvironment("CRYPTOWORKER_KEK", Map.of("CRYPTOWORKER_KEK", KEK)));
    ProcessBuilder child = new ProcessBuilder(Paths.get(System.getProperty("java.home"), "bin", "java").toString(),
        "-cp", System.getProperty("java.class.path"), FreshJvmKeysetReadTest.class.getName(), keyset.toString())
        .redirectErrorStream(true);
    child.environment().put("CRYPTOWORKER_KEK", KEK);
    Process process = child.start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    process.waitFor(60, TimeUnit.SECONDS);
    assertEquals(0, process.exitValue(), output);
    assertEquals("keys for 32 bytes: 1", output.strip());
  }
}
