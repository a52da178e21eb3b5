package dev.cryptoworker.cryptobox.ashe;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cryptoworker.cryptobox.IdentifierSource;
import dev.cryptoworker.cryptobox.KeyRing;
import dev.cryptoworker.cryptobox.SecretKeyAccess;
import dev.cryptoworker.cryptobox.SecretKeyBytes;
import dev.cryptoworker.cryptobox.VersionedKey;
import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;
import java.util.ArrayDeque;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;
import javax.crypto.Cipher;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;

/** Cell and sum layouts: known answers, legacy cells, lease nonces, and malformed input. */
class AsheCodecTest {
  private static final HexFormat HEX = HexFormat.of();
  private static final byte[] KEY = new byte[32];

  static {
    for (int i = 0; i < KEY.length; i++) {
      KEY[i] = (byte) (0x40 + i);
    }
  }

  /** (m, id, stored cell) written by commit e066eee, before lease nonces, under KEY as key 7. */
  private static final String[][] LEGACY = {
      {"42", "1", "01000000071c704a768e6a69f00000000000000001"},
      {"-1", "2", "010000000722d11492920167010000000000000002"},
      {"9223372036854775807", "3", "0100000007662791a67d3cd5bf0000000000000003"},
      {"0", "64", "0100000007d3cf17dc7d8f84760000000000000040"},
      {"123456789", "65", "0100000007be09cd6bdfb923e30000000000000041"},
      {"-987654321", "1000000007", "0100000007ebc6a50435c5caa8000000003b9aca07"},
  };
  /** Their sum as that commit's region servers returned it. */
  private static final String LEGACY_SUM = "0000000723087afc30b719b10000000000000006000301023d01c693ebdc0300";

  private static AsheBox box(IdentifierSource ids) throws GeneralSecurityException {
    return AsheBox.create(KeyRing.of(new VersionedKey(7, SecretKeyBytes.copyOf(KEY, SecretKeyAccess.insecure()))),
        ids, false);
  }

  @Test
  void legacyCellsAndSumsAreNonceZeroAndStillDecrypt() throws Exception {
    AsheBox box = box(() -> 1);
    AsheSum sum = new AsheSum(7);
    long total = 0;
    for (String[] v : LEGACY) {
      long m = Long.parseLong(v[0]);
      long id = Long.parseLong(v[1]);
      byte[] stored = HEX.parseHex(v[2]);
      assertEquals(new AsheCell(7, ByteBuffer.wrap(stored, 5, 8).getLong(), 0, id), AsheCell.parse(stored));
      assertArrayEquals(stored, box.encrypt(m, 0, id).toBytes(), "nonce 0 is the earlier PRF input");
      assertEquals(m, box.decryptNumber(stored));
      sum.add(AsheCell.parse(stored));
      total += m;
    }
    assertEquals(LEGACY_SUM, HEX.formatHex(sum.toBytes()), "a sum of legacy cells keeps the earlier wire form");
    assertEquals(total, box.decrypt(AsheSum.parse(HEX.parseHex(LEGACY_SUM))));
  }

  @Test
  void leasedCellsFollowTheSpecifiedLayoutAndPrfBlock() throws Exception {
    AsheBox box = box(() -> 1);
    long m = -123_456_789_012L;
    long nonce = 0x8877_6655_4433_2211L;
    long id = 1001; // F(n, 1001) is the second half of block n || 500, F(n, 1000) the first
    Cipher aes = Cipher.getInstance("AES/ECB/NoPadding");
    aes.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(KEY, "AES"));
    ByteBuffer out = ByteBuffer.wrap(aes.doFinal(ByteBuffer.allocate(16).putLong(nonce).putLong(500).array()));
    long expectedC = m - out.getLong(8) + out.getLong(0);

    byte[] stored = box.encrypt(m, nonce, id).toBytes();
    assertEquals("0100000007" + HEX.toHexDigits(expectedC) + "8877665544332211" + HEX.toHexDigits(id),
        HEX.formatHex(stored));
    assertEquals(new AsheCell(7, expectedC, nonce, id), AsheCell.parse(stored));
    assertEquals(m, box.decryptNumber(stored));
  }

  @Test
  void sumsMixLegacyAndLeasedCellsAcrossNonces() throws Exception {
    AtomicLong counter = new AtomicLong();
    AsheBox box = box(counter::incrementAndGet);
    AsheSum a = new AsheSum(7);
    AsheSum b = new AsheSum(7);
    long total = 0;
    for (String[] v : LEGACY) {
      a.add(AsheCell.parse(HEX.parseHex(v[2])));
      total += Long.parseLong(v[0]);
    }
    for (int i = 0; i < 100; i++) {
      if (i == 50) {
        counter.set(0); // the counter restarts: same identifiers, a new nonce
      }
      byte[] stored = box.encryptNumber(i * 1_000_003L);
      (i % 3 == 0 ? a : b).add(AsheCell.parse(stored));
      total += i * 1_000_003L;
    }
    assertEquals(total, box.decryptSum(List.of(a.toBytes(), b.toBytes())).value(), "two regions' partials");
    assertEquals(3, a.add(b).ids().byNonce().size(), "legacy, the first lease's nonce, the one after the restart");
    AsheSum parsed = AsheSum.parse(a.toBytes());
    assertEquals(a.ids(), parsed.ids());
    assertEquals(106, parsed.count());
    assertEquals(total, box.decrypt(parsed));
  }

  @Test
  void aSourceThatGoesBackNeverMakesTheBoxRepeatAPrfInput() throws Exception {
    // A counter that is restored, lost, lowered, and finally hands out one identifier forever.
    ArrayDeque<Long> ids = new ArrayDeque<>(List.of(1L, 2L, 3L, 4L, 2L, 3L, 4L, 5L, 1L, 9L, 9L, 9L));
    AsheBox box = box(ids::removeFirst);
    Set<String> inputs = new HashSet<>();
    Set<Long> nonces = new HashSet<>();
    AsheSum sum = new AsheSum(7);
    for (int i = 0; i < 12; i++) {
      AsheCell c = AsheCell.parse(box.encryptNumber(i));
      assertTrue(inputs.add(c.nonce() + "/" + c.id()), "PRF input " + c.nonce() + "/" + c.id() + " repeated");
      assertTrue(c.nonce() != 0);
      nonces.add(c.nonce());
      sum.add(c);
    }
    assertEquals(5, nonces.size(), "a new nonce exactly where the identifiers went back");
    assertEquals(66, box.decrypt(sum));
    GeneralSecurityException zero = assertThrows(GeneralSecurityException.class, () -> box(() -> 0).encryptNumber(1));
    assertTrue(zero.getMessage().contains("not a positive identifier"), zero.getMessage());
  }

  @Test
  void cellsRefuseMalformedInput() {
    byte[] leased = new AsheCell(7, 5, 9, 3).toBytes();
    assertEquals(AsheCell.LEASED_LENGTH, leased.length);
    assertEquals(AsheCell.LEGACY_LENGTH, new AsheCell(7, 5, 0, 3).toBytes().length);
    for (int length : new int[] {0, 1, 20, 22, 28, 30}) {
      assertRefused(new byte[length], length + " bytes");
    }
    byte[] badFormat = leased.clone();
    badFormat[0] = 2;
    assertRefused(badFormat, "format 2");
    byte[] zeroNonce = ByteBuffer.allocate(29).put((byte) 1).putInt(7).putLong(5).putLong(0).putLong(3).array();
    assertRefused(zeroNonce, "lease nonce 0");
    assertRefused(new AsheCell(7, 5, 9, 0).toBytes(), "identifier 0");
    assertRefused(new AsheCell(7, 5, 0, -4).toBytes(), "identifier -4");
  }

  private static void assertRefused(byte[] stored, String reason) {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> AsheCell.parse(stored));
    assertTrue(e.getMessage().contains(reason), e.getMessage());
  }

  @Test
  void identifierSetsByNonceHaveAnExactWireForm() {
    IdSetsByNonce s = new IdSetsByNonce().add(-1, 5).add(0, 2).add(3, 1).add(3, 2).add(-1, 6);
    // 0x02, 3 groups; nonce 0: runs {[2]}; nonce 3: runs {[1-2]}; nonce -1 (largest unsigned): {[5-6]}
    assertEquals("02" + "03"
        + "0000000000000000" + "03" + "010102"
        + "0000000000000003" + "04" + "00010101"
        + "ffffffffffffffff" + "04" + "00010501", HEX.formatHex(s.toBytes()));
    assertEquals(s, IdSetsByNonce.parse(s.toBytes()));
    assertEquals(5, IdSetsByNonce.parse(s.toBytes()).size());
    assertThrows(IllegalArgumentException.class, () -> s.add(3, 2), "a repeated PRF input is an error");
    assertEquals("00010a01", HEX.formatHex(new IdSetsByNonce().add(0, 10).add(0, 11).toBytes()), "legacy only");
  }

  @Test
  void identifierSetsByNonceRefuseMalformedInput() {
    String group3 = "0000000000000003" + "04" + "00010101";
    String group7 = "0000000000000007" + "04" + "00010101";
    for (String bad : new String[] {
        "", "02", "0200", "0201", "0201" + group3 + "00", // truncated, no group, trailing byte
        "0202" + group7 + group3, "0202" + group3 + group3, // nonces out of order, repeated
        "0201" + "0000000000000003" + "00", "0201" + "0000000000000003" + "05" + "00010101", // length 0, beyond
        "0201" + "0000000000000003" + "02" + "0000", // an empty group
        "0201" + "0000000000000000" + "04" + "00010101", // nonce 0 alone belongs in the legacy form
        "02ffffffff0f" + group3, // a group count beyond the input
        "0201" + "0000000000000003" + "04" + "00010000", // id 0
    }) {
      assertThrows(IllegalArgumentException.class, () -> IdSetsByNonce.parse(HEX.parseHex(bad)), bad);
    }
    SplittableRandom r = new SplittableRandom(5);
    byte[] valid = new IdSetsByNonce().add(1, 1).add(2, 5).add(2, 9).add(0, 4).toBytes();
    int refused = 0;
    for (int i = 0; i < 20_000; i++) { // any other exception fails the test
      byte[] b = valid.clone();
      b[r.nextInt(b.length)] ^= (byte) (1 + r.nextInt(255));
      try {
        IdSetsByNonce.parse(b);
      } catch (IllegalArgumentException expected) {
        refused++;
      }
    }
    assertTrue(refused > 10_000, "most altered encodings are malformed: " + refused);
    IllegalArgumentException countMismatch = assertThrows(IllegalArgumentException.class, () -> AsheSum.parse(
        HEX.parseHex("00000007" + "0000000000000000" + "0000000000000003" + "0202" + group3 + group7)));
    assertTrue(countMismatch.getMessage().contains("of 3 values carries 4"), countMismatch.getMessage());
  }
}
