package dev.cryptoworker.cryptobox.det.internal;

import dev.cryptoworker.cryptobox.WycheproofVectors;
import org.junit.jupiter.api.Test;

/**
 * {@link AesSivAead} against Wycheproof's AES-SIV vectors ({@code
 * src/test/resources/wycheproof/aes_siv_cmac_test.json}, 442 tests; RFC 5297's vector is tcId 1).
 *
 * <p>Replayed: every group, since the primitive takes all three key sizes (256-, 384- and 512-bit
 * keys; the DET box uses 512): 118 valid and 324 invalid vectors, none acceptable. Each is
 * encrypted and decrypted as raw RFC 5297 AES-SIV with the associated data as the one S2V header
 * (an empty output prefix, so the ciphertext is Wycheproof's {@code SIV || ct}); the box's own
 * prefix handling is covered by {@code AesSivAeadTest} against Tink. Skipped: none.
 */
class AesSivAeadWycheproofTest {
  @Test
  void replaysEveryVector() {
    WycheproofVectors.load("/wycheproof/aes_siv_cmac_test.json")
        .replay(group -> true, (group, v, checks) -> {
          AesSivAead siv = new AesSivAead(v.bytes("key"), new byte[0]);
          byte[] aad = v.bytes("aad");
          checks.encryption(() -> siv.encryptDeterministically(v.bytes("msg"), aad), v.bytes("ct"));
          checks.decryption(() -> siv.decryptDeterministically(v.bytes("ct"), aad), v.bytes("msg"));
        })
        .assertPassed(118, 324, 0, 0);
  }
}
