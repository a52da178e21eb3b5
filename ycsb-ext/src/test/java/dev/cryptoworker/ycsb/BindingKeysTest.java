package dev.cryptoworker.ycsb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cryptoworker.cryptobox.BoxKind;
import dev.cryptoworker.kek.kms.MiniKmsProcess;
import dev.cryptoworker.keys.KeyEncryptionKey;
import dev.cryptoworker.keys.KeyProvider;
import dev.cryptoworker.keys.KeyScope;
import dev.cryptoworker.keys.KeysetFiles;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import site.ycsb.DBException;

/** The binding obtains keys as every entry point does: a keyset file and its key-encryption key's URI. */
class BindingKeysTest {
  @TempDir Path dir;

  @Test
  void keysetAndKekUriGiveTheKeysetsKeys() throws Exception {
    Path kek = Files.writeString(dir.resolve("kek.b64"), KeyEncryptionKey.generateBase64());
    Path keyset = dir.resolve("keyset.json");
    KeysetFiles.generate(keyset, KeyEncryptionKey.fromFile(kek));
    Properties p = new Properties();
    p.setProperty("table", "patients");
    p.setProperty("cryptoworker.schema", "schemas/patients.yaml");
    p.setProperty("cryptoworker.keyset", keyset.toString());
    p.setProperty("cryptoworker.kek", "file:" + kek);
    KeyScope scope = KeyScope.rowKey("patients", BoxKind.DET);
    assertTrue(SecureHBaseClient.BindingOptions.from(p).keys().keyRing(scope, 32).primary().key()
        .equalsKey(KeyProvider.fromKeysetFile(keyset, "file:" + kek).keyRing(scope, 32).primary().key()));

    p.setProperty("cryptoworker.kek", "env:CRYPTOWORKER_TEST_UNSET_KEK");
    DBException unset = assertThrows(DBException.class, () -> SecureHBaseClient.BindingOptions.from(p).keys());
    assertTrue(unset.getMessage().equals("cannot open keyset " + keyset + " with cryptoworker.kek"
        + " env:CRYPTOWORKER_TEST_UNSET_KEK: environment variable CRYPTOWORKER_TEST_UNSET_KEK is not set"),
        unset.getMessage());
  }

  /** A kms:// URI opens the keyset through a Hadoop KMS (a MiniKMS in a child JVM) beside HBase's shaded client. */
  @Test
  void kmsUriOpensTheKeysetThroughTheKms() throws Exception {
    try (MiniKmsProcess kms = MiniKmsProcess.start(dir.resolve("kms"))) {
      Path keyset = dir.resolve("keyset.json");
      String uri = kms.generateKeyset(keyset);
      Properties p = new Properties();
      p.setProperty("table", "patients");
      p.setProperty("cryptoworker.schema", "schemas/patients.yaml");
      p.setProperty("cryptoworker.keyset", keyset.toString());
      p.setProperty("cryptoworker.kek", uri);
      long decrypts = kms.decryptCalls();
      KeyScope scope = KeyScope.rowKey("patients", BoxKind.DET);
      assertTrue(SecureHBaseClient.BindingOptions.from(p).keys().keyRing(scope, 32).primary().key()
          .equalsKey(KeyProvider.fromKeysetFile(keyset, uri).keyRing(scope, 32).primary().key()));
      assertEquals(2, kms.decryptCalls() - decrypts, "KMS decrypts for the binding's open and the test's");
    }
  }
}
