package dev.cryptoworker.cryptobox.std;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.google.crypto.tink.Aead;
import dev.cryptoworker.cryptobox.CiphertextChecks;
import dev.cryptoworker.cryptobox.VersionedKey;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link AesGcmAead} against Tink's own AES-GCM: the same format, in both directions. */
class AesGcmAeadTest {
  private static final SecureRandom RANDOM = new SecureRandom();

  private static byte[] random(int n) {
    byte[] b = new byte[n];
    RANDOM.nextBytes(b);
    return b;
  }

  @Test
  void tinkAndThisClassReadEachOthersCiphertexts() throws Exception {
    for (int i = 0; i < 200; i++) {
      VersionedKey key = RandomizedBoxTest.key(RANDOM.nextInt());
      Aead ours = new AesGcmAead(key);
      Aead tink = RandomizedBox.tinkAeadFor(key);
      byte[] m = random(RANDOM.nextInt(300));
      byte[] ad = i % 5 == 0 ? null : random(RANDOM.nextInt(40));
      assertArrayEquals(m, tink.decrypt(ours.encrypt(m, ad), ad), "Tink reads ours");
      assertArrayEquals(m, ours.decrypt(tink.encrypt(m, ad), ad), "we read Tink's");
    }
  }

  @Test
  void rejectsWhatTinkRejects() throws Exception {
    VersionedKey key = RandomizedBoxTest.key(42);
    Aead ours = new AesGcmAead(key);
    byte[] ad = random(8);
    byte[] c = ours.encrypt(random(20), ad);
    CiphertextChecks.assertAlterationsRejected(c, altered -> ours.decrypt(altered, ad));
    assertThrows(GeneralSecurityException.class, () -> ours.decrypt(c, random(8)));
    assertThrows(GeneralSecurityException.class, () -> new AesGcmAead(RandomizedBoxTest.key(42)).decrypt(c, ad));
  }

  /** Threads alternating between keys (one per column in CryptoWorker) never mix them up. */
  @Test
  void threadsAlternatingBetweenKeysKeepThemApart() throws Exception {
    List<VersionedKey> keys = new ArrayList<>();
    List<Aead> ours = new ArrayList<>();
    List<Aead> tink = new ArrayList<>();
    for (int k = 0; k < 6; k++) {
      keys.add(RandomizedBoxTest.key(k + 1));
      ours.add(new AesGcmAead(keys.get(k)));
      tink.add(RandomizedBox.tinkAeadFor(keys.get(k)));
    }
    CiphertextChecks.runConcurrently(4, () -> {
      for (int i = 0; i < 2_000; i++) {
        int k = (i * 7 + 3) % keys.size();
        byte[] m = random(i % 50);
        byte[] c = ours.get(k).encrypt(m, null);
        assertArrayEquals(m, tink.get(k).decrypt(c, null));
        assertThrows(GeneralSecurityException.class, () -> tink.get((k + 1) % keys.size()).decrypt(c, null));
      }
      return null;
    });
  }
}
