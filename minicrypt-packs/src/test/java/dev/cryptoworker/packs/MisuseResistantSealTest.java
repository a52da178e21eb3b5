package dev.cryptoworker.packs;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.cryptoworker.cryptobox.CryptoBox;
import dev.cryptoworker.cryptobox.KeyRing;
import dev.cryptoworker.cryptobox.StoredFormat;
import dev.cryptoworker.cryptobox.TestKeys;
import dev.cryptoworker.cryptobox.det.DeterministicBox;
import dev.cryptoworker.cryptobox.std.RandomizedBox;
import java.security.GeneralSecurityException;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** Misuse-resistant sealing: fresh per seal, bound to its associated data, and old AES-GCM units still open. */
class MisuseResistantSealTest {
  private static final byte[] AD = "pack 7".getBytes();

  private static MisuseResistantSeal seal(CryptoBox legacy) throws GeneralSecurityException {
    return MisuseResistantSeal.of(DeterministicBox.create(KeyRing.of(TestKeys.random(1, 64)), StoredFormat.V2), legacy);
  }

  @Test
  void sealsAreFreshBoundAndOpenOnlyUnchanged() throws Exception {
    MisuseResistantSeal seal = seal(RandomizedBox.create(KeyRing.of(TestKeys.random(2, 32)), StoredFormat.V2));
    byte[] plain = "rows of a pack".getBytes();
    byte[] a = seal.encrypt(plain, AD);
    byte[] b = seal.encrypt(plain, AD);
    assertFalse(Arrays.equals(a, b), "equal inputs seal differently");
    assertArrayEquals(plain, seal.decrypt(a, AD));
    assertThrows(GeneralSecurityException.class, () -> seal.decrypt(a, "pack 8".getBytes()));
    for (int i = 0; i < a.length; i++) {
      byte[] altered = a.clone();
      altered[i] ^= 0x10;
      int at = i;
      assertThrows(GeneralSecurityException.class, () -> seal.decrypt(altered, AD), "byte " + at);
    }
    assertThrows(GeneralSecurityException.class, () -> seal.decrypt(Arrays.copyOf(a, a.length - 1), AD));
  }

  @Test
  void unitsSealedWithAesGcmBeforeStillOpen() throws Exception {
    CryptoBox gcm = RandomizedBox.create(KeyRing.of(TestKeys.random(2, 32)), StoredFormat.V2);
    PackRows rows = PackCodecTest.records(0, 20);
    byte[] id = rows.keys().first();
    byte[] before = PackCodec.builder("t", gcm).build().seal(id, rows, null);
    PackCodec now = PackCodec.builder("t", seal(gcm)).build();
    assertEquals(rows, now.open(id, before));
    byte[] after = now.seal(id, rows, null);
    assertEquals(rows, now.open(id, after));
    // The new form does not open under AES-GCM alone: it is not the old format.
    assertThrows(PackDecodingException.class, () -> PackCodec.builder("t", gcm).build().open(id, after));
  }
}
