package dev.cryptoworker.cryptobox;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.security.GeneralSecurityException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/** Checks shared by the boxes' tests (published as this module's test jar). */
public final class CiphertextChecks {
  private CiphertextChecks() {}

  /** Decrypts or throws. */
  @FunctionalInterface
  public interface Decryption {
    void decrypt(byte[] ciphertext) throws GeneralSecurityException;
  }

  /** Builds a box from a ring, as the client does. */
  @FunctionalInterface
  public interface BoxFactory {
    CryptoBox create(KeyRing keys) throws GeneralSecurityException;
  }

  /**
   * Building a box leaves the ring's keys as they were (a key provider caches rings and hands the
   * same ring to every box of a column, so a box wipes only its own temporary copies), and a
   * second box built from the same ring reads the first one's ciphertexts.
   */
  public static void assertKeysLeftIntact(KeyRing ring, BoxFactory factory, byte[] plaintext)
      throws GeneralSecurityException {
    List<byte[]> before = new ArrayList<>();
    for (VersionedKey k : ring.keys()) {
      before.add(TestKeys.bytesOf(k));
    }
    CryptoBox first = factory.create(ring);
    for (int i = 0; i < before.size(); i++) {
      assertArrayEquals(before.get(i), TestKeys.bytesOf(ring.keys().get(i)), "key " + i + " of the ring changed");
    }
    byte[] ad = AssociatedData.of("value", plaintext);
    assertArrayEquals(plaintext, factory.create(ring).decrypt(first.encrypt(plaintext, ad), ad));
  }

  /** Every single-bit alteration and every truncation of {@code ciphertext} is rejected. */
  public static void assertAlterationsRejected(byte[] ciphertext, Decryption decryption) {
    for (int bit = 0; bit < ciphertext.length * 8; bit++) {
      byte[] altered = ciphertext.clone();
      altered[bit / 8] ^= (byte) (1 << (bit % 8));
      assertThrows(GeneralSecurityException.class, () -> decryption.decrypt(altered), "bit " + bit + " flipped");
    }
    for (int n = 0; n < ciphertext.length; n++) {
      byte[] truncated = Arrays.copyOf(ciphertext, n);
      assertThrows(GeneralSecurityException.class, () -> decryption.decrypt(truncated), "truncated to " + n);
    }
  }

  /** Runs {@code task} on {@code threads} threads at once and rethrows the first failure. */
  public static void runConcurrently(int threads, Callable<?> task) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<?>> running = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        running.add(pool.submit(task));
      }
      for (Future<?> f : running) {
        f.get();
      }
    } finally {
      pool.shutdown();
    }
  }
}
