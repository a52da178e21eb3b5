package dev.cryptoworker.cryptobox;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cryptoworker.cryptobox.WycheproofVectors.Group;
import dev.cryptoworker.cryptobox.WycheproofVectors.Report;
import java.security.GeneralSecurityException;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.opentest4j.AssertionFailedError;

/** The replay harness catches what it must: wrong outputs, accepted forgeries, inconsistency, vacuity. */
class WycheproofVectorsTest {
  private static final WycheproofVectors SELF_TEST =
      WycheproofVectors.load("/dev/cryptoworker/cryptobox/wycheproof_selftest.json");

  /** A one-byte cipher c = m + 1 whose ciphertexts are even; optionally broken. */
  private static final class ToyCipher {
    final boolean acceptsOdd;
    final boolean refusesToEncrypt3;

    ToyCipher(boolean acceptsOdd, boolean refusesToEncrypt3) {
      this.acceptsOdd = acceptsOdd;
      this.refusesToEncrypt3 = refusesToEncrypt3;
    }

    byte[] encrypt(byte[] m) throws GeneralSecurityException {
      if (refusesToEncrypt3 && m[0] == 3) {
        throw new GeneralSecurityException("refused");
      }
      return new byte[] {(byte) (m[0] + 1)};
    }

    byte[] decrypt(byte[] c) throws GeneralSecurityException {
      if (!acceptsOdd && c[0] % 2 != 0) {
        throw new GeneralSecurityException("not a ciphertext");
      }
      return new byte[] {(byte) (c[0] - 1)};
    }
  }

  private static boolean eightBit(Group g) {
    return g.parameter("keySize") == 8;
  }

  private static Report replay(ToyCipher cipher) {
    return SELF_TEST.replay(WycheproofVectorsTest::eightBit, (group, v, checks) -> {
      checks.encryption(() -> cipher.encrypt(v.bytes("msg")), v.bytes("ct"));
      checks.decryption(() -> cipher.decrypt(v.bytes("ct")), v.bytes("msg"));
    });
  }

  @Test
  void aCorrectPrimitivePassesWithExactCounts() {
    Report report = replay(new ToyCipher(false, false));
    report.assertPassed(1, 1, 1, 1);
    assertThrows(AssertionFailedError.class, () -> report.assertPassed(1, 1, 1, 0), "wrong expected counts");
  }

  @Test
  void anAcceptedInvalidVectorFails() {
    List<String> failures = replay(new ToyCipher(true, false)).failures();
    assertEquals(1, failures.size(), failures.toString());
    assertTrue(failures.get(0).contains("tcId 2") && failures.get(0).contains("accepted an invalid"), failures.get(0));
  }

  @Test
  void anInconsistentlyHandledAcceptableVectorFails() {
    List<String> failures = replay(new ToyCipher(false, true)).failures();
    assertEquals(1, failures.size(), failures.toString());
    assertTrue(failures.get(0).contains("tcId 3") && failures.get(0).contains("inconsistently"), failures.get(0));
  }

  @Test
  void wrongOutputsAndStrayExceptionsFail() {
    Report report = SELF_TEST.replay(WycheproofVectorsTest::eightBit, (group, v, checks) -> {
      checks.encryption(() -> new byte[] {9}, v.bytes("ct"));
      checks.decryption(() -> {
        throw new IllegalStateException("bug");
      }, v.bytes("msg"));
    });
    String all = String.join("\n", report.failures());
    assertTrue(all.contains("tcId 1") && all.contains("expected 02"), all);
    assertTrue(all.contains("IllegalStateException"), all);
  }

  @Test
  void replayingNothingFails() {
    Report report = SELF_TEST.replay(group -> false, (group, v, checks) -> { });
    assertThrows(AssertionFailedError.class, () -> report.assertPassed(0, 0, 0, 4));
  }
}
