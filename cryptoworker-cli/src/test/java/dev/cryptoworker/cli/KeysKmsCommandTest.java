package dev.cryptoworker.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cryptoworker.kek.kms.MiniKmsProcess;
import dev.cryptoworker.keys.KeyEncryptionKey;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --kek kms://}: the command creates, opens and rewraps keysets through a Hadoop KMS, over HTTP
 * to a MiniKMS in a child JVM (its Hadoop 3 cannot share this JVM with hbase-shaded-client's Hadoop 2.10).
 */
class KeysKmsCommandTest {
  @TempDir Path dir;

  private static Cli.Result ok(Cli.Result result) {
    assertEquals(0, result.exitCode(), result.err());
    return result;
  }

  @Test
  void keysetsCreatedOpenedAndRewrappedThroughTheKms() throws Exception {
    try (MiniKmsProcess kms = MiniKmsProcess.start(dir.resolve("kms"))) {
      String uri = kms.kekUri(MiniKmsProcess.KEY);
      String keyset = dir.resolve("keyset.json").toString();
      ok(Cli.run("keys", "generate", "--keyset", keyset, "--kek", uri));
      ok(Cli.run("keys", "rotate", "--keyset", keyset, "--kek", uri));
      long decrypts = kms.decryptCalls();
      Cli.Result list = ok(Cli.run("keys", "list", "--keyset", keyset, "--json", "--kek", uri));
      assertEquals(2, new ObjectMapper().readTree(list.out()).get("keys").size(), list.out());
      assertEquals(1, kms.decryptCalls() - decrypts, "KMS decrypts for one list");

      Path file = Files.writeString(dir.resolve("kek.b64"), KeyEncryptionKey.generateBase64());
      ok(Cli.run("keys", "rewrap", "--keyset", keyset, "--kek", uri, "--to", "file:" + file));
      Cli.Result old = Cli.run("keys", "list", "--keyset", keyset, "--kek", uri);
      assertEquals(1, old.exitCode());
      assertTrue(old.err().startsWith("cryptoworker: cannot decrypt keyset file " + keyset), old.err());
      ok(Cli.run("keys", "list", "--keyset", keyset, "--kek", "file:" + file));

      String missing = kms.kekUri("no-such-key");
      Cli.Result unknown = Cli.run("keys", "generate", "--keyset", dir.resolve("other.json").toString(), "--kek",
          missing);
      assertEquals(1, unknown.exitCode());
      assertTrue(unknown.err().startsWith("cryptoworker: cannot generate a data key with key no-such-key of Hadoop KMS "
          + kms.providerUri()), unknown.err());
    }
  }
}
