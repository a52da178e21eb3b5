package dev.cryptoworker.cryptobox.std.internal;

import dev.cryptoworker.cryptobox.KeyIdPrefix;
import dev.cryptoworker.cryptobox.TestKeys;
import dev.cryptoworker.cryptobox.WycheproofVectors;
import dev.cryptoworker.cryptobox.WycheproofVectors.Group;
import java.io.ByteArrayOutputStream;
import org.junit.jupiter.api.Test;

/**
 * {@link AesGcmAead} against Wycheproof's AES-GCM vectors ({@code
 * src/test/resources/wycheproof/aes_gcm_test.json}, 256 tests).
 *
 * <p>Replayed: the groups with 256-bit keys, 96-bit IVs and 128-bit tags, the only parameters the
 * primitive has (the STD box uses AES-256 and draws 12-byte IVs): 21 valid and 27 invalid vectors,
 * none acceptable. Each is decrypted in the box's format ({@code 0x01 | key id | iv | ct | tag}),
 * and encrypted with the vector's IV through the package-private {@code
 * insecureEncryptWithNonce}.
 *
 * <p>Skipped, 208 vectors: the groups with 128- or 192-bit keys (the box never uses them; the
 * primitive refuses them), and every group with an IV other than 96 bits (0 to 2056 bits: the
 * primitive and Tink's format have 12-byte IVs only, so such a ciphertext cannot even be
 * expressed; this includes all the "acceptable" short-IV and the "invalid" empty-IV vectors).
 */
class AesGcmAeadWycheproofTest {
  private static final int KEY_ID = 0x01020304;

  private static boolean applicable(Group g) {
    return g.parameter("keySize") == 256 && g.parameter("ivSize") == 96 && g.parameter("tagSize") == 128;
  }

  private static byte[] concat(byte[]... parts) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (byte[] p : parts) {
      out.writeBytes(p);
    }
    return out.toByteArray();
  }

  @Test
  void replaysEveryApplicableVector() {
    WycheproofVectors.load("/wycheproof/aes_gcm_test.json")
        .replay(AesGcmAeadWycheproofTest::applicable, (group, v, checks) -> {
          AesGcmAead aead = new AesGcmAead(TestKeys.of(KEY_ID, v.bytes("key")));
          byte[] iv = v.bytes("iv");
          byte[] aad = v.bytes("aad");
          byte[] ciphertext = concat(KeyIdPrefix.of(KEY_ID), iv, v.bytes("ct"), v.bytes("tag"));
          checks.encryption(() -> aead.insecureEncryptWithNonce(iv, v.bytes("msg"), aad), ciphertext);
          checks.decryption(() -> aead.decrypt(ciphertext, aad), v.bytes("msg"));
        })
        .assertPassed(21, 27, 0, 208);
  }
}
