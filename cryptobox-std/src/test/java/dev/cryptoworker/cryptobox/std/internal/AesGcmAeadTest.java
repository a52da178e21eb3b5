package dev.cryptoworker.cryptobox.std.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.google.crypto.tink.Aead;
import com.google.crypto.tink.InsecureSecretKeyAccess;
import com.google.crypto.tink.aead.AesGcmKey;
import com.google.crypto.tink.aead.AesGcmParameters;
import com.google.crypto.tink.subtle.AesGcmJce;
import com.google.crypto.tink.util.SecretBytes;
import dev.cryptoworker.cryptobox.CiphertextChecks;
import dev.cryptoworker.cryptobox.SecretKeyAccess;
import dev.cryptoworker.cryptobox.TestKeys;
import dev.cryptoworker.cryptobox.VersionedKey;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link AesGcmAead} against Tink's own AES-GCM: the same format, in both directions. */
class AesGcmAeadTest {
  private static final SecureRandom RANDOM = new SecureRandom();

  private static VersionedKey key(int id) {
    return TestKeys.random(id, 32);
  }

  /** Tink's own AES-GCM of {@code key}, in the same format: the reference {@link AesGcmAead} is tested against. */
  private static Aead tink(VersionedKey key) throws GeneralSecurityException {
    AesGcmParameters parameters =
        AesGcmParameters.builder()
            .setKeySizeBytes(32)
            .setIvSizeBytes(12)
            .setTagSizeBytes(16)
            .setVariant(AesGcmParameters.Variant.TINK)
            .build();
    return AesGcmJce.create(
        AesGcmKey.builder()
            .setParameters(parameters)
            .setKeyBytes(key.key().withCopy(SecretKeyAccess.insecure(),
                raw -> SecretBytes.copyFrom(raw, InsecureSecretKeyAccess.get())))
            .setIdRequirement(key.keyId())
            .build());
  }

  @Test
  void tinkAndThisClassReadEachOthersCiphertexts() throws Exception {
    for (int i = 0; i < 200; i++) {
      VersionedKey key = key(RANDOM.nextInt());
      Aead ours = new AesGcmAead(key);
      Aead tink = tink(key);
      byte[] m = TestKeys.randomBytes(RANDOM.nextInt(300));
      byte[] ad = i % 5 == 0 ? null : TestKeys.randomBytes(RANDOM.nextInt(40));
      assertArrayEquals(m, tink.decrypt(ours.encrypt(m, ad), ad), "Tink reads ours");
      assertArrayEquals(m, ours.decrypt(tink.encrypt(m, ad), ad), "we read Tink's");
    }
  }

  @Test
  void rejectsWhatTinkRejects() throws Exception {
    VersionedKey key = key(42);
    Aead ours = new AesGcmAead(key);
    byte[] ad = TestKeys.randomBytes(8);
    byte[] c = ours.encrypt(TestKeys.randomBytes(20), ad);
    CiphertextChecks.assertAlterationsRejected(c, altered -> ours.decrypt(altered, ad));
    assertThrows(GeneralSecurityException.class, () -> ours.decrypt(c, TestKeys.randomBytes(8)));
    assertThrows(GeneralSecurityException.class, () -> new AesGcmAead(key(42)).decrypt(c, ad));
  }

  /** Threads alternating between keys (one per column in CryptoWorker) never mix them up. */
  @Test
  void threadsAlternatingBetweenKeysKeepThemApart() throws Exception {
    List<VersionedKey> keys = new ArrayList<>();
    List<Aead> ours = new ArrayList<>();
    List<Aead> tink = new ArrayList<>();
    for (int k = 0; k < 6; k++) {
      keys.add(key(k + 1));
      ours.add(new AesGcmAead(keys.get(k)));
      tink.add(tink(keys.get(k)));
    }
    CiphertextChecks.runConcurrently(4, () -> {
      for (int i = 0; i < 2_000; i++) {
        int k = (i * 7 + 3) % keys.size();
        byte[] m = TestKeys.randomBytes(i % 50);
        byte[] c = ours.get(k).encrypt(m, null);
        assertArrayEquals(m, tink.get(k).decrypt(c, null));
        assertThrows(GeneralSecurityException.class, () -> tink.get((k + 1) % keys.size()).decrypt(c, null));
      }
      return null;
    });
  }
}
