package dev.cryptoworker.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cryptoworker.cryptobox.BoxKind;
import dev.cryptoworker.kek.kms.MiniKmsProcess;
import dev.cryptoworker.keys.KeyProvider;
import dev.cryptoworker.keys.KeyScope;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The demo's keys come from a keyset under its key-encryption key URI, kms:// included. */
class DemoKeysTest {
  @TempDir Path dir;

  /** A kms:// URI opens the keyset through a Hadoop KMS (a MiniKMS in a child JVM) beside HBase's shaded client. */
  @Test
  void kmsUriOpensTheKeysetThroughTheKms() throws Exception {
    try (MiniKmsProcess kms = MiniKmsProcess.start(dir.resolve("kms"))) {
      Path keyset = dir.resolve("keyset.json");
      String uri = kms.generateKeyset(keyset);
      long decrypts = kms.decryptCalls();
      KeyScope scope = KeyScope.rowKey("patients", BoxKind.DET);
      KeyProvider demoKeys = new PatientsDemo().keys(DemoOptions.parse(new String[] {"--keyset=" + keyset, "--kek=" + uri}));
      assertTrue(demoKeys.keyRing(scope, 32).primary().key()
          .equalsKey(KeyProvider.fromKeysetFile(keyset, uri).keyRing(scope, 32).primary().key()));
      assertEquals(2, kms.decryptCalls() - decrypts, "KMS decrypts for the demo's open and the test's");
    }
  }
}
