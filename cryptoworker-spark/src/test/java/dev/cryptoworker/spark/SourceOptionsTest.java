package dev.cryptoworker.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cryptoworker.cryptobox.BoxKind;
import dev.cryptoworker.keys.KeyEncryptionKey;
import dev.cryptoworker.keys.KeyProvider;
import dev.cryptoworker.keys.KeyScope;
import dev.cryptoworker.keys.KeysetFiles;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Option kek is a key-encryption key URI, as every entry point takes it; a cluster option is HOST:PORT. */
class SourceOptionsTest {
  @TempDir Path dir;

  private static SourceOptions options(Path keyset, String kek) {
    return SourceOptions.of(Map.of("schema", "unread.yaml", "keyset", keyset.toString(), "kek", kek), Map.of());
  }

  @Test
  void kekIsAKeyEncryptionKeyUri() throws Exception {
    Path kek = Files.writeString(dir.resolve("kek.b64"), KeyEncryptionKey.generateBase64());
    Path keyset = dir.resolve("keyset.json");
    KeysetFiles.generate(keyset, KeyEncryptionKey.fromFile(kek));
    KeyScope scope = KeyScope.rowKey("t", BoxKind.DET);
    assertTrue(options(keyset, "file:" + kek + "?cache-ttl=60").keys().keyRing(scope, 32).primary().key()
        .equalsKey(KeyProvider.fromKeysetFile(keyset, "file:" + kek).keyRing(scope, 32).primary().key()));

    IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class,
        () -> options(keyset, "vault:x").keys());
    assertTrue(unknown.getMessage().startsWith("cryptoworker data source: option kek: no key-encryption key source for"
        + " scheme 'vault' of vault:x;"), unknown.getMessage());
  }

  @Test
  void aClusterOptionThatIsNotHostAndPortFailsByName() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> SourceOptions.of(Map.of("schema",
        "unread.yaml", "keyset", "unread.json", "cluster.West", "zk2.example.org"), Map.of()));
    assertEquals("cryptoworker data source: option cluster.west must be the cluster's ZooKeeper quorum: expected"
        + " HOST:PORT with a port from 1 to 65535, got 'zk2.example.org'", e.getMessage());
  }
}
