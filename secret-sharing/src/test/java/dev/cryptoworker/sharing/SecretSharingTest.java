package dev.cryptoworker.sharing;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cryptoworker.cryptobox.AssociatedData;
import dev.cryptoworker.cryptobox.KeyRing;
import dev.cryptoworker.cryptobox.TestKeys;
import dev.cryptoworker.cryptobox.std.RandomizedBox;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Every scheme: round trips from any threshold of shares, refusals, and corrupt shares found and corrected. */
class SecretSharingTest {
  private static final byte[] AD = AssociatedData.of("value", "t".getBytes(StandardCharsets.UTF_8));
  private static final int[][] PARAMETERS = {{3, 1, 1}, {4, 1, 1}, {5, 2, 1}, {6, 2, 2}, {8, 2, 2}, {10, 2, 2}};
  private static final int[] LENGTHS = {0, 1, 7, 100, 4096, 10_001};

  static List<SecretSharing> allSchemes(int n, int r, int z) throws GeneralSecurityException {
    SharingParameters p = new SharingParameters(n, r, z);
    List<SecretSharing> out = new ArrayList<>();
    for (SharingKind kind : SharingKind.values()) {
      if (kind == SharingKind.SHAMIR_P127) {
        continue; // shares 8-byte longs, not byte strings: PrimeShamirTest
      }
      out.add(SecretSharings.create(kind, p,
          kind == SharingKind.AES_RS ? RandomizedBox.create(KeyRing.of(TestKeys.random(1, 32))) : null));
    }
    return out;
  }

  private static Map<Integer, byte[]> pick(byte[][] shares, int[] indexes) {
    Map<Integer, byte[]> out = new HashMap<>();
    for (int i : indexes) {
      out.put(i, shares[i]);
    }
    return out;
  }

  @Test
  void everySchemeDecodesFromEveryThresholdOfShares() throws Exception {
    SplittableRandom random = new SplittableRandom(7);
    for (int[] p : PARAMETERS) {
      for (SecretSharing s : allSchemes(p[0], p[1], p[2])) {
        for (int length : LENGTHS) {
          byte[] value = new byte[length];
          random.nextBytes(value);
          byte[][] shares = s.split(value, AD);
          assertEquals(p[0], shares.length);
          int t = s.threshold();
          assertEquals(s.kind() == SharingKind.SHAMIR ? p[2] + 1 : p[0] - p[1], t);
          for (int[] subset : LinearCode.subsets(GfArithmeticTest.range(p[0]), t, 60)) {
            Reconstruction back = s.join(pick(shares, subset), AD);
            assertArrayEquals(value, back.value(), s.kind() + " " + java.util.Arrays.toString(p) + " from "
                + java.util.Arrays.toString(subset) + ", " + length + " bytes");
            assertEquals(Set.of(), back.corruptShares());
          }
          assertArrayEquals(value, s.join(pick(shares, GfArithmeticTest.range(p[0])), AD).value());
        }
      }
    }
  }

  @Test
  void shareSizesMatchTheSchemes() throws Exception {
    byte[] value = new byte[6000];
    Map<SharingKind, Integer> expected = Map.of(
        SharingKind.SHAMIR, 6016,
        SharingKind.PACKED_SHAMIR, 1536, // k = 8 - 2 - 2; chunks from 1 KiB are bit-sliced, a multiple of 64
        SharingKind.SECURE_RAID, 1536,
        SharingKind.AONT_RS, 1024, // (6000 + 16 + 32) / 6 = 1008, padded to a multiple of 64
        SharingKind.AES_RS, 1024); // (6000 + 33) / 6 (STD in stored format 1: 33 bytes), padded
    for (SecretSharing s : allSchemes(8, 2, 2)) {
      for (byte[] share : s.split(value, AD)) {
        assertEquals(ShareHeader.LENGTH + expected.get(s.kind()), share.length, s.kind().toString());
      }
    }
  }

  /**
   * A share that is not of this split (moved to another index, truncated, of another value or
   * scheme) is an erasure: the value still joins from the others, with the share reported corrupt,
   * or, with too few left, the refusal names it and why.
   */
  private static void assertErasure(SecretSharing s, byte[] value, Map<Integer, byte[]> given, int bad, String why)
      throws Exception {
    if (given.size() - 1 >= s.threshold()) {
      Reconstruction r = s.join(given, AD);
      assertArrayEquals(value, r.value(), s.kind() + ", share " + bad + " " + why);
      assertTrue(r.corruptShares().contains(bad), s.kind() + ": share " + bad + " not reported: " + r.corruptShares());
    } else {
      ShareDecodingException e = assertThrows(ShareDecodingException.class, () -> s.join(given, AD));
      assertTrue(e.getMessage().contains("need " + s.threshold() + " shares, have " + (given.size() - 1))
          && e.getMessage().contains("share " + bad + " " + why), e.getMessage());
    }
  }

  @Test
  void foreignSharesAreErasuresAndTooFewAreRefusedByName() throws Exception {
    byte[] value = "patient record".getBytes(StandardCharsets.UTF_8);
    int erasuresTolerated = 0;
    for (SecretSharing s : allSchemes(6, 2, 2)) {
      byte[][] shares = s.split(value, AD);
      int t = s.threshold();
      int[] tooFew = java.util.Arrays.copyOfRange(new int[] {0, 2, 5, 1}, 0, t - 1);
      ShareDecodingException few = assertThrows(ShareDecodingException.class, () -> s.join(pick(shares, tooFew), AD));
      assertTrue(few.getMessage().contains("need " + t + " shares, have " + (t - 1)), few.getMessage());
      int[] five = {0, 1, 2, 3, 5};
      Map<Integer, byte[]> moved = pick(shares, five);
      moved.put(4, shares[3]);
      moved.remove(3);
      assertErasure(s, value, moved, 4, "says it is share 3");
      Map<Integer, byte[]> truncated = pick(shares, five);
      truncated.put(2, java.util.Arrays.copyOf(shares[2], shares[2].length - 1));
      assertErasure(s, value, truncated, 2, "has " + (shares[2].length - 1) + " bytes");
      byte[][] other = s.split("another value, longer".getBytes(StandardCharsets.UTF_8), AD);
      Map<Integer, byte[]> mixed = pick(shares, five);
      mixed.put(3, other[3]);
      assertErasure(s, value, mixed, 3, "disagrees with the others on the value's length");
      Map<Integer, byte[]> even = pick(shares, new int[] {0, 1});
      even.put(2, other[2]);
      even.put(3, other[3]);
      ShareDecodingException split = assertThrows(ShareDecodingException.class, () -> s.join(even, AD));
      assertTrue(split.getMessage().contains("disagree on the value's length"), split.getMessage());
      erasuresTolerated += five.length - 1 >= t ? 1 : 0;
    }
    assertTrue(erasuresTolerated >= 3, "schemes that joined around a foreign share: " + erasuresTolerated);
    SecretSharing shamir = allSchemes(6, 2, 2).get(0);
    byte[][] raid = allSchemes(6, 2, 2).get(2).split(new byte[10], AD);
    ShareDecodingException scheme = assertThrows(ShareDecodingException.class,
        () -> shamir.join(pick(raid, new int[] {0, 1, 2, 3}), AD));
    assertTrue(scheme.getMessage().contains("made by scheme SECURE_RAID, not SHAMIR"), scheme.getMessage());
  }

  /**
   * Two writes of values of one length stored at the same place (two writers at one timestamp):
   * their shares are never decoded together. With exactly the threshold answering, a mix is refused
   * by name (keyless schemes would otherwise decode it into a wrong value); the split most shares
   * belong to decodes; a tie is refused.
   */
  @Test
  void sharesOfTwoSplitsAreNeverJoinedTogether() throws Exception {
    byte[] a = "diagnosis A: seasonal allergy".getBytes(StandardCharsets.UTF_8);
    byte[] b = "diagnosis B: fractured radius".getBytes(StandardCharsets.UTF_8);
    for (SecretSharing s : allSchemes(4, 1, 1)) {
      byte[][] first = s.split(a, AD);
      byte[][] second = s.split(b, AD);
      int t = s.threshold();
      Map<Integer, byte[]> atThreshold = pick(second, GfArithmeticTest.range(t));
      atThreshold.put(0, first[0]);
      ShareDecodingException mixed = assertThrows(ShareDecodingException.class, () -> s.join(atThreshold, AD),
          s.kind() + " decoded shares of two splits");
      // t - 1 shares of the second split against one of the first: too few left, or (t = 2) a tie.
      assertTrue(mixed.getMessage().contains("need " + t + " shares, have " + (t - 1))
          && mixed.getMessage().contains("share 0 belongs to another split")
          || t == 2 && mixed.getMessage().contains("shares belong to different splits"), mixed.getMessage());
      Map<Integer, byte[]> mostOfB = pick(second, new int[] {0, 1, 2, 3});
      mostOfB.put(3, first[3]);
      Reconstruction r = s.join(mostOfB, AD);
      assertArrayEquals(b, r.value(), s.kind().toString());
      assertEquals(Set.of(3), r.corruptShares(), s.kind().toString());
      Map<Integer, byte[]> even = pick(first, new int[] {0, 1});
      even.putAll(pick(second, new int[] {2, 3}));
      ShareDecodingException tie = assertThrows(ShareDecodingException.class, () -> s.join(even, AD));
      assertTrue(tie.getMessage().contains("shares belong to different splits"), tie.getMessage());
    }
  }

  /** A share of format 1 (7-byte header, no split id), made from a format-2 share. */
  private static byte[] formatOne(byte[] share) {
    byte[] old = new byte[share.length - ShareHeader.SPLIT_ID_LENGTH];
    System.arraycopy(share, 0, old, 0, ShareHeader.LENGTH_1);
    System.arraycopy(share, ShareHeader.LENGTH, old, ShareHeader.LENGTH_1, share.length - ShareHeader.LENGTH);
    old[0] = ShareHeader.FORMAT_1;
    return old;
  }

  /** Shares written before split ids (format 1) still join, read partially and regenerate as they were. */
  @Test
  void formatOneSharesStillJoin() throws Exception {
    byte[] value = new byte[3_000];
    new SplittableRandom(11).nextBytes(value);
    for (SecretSharing s : allSchemes(4, 1, 1)) {
      byte[][] shares = s.split(value, AD);
      byte[][] old = new byte[shares.length][];
      for (int i = 0; i < shares.length; i++) {
        old[i] = formatOne(shares[i]);
      }
      assertArrayEquals(value, s.join(pick(old, new int[] {0, 1, 2, 3}), AD).value(), s.kind().toString());
      assertArrayEquals(old[2], s.regenerate(pick(old, new int[] {0, 1, 3}), 2), s.kind().toString());
      if (s.partialReads().isPresent()) {
        PartialReads p = s.partialReads().orElseThrow();
        int[] data = p.dataSharesFor(old[0], 100, 50);
        Map<Integer, byte[]> needed = pick(old, p.keyShares());
        needed.putAll(pick(old, data));
        assertArrayEquals(Arrays.copyOfRange(value, 100, 150), p.read(needed, 100, 50), s.kind().toString());
      }
    }
  }

  /** One faulty cluster of four (n = 4, r = 1) no longer makes every value unreadable. */
  @Test
  void oneMalformedShareOfFourIsAnErasure() throws Exception {
    byte[] value = new byte[4_000];
    new SplittableRandom(5).nextBytes(value);
    for (SecretSharing s : allSchemes(4, 1, 1)) {
      byte[][] shares = s.split(value, AD);
      for (int bad = 0; bad < 4; bad++) {
        Map<Integer, byte[]> given = pick(shares, new int[] {0, 1, 2, 3});
        byte[] broken = shares[bad].clone();
        broken[3] ^= 0x01; // the header's length
        given.put(bad, broken);
        Reconstruction r = s.join(given, AD);
        assertArrayEquals(value, r.value(), s.kind() + ", share " + bad);
        assertEquals(Set.of(bad), r.corruptShares(), s.kind() + ", share " + bad);
      }
    }
  }

  @Test
  void corruptSharesAreCorrectedWithTwoSpareAndDetectedWithOne() throws Exception {
    byte[] value = "diagnosis: seasonal allergy, follow-up in six months".getBytes(StandardCharsets.UTF_8);
    for (SecretSharing s : allSchemes(8, 2, 2)) {
      for (int bad = 0; bad < 8; bad++) {
        byte[][] shares = s.split(value, AD);
        shares[bad][ShareHeader.LENGTH + 3] ^= 0x40;
        Reconstruction fixed = s.join(pick(shares, GfArithmeticTest.range(8)), AD);
        assertArrayEquals(value, fixed.value(), s.kind() + ", share " + bad + " corrupt");
        assertEquals(Set.of(bad), fixed.corruptShares(), s.kind().toString());
        // One spare share: the corruption is detected, never decoded into a wrong value.
        Map<Integer, byte[]> oneSpare = pick(shares, GfArithmeticTest.range(8));
        for (int i = 0; oneSpare.size() > s.threshold() + 1; i++) {
          if (i != bad) {
            oneSpare.remove(i);
          }
        }
        ShareDecodingException e = assertThrows(ShareDecodingException.class, () -> s.join(oneSpare, AD),
            s.kind() + ", share " + bad);
        assertTrue(e.getMessage().contains("disagree"), e.getMessage());
      }
    }
  }

  @Test
  void keyedAndCanariedSchemesDetectCorruptionEvenAtTheThreshold() throws Exception {
    for (SecretSharing s : allSchemes(6, 2, 2)) {
      if (s.kind() != SharingKind.AONT_RS && s.kind() != SharingKind.AES_RS) {
        continue;
      }
      byte[][] shares = s.split(new byte[300], AD);
      shares[1][ShareHeader.LENGTH + 10] ^= 1;
      assertThrows(ShareDecodingException.class, () -> s.join(pick(shares, new int[] {0, 1, 2, 3}), AD),
          s.kind().toString());
    }
    SecretSharing aes = allSchemes(6, 2, 2).get(4);
    byte[][] shares = aes.split(new byte[30], AD);
    ShareDecodingException e = assertThrows(ShareDecodingException.class,
        () -> aes.join(pick(shares, new int[] {0, 1, 2, 3}), AssociatedData.of("value", "other".getBytes())));
    assertTrue(e.getMessage().contains("does not decrypt"), e.getMessage());
  }

  @Test
  void impossibleParametersAreRefusedWithTheReason() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new SharingParameters(4, 2, 2));
    assertTrue(e.getMessage().contains("z + r must be below n"), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> new SharingParameters(1, 0, 0));
    assertThrows(IllegalArgumentException.class, () -> new SharingParameters(4, -1, 1));
    IllegalArgumentException noPrivacy = assertThrows(IllegalArgumentException.class,
        () -> SecretSharings.create(SharingKind.SHAMIR, new SharingParameters(4, 1, 0), null));
    assertTrue(noPrivacy.getMessage().contains("needs z >= 1"), noPrivacy.getMessage());
    assertThrows(IllegalArgumentException.class,
        () -> SecretSharings.create(SharingKind.AES_RS, new SharingParameters(4, 1, 0), null));
  }

  @Test
  void aMissingOrCorruptShareIsRegeneratedAsTheSplitMadeIt() throws Exception {
    byte[] value = new byte[3000];
    new SplittableRandom(11).nextBytes(value);
    for (SecretSharing s : allSchemes(6, 2, 2)) {
      byte[][] shares = s.split(value, AD);
      for (int missing = 0; missing < 6; missing++) {
        Map<Integer, byte[]> others = pick(shares, GfArithmeticTest.range(6));
        others.remove(missing);
        assertArrayEquals(shares[missing], s.regenerate(others, missing), s.kind() + ", share " + missing);
      }
      // With a corrupt share among five and enough spares to correct it (Shamir: any 3 decode), the
      // regenerated share is still the original one.
      if (s.kind() == SharingKind.SHAMIR) {
        Map<Integer, byte[]> withCorrupt = pick(shares, new int[] {0, 1, 2, 3, 4});
        byte[] bad = shares[2].clone();
        bad[ShareHeader.LENGTH] ^= 1;
        withCorrupt.put(2, bad);
        assertArrayEquals(shares[5], s.regenerate(withCorrupt, 5));
      }
    }
  }

  @Test
  void secureRaidReadsPartOfAValueFromTheKeySharesAndTheDataSharesHoldingIt() throws Exception {
    SplittableRandom random = new SplittableRandom(11);
    for (int[] p : PARAMETERS) {
      SecretSharing s = SecretSharings.create(SharingKind.SECURE_RAID, new SharingParameters(p[0], p[1], p[2]), null);
      PartialReads reads = s.partialReads().orElseThrow();
      int z = p[2];
      int k = p[0] - p[1] - z;
      assertArrayEquals(GfArithmeticTest.range(z), reads.keyShares());
      for (int length : new int[] {1, 100, 4096, 40_000}) {
        byte[] value = new byte[length];
        random.nextBytes(value);
        byte[][] shares = s.split(value, AD);
        for (int trial = 0; trial < 30; trial++) {
          int offset = random.nextInt(length + 8);
          int wanted = random.nextInt(Math.max(1, length / 3));
          int[] data = reads.dataSharesFor(shares[0], offset, wanted);
          int end = Math.min(length, offset + wanted);
          String what = java.util.Arrays.toString(p) + ", " + length + " bytes, [" + offset + ", +" + wanted + ")";
          if (offset >= end) {
            assertEquals(0, data.length, what);
          } else {
            assertTrue(data.length >= 1 && data.length <= k, what);
            for (int i : data) {
              assertTrue(i >= z && i < z + k, what + ": data share " + i);
            }
          }
          Map<Integer, byte[]> given = pick(shares, reads.keyShares());
          given.putAll(pick(shares, data));
          byte[] expected = offset >= end ? new byte[0] : java.util.Arrays.copyOfRange(value, offset, end);
          assertArrayEquals(expected, reads.read(given, offset, wanted), what);
        }
      }
    }
  }

  @Test
  void partialReadsRefuseMissingOrForeignSharesAndOtherSchemesHaveNone() throws Exception {
    SecretSharing s = SecretSharings.create(SharingKind.SECURE_RAID, new SharingParameters(6, 2, 2), null);
    PartialReads reads = s.partialReads().orElseThrow();
    byte[] value = new byte[2000];
    new SplittableRandom(3).nextBytes(value);
    byte[][] shares = s.split(value, AD);
    byte[][] other = s.split(new byte[3000], AD);
    int[] data = reads.dataSharesFor(shares[1], 0, 10);
    assertArrayEquals(new int[] {2}, data);
    Map<Integer, byte[]> noKey = pick(shares, new int[] {1, 2});
    assertTrue(assertThrows(ShareDecodingException.class, () -> reads.read(noKey, 0, 10)).getMessage()
        .contains("need 2 shares"));
    Map<Integer, byte[]> noData = pick(shares, new int[] {0, 1});
    assertThrows(ShareDecodingException.class, () -> reads.read(noData, 0, 10));
    Map<Integer, byte[]> mixed = pick(shares, new int[] {0, 1});
    mixed.put(2, other[2]);
    assertTrue(assertThrows(ShareDecodingException.class, () -> reads.read(mixed, 0, 10)).getMessage()
        .contains("share 2 disagrees with the others on the value's length"));
    assertThrows(IllegalArgumentException.class, () -> reads.dataSharesFor(shares[0], -1, 10));
    for (SecretSharing any : allSchemes(6, 2, 2)) {
      assertEquals(any.kind() == SharingKind.SECURE_RAID, any.partialReads().isPresent(), any.kind().toString());
    }
  }
}
