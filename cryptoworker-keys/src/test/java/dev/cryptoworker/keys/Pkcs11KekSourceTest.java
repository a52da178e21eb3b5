package dev.cryptoworker.keys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cryptoworker.cryptobox.BoxKind;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.Key;
import java.security.KeyStore;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code pkcs11:} keys on a SoftHSM2 token: keysets wrapped on the token, the key never out of it. */
class Pkcs11KekSourceTest {
  private static final Map<String, String> ENV = Map.of(Pkcs11KekSource.DEFAULT_PIN_VARIABLE, SoftHsmToken.PIN);

  @TempDir Path dir;

  private static String uri() throws Exception {
    return "pkcs11:" + SoftHsmToken.config() + "#" + SoftHsmToken.LABEL;
  }

  @Test
  void keysetsWrappedOnTheTokenOpenAgain() throws Exception {
    KeyEncryptionKey kek = KeyEncryptionKey.fromUri(uri(), ENV);
    Path keyset = dir.resolve("keyset.json");
    KeysetFiles.generate(keyset, kek);
    KeysetFiles.rotate(keyset, KeyEncryptionKey.fromUri(uri(), ENV));
    assertEquals(2, KeysetFiles.describe(keyset, KeyEncryptionKey.fromUri(uri(), ENV)).size());
    KeyEncryptionKey ownPin = KeyEncryptionKey.fromUri(uri().replace("#", "?pin-env=MY_PIN#"),
        Map.of("MY_PIN", SoftHsmToken.PIN));
    assertEquals(2, KeyProvider.fromKeysetFile(keyset, ownPin).keyRing(KeyScope.rowKey("t", BoxKind.DET), 32)
        .keys().size());
  }

  /** The key the URI names is a token object the JDK cannot export: wrap and unwrap run on the token. */
  @Test
  void theKeyCannotBeReadOutOfTheToken() throws Exception {
    KeyStore token = KeyStore.getInstance("PKCS11", Pkcs11KekSource.provider(SoftHsmToken.config()));
    token.load(null, SoftHsmToken.PIN.toCharArray());
    Key key = token.getKey(SoftHsmToken.LABEL, null);
    assertEquals("AES", key.getAlgorithm());
    assertNull(key.getEncoded(), "the token handed out the key's bytes");
    assertTrue(key.toString().contains("unextractable"), key.toString());
  }

  @Test
  void aMissingLabelIsNamed() throws Exception {
    String uri = "pkcs11:" + SoftHsmToken.config() + "#no-such-key";
    GeneralSecurityException e = assertThrows(GeneralSecurityException.class, () -> KeyEncryptionKey.fromUri(uri, ENV));
    assertEquals("token of " + SoftHsmToken.config() + " has no key labelled no-such-key", e.getMessage());
  }

  /** Moving a keyset from a key in an environment variable onto the token, as {@code keys rewrap} does. */
  @Test
  void rewrapOntoTheTokenRetiresTheRawKey() throws Exception {
    KeyEncryptionKey raw = KeyEncryptionKey.fromBytes(new byte[32]);
    Path keyset = dir.resolve("moved.json");
    KeysetFiles.generate(keyset, raw);
    var keys = KeysetFiles.describe(keyset, raw);
    KeysetFiles.rewrap(keyset, raw, KeyEncryptionKey.fromUri(uri(), ENV));
    assertEquals(keys, KeysetFiles.describe(keyset, KeyEncryptionKey.fromUri(uri(), ENV)));
    assertThrows(GeneralSecurityException.class, () -> KeysetFiles.describe(keyset, raw));
  }
}
