package dev.cryptoworker.cryptobox.det.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.google.crypto.tink.DeterministicAead;
import com.google.crypto.tink.InsecureSecretKeyAccess;
import com.google.crypto.tink.daead.AesSivKey;
import com.google.crypto.tink.daead.AesSivParameters;
import com.google.crypto.tink.subtle.AesSiv;
import com.google.crypto.tink.util.SecretBytes;
import dev.cryptoworker.cryptobox.CiphertextChecks;
import dev.cryptoworker.cryptobox.SecretKeyAccess;
import dev.cryptoworker.cryptobox.TestKeys;
import dev.cryptoworker.cryptobox.VersionedKey;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link AesSivAead} against RFC 5297's vector and against Tink's own AES-SIV, both directions. */
class AesSivAeadTest {
  private static final SecureRandom RANDOM = new SecureRandom();
  private static final HexFormat HEX = HexFormat.of();

  private static VersionedKey key(int id) {
    return TestKeys.random(id, 64);
  }

  /** Tink's own AES-SIV of {@code key}, in the same format: the reference {@link AesSivAead} is tested against. */
  private static DeterministicAead tink(VersionedKey key) throws GeneralSecurityException {
    AesSivParameters parameters =
        AesSivParameters.builder()
            .setKeySizeBytes(64)
            .setVariant(AesSivParameters.Variant.TINK)
            .build();
    return AesSiv.create(
        AesSivKey.builder()
            .setParameters(parameters)
            .setKeyBytes(key.key().withCopy(SecretKeyAccess.insecure(),
                raw -> SecretBytes.copyFrom(raw, InsecureSecretKeyAccess.get())))
            .setIdRequirement(key.keyId())
            .build());
  }

  /** RFC 5297, appendix A.1 (deterministic authenticated encryption, 256-bit key). */
  @Test
  void matchesRfc5297Vector() throws Exception {
    AesSivAead siv = new AesSivAead(
        HEX.parseHex("fffefdfcfbfaf9f8f7f6f5f4f3f2f1f0f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff"), new byte[0]);
    byte[] ad = HEX.parseHex("101112131415161718191a1b1c1d1e1f2021222324252627");
    byte[] plaintext = HEX.parseHex("112233445566778899aabbccddee");
    byte[] expected = HEX.parseHex("85632d07c6e8f37f950acd320a2ecc9340c02b9690c4dc04daef7f6afe5c");
    assertArrayEquals(expected, siv.encryptDeterministically(plaintext, ad));
    assertArrayEquals(plaintext, siv.decryptDeterministically(expected, ad));
  }

  @Test
  void tinkAndThisClassProduceTheSameBytes() throws Exception {
    for (int i = 0; i < 300; i++) {
      VersionedKey key = key(RANDOM.nextInt());
      DeterministicAead ours = AesSivAead.create(key);
      DeterministicAead tink = tink(key);
      byte[] m = TestKeys.randomBytes(i < 70 ? i : RANDOM.nextInt(400)); // every length around the block size
      byte[] ad = TestKeys.randomBytes(i % 3 == 0 ? 0 : RANDOM.nextInt(60));
      byte[] c = ours.encryptDeterministically(m, ad);
      assertArrayEquals(tink.encryptDeterministically(m, ad), c, "length " + m.length);
      assertArrayEquals(m, tink.decryptDeterministically(c, ad));
      assertArrayEquals(m, ours.decryptDeterministically(c, ad));
    }
  }

  @Test
  void rejectsAlteredTruncatedOrMisboundCiphertexts() throws Exception {
    DeterministicAead ours = AesSivAead.create(key(9));
    byte[] ad = TestKeys.randomBytes(12);
    byte[] c = ours.encryptDeterministically(TestKeys.randomBytes(23), ad);
    CiphertextChecks.assertAlterationsRejected(c, altered -> ours.decryptDeterministically(altered, ad));
    assertThrows(GeneralSecurityException.class, () -> ours.decryptDeterministically(c, TestKeys.randomBytes(12)));
    assertThrows(GeneralSecurityException.class,
        () -> AesSivAead.create(key(9)).decryptDeterministically(c, ad));
  }

  /** Threads alternating between keys (one per column in CryptoWorker) never mix them up. */
  @Test
  void threadsAlternatingBetweenKeysKeepThemApart() throws Exception {
    List<DeterministicAead> ours = new ArrayList<>();
    List<DeterministicAead> tink = new ArrayList<>();
    for (int k = 0; k < 5; k++) {
      VersionedKey key = key(k + 1);
      ours.add(AesSivAead.create(key));
      tink.add(tink(key));
    }
    CiphertextChecks.runConcurrently(4, () -> {
      for (int i = 0; i < 2_000; i++) {
        int k = (i * 3 + 1) % ours.size();
        byte[] m = TestKeys.randomBytes(i % 40);
        assertArrayEquals(tink.get(k).encryptDeterministically(m, null), ours.get(k).encryptDeterministically(m, null));
      }
      return null;
    });
  }
}
