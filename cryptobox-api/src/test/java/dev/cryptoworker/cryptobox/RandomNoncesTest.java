package dev.cryptoworker.cryptobox;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

class RandomNoncesTest {
  private static final int IV = 12;

  @Test
  void noncesNeverRepeatAcrossThreadsAndDraws() throws Exception {
    RandomNonces nonces = RandomNonces.withBudget(1L << 32, "test key");
    int threads = 4;
    int perThread = 5 * RandomNonces.DRAW_BYTES / IV; // five draws per thread
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<List<String>>> drawn = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        drawn.add(pool.submit(() -> {
          List<String> mine = new ArrayList<>();
          for (int i = 0; i < perThread; i++) {
            byte[] iv = new byte[IV];
            nonces.fill(iv, 0, IV);
            mine.add(HexFormat.of().formatHex(iv));
          }
          return mine;
        }));
      }
      Set<String> seen = new HashSet<>();
      for (Future<List<String>> f : drawn) {
        for (String iv : f.get()) {
          assertTrue(seen.add(iv), "nonce " + iv + " drawn twice");
        }
      }
      assertEquals(threads * perThread, seen.size());
      assertEquals(threads * perThread, nonces.used());
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void refusesNoncesBeyondTheBudgetNamingTheKey() throws GeneralSecurityException {
    RandomNonces nonces = RandomNonces.withBudget(3, "AES-GCM key 7");
    byte[] iv = new byte[IV];
    for (int i = 0; i < 3; i++) {
      nonces.fill(iv, 0, IV);
    }
    for (int i = 0; i < 2; i++) {
      GeneralSecurityException e = assertThrows(GeneralSecurityException.class, () -> nonces.fill(iv, 0, IV));
      assertTrue(e.getMessage().startsWith("AES-GCM key 7 has used its budget of 3 random nonces"), e.getMessage());
    }
    assertEquals(3, nonces.used(), "refusals do not count");
  }

  @Test
  void countsEveryUseOfAKeyInTheProcessTogether() throws GeneralSecurityException {
    byte[] raw = new byte[32];
    new SecureRandom().nextBytes(raw);
    SecretKeyBytes key = SecretKeyBytes.copyOf(raw, SecretKeyAccess.insecure());
    raw[0] ^= 1;
    SecretKeyBytes other = SecretKeyBytes.copyOf(raw, SecretKeyAccess.insecure());
    RandomNonces first = RandomNonces.forKey(key, 3, "key 1");
    RandomNonces second = RandomNonces.forKey(key, 3, "key 1");
    RandomNonces otherKey = RandomNonces.forKey(other, 3, "key 2");
    byte[] iv = new byte[IV];
    first.fill(iv, 0, IV);
    first.fill(iv, 0, IV);
    second.fill(iv, 0, IV);
    assertEquals(3, first.used());
    assertThrows(GeneralSecurityException.class, () -> second.fill(iv, 0, IV), "the key's budget is spent");
    otherKey.fill(iv, 0, IV);
    assertEquals(1, otherKey.used(), "another key has its own count");
  }

  @Test
  void writesOnlyTheRangeAskedForAtAnyLength() throws GeneralSecurityException {
    RandomNonces nonces = RandomNonces.withBudget(10, "test key");
    for (int length : List.of(IV, 16, RandomNonces.DRAW_BYTES + 1)) {
      byte[] out = new byte[length + 10];
      nonces.fill(out, 5, length);
      for (int i : List.of(0, 1, 2, 3, 4, length + 5, length + 6, length + 7, length + 8, length + 9)) {
        assertEquals(0, out[i], "byte " + i + " outside the nonce of " + length + " bytes");
      }
      boolean allZero = true;
      for (int i = 5; i < 5 + length; i++) {
        allZero &= out[i] == 0;
      }
      assertFalse(allZero, "a " + length + "-byte nonce was left zero");
    }
  }

  @Test
  void refusesAnEmptyBudget() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> RandomNonces.withBudget(0, "test key"));
    assertEquals("a nonce budget must be at least 1, got 0", e.getMessage());
  }

  @Test
  void tryFillReportsASpentBudgetWithoutWriting() {
    RandomNonces nonces = RandomNonces.withBudget(2, "test salt");
    byte[] iv = new byte[IV];
    assertTrue(nonces.tryFill(iv, 0, IV));
    assertTrue(nonces.tryFill(iv, 0, IV));
    byte[] untouched = new byte[IV];
    assertFalse(nonces.tryFill(untouched, 0, IV));
    assertFalse(nonces.tryFill(untouched, 0, IV));
    assertEquals(2, nonces.used());
    assertEquals(HexFormat.of().formatHex(new byte[IV]), HexFormat.of().formatHex(untouched));
  }

  @Test
  void freshBytesFillOnlyTheirRangeAndDiffer() {
    Set<String> drawn = new HashSet<>();
    for (int i = 0; i < 20; i++) {
      byte[] out = new byte[IV + 4];
      RandomNonces.fillFresh(out, 2, IV);
      assertEquals(0, out[0] | out[1] | out[IV + 2] | out[IV + 3], "bytes outside the range");
      assertTrue(drawn.add(HexFormat.of().formatHex(out, 2, IV + 2)), "fresh bytes repeated");
    }
  }
}
