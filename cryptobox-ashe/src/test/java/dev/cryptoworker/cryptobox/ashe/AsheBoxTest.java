package dev.cryptoworker.cryptobox.ashe;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cryptoworker.cryptobox.KeyRing;
import dev.cryptoworker.cryptobox.SecretKeyAccess;
import dev.cryptoworker.cryptobox.SecretKeyBytes;
import dev.cryptoworker.cryptobox.VersionedKey;
import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class AsheBoxTest {
  private static AsheBox box(AtomicLong counter, boolean ints) throws GeneralSecurityException {
    byte[] k = new byte[32];
    new SecureRandom().nextBytes(k);
    return AsheBox.create(KeyRing.of(new VersionedKey(5, SecretKeyBytes.copyOf(k, SecretKeyAccess.insecure()))), counter::incrementAndGet, ints);
  }

  @Test
  void sumsOfCiphertextsDecryptToSumsWithWrapAround() throws Exception {
    AtomicLong ids = new AtomicLong();
    AsheBox box = box(ids, false);
    SplittableRandom r = new SplittableRandom(1);
    for (int trial = 0; trial < 50; trial++) {
      AsheSum sum = new AsheSum(5);
      long expected = 0;
      int n = 1 + r.nextInt(500);
      for (int i = 0; i < n; i++) {
        long m = switch (i % 4) {
          case 0 -> r.nextLong();               // wraps around
          case 1 -> -r.nextLong(1_000_000);     // negatives
          case 2 -> Long.MAX_VALUE;
          default -> r.nextLong(1000);
        };
        expected += m;
        sum.add(AsheCell.parse(box.encrypt(ByteBuffer.allocate(8).putLong(m).array(), null)));
      }
      assertEquals(expected, box.decrypt(sum));
      assertEquals(n, sum.count());
      // A sparse subset (every other id) still decrypts: one run per id.
      assertEquals(expected, box.decrypt(AsheSum.parse(sum.toBytes())));
    }
  }

  @Test
  void sparseAndMergedPartialSums() throws Exception {
    AtomicLong ids = new AtomicLong(100);
    AsheBox box = box(ids, false);
    AsheSum a = new AsheSum(5);
    AsheSum b = new AsheSum(5);
    long expected = 0;
    for (int i = 0; i < 300; i++) {
      AsheCell c = box.encrypt(i * 3L - 400, 77, ids.incrementAndGet());
      (i % 3 == 0 ? a : b).add(c); // interleaved: each partial has many runs
      expected += i * 3L - 400;
    }
    assertTrue(a.ids().byNonce().get(77L).runCount() > 50);
    assertEquals(expected, box.decrypt(a.add(b)));
    assertEquals(1, a.ids().byNonce().get(77L).runCount(), "merged partials collapse into one run");
  }

  @Test
  void sumsOfMoreRunsThanOneAesCallTakesDecrypt() throws Exception {
    AsheBox box = box(new AtomicLong(), false);
    SplittableRandom r = new SplittableRandom(6);
    AsheSum sum = new AsheSum(5);
    long expected = 0;
    long id = 0;
    for (int i = 0; i < 3000; i++) {
      id += 1 + r.nextInt(3); // runs of one or two, starting at odd and even identifiers
      long nonce = i % 2 == 0 ? 0x1234L : -0x55L; // two nonces, one of them above 2^63 unsigned
      long m = r.nextLong();
      sum.add(box.encrypt(m, nonce, id));
      expected += m;
    }
    assertTrue(sum.ids().byNonce().get(0x1234L).runCount() > 1024, "runs span several AES calls");
    assertEquals(expected, box.decrypt(sum));
    assertEquals(expected, box.decrypt(AsheSum.parse(sum.toBytes())));
  }

  @Test
  void codecWritesTheSmallerLayoutByteForByte() {
    assertEquals("000205000202", HexFormat.of().formatHex(IdSetCodec.encode(new IdSet().add(5).addRun(7, 9))),
        "a tie keeps the run layout");
    assertEquals("01020307", HexFormat.of().formatHex(IdSetCodec.encode(new IdSet().add(3).add(10))));
    assertEquals("0101c801", HexFormat.of().formatHex(IdSetCodec.encode(new IdSet().add(200))));
    assertEquals("0001c8018f4e", HexFormat.of().formatHex(IdSetCodec.encode(new IdSet().addRun(200, 10_199))));
  }

  @Test
  void singleValuesRoundTripAndAreRandomized() throws Exception {
    AtomicLong ids = new AtomicLong();
    AsheBox longs = box(ids, false);
    byte[] v = ByteBuffer.allocate(8).putLong(-42).array();
    byte[] c1 = longs.encrypt(v, null);
    byte[] c2 = longs.encrypt(v, null);
    assertEquals(AsheCell.LEASED_LENGTH, c1.length);
    assertNotEquals(ByteBuffer.wrap(c1, 5, 8).getLong(), ByteBuffer.wrap(c2, 5, 8).getLong());
    assertArrayEquals(v, longs.decrypt(c1, null));
    AsheBox ints = box(ids, true);
    byte[] iv = ByteBuffer.allocate(4).putInt(Integer.MIN_VALUE).array();
    assertArrayEquals(iv, ints.decrypt(ints.encrypt(iv, null), null));
    assertThrows(IllegalArgumentException.class, () -> ints.encrypt(new byte[8], null));
    assertThrows(GeneralSecurityException.class, () -> longs.decrypt(new byte[7], null));
    GeneralSecurityException wrongKey = assertThrows(GeneralSecurityException.class,
        () -> longs.decrypt(new AsheCell(99, 1, 3, 1).toBytes(), null));
    assertTrue(wrongKey.getMessage().contains("key id"));
  }

  @Test
  void idSetsRejectDuplicatesAndKeepRuns() {
    IdSet s = new IdSet().add(5).add(7).add(6).addRun(10, 20).add(1);
    assertEquals(3, s.runCount());
    assertEquals(1 + 3 + 11, s.size());
    assertThrows(IllegalArgumentException.class, () -> s.add(15));
    assertThrows(IllegalArgumentException.class, () -> s.addRun(19, 25));
    assertThrows(IllegalArgumentException.class, () -> s.add(0));
    assertEquals(s, IdSetCodec.decode(IdSetCodec.encode(s)));
  }

  @Test
  void codecRoundTripsAndPicksTheSmallerLayout() {
    SplittableRandom r = new SplittableRandom(3);
    for (int trial = 0; trial < 200; trial++) {
      IdSet s = new IdSet();
      Set<Long> used = new HashSet<>();
      long next = 1 + r.nextLong(1000);
      int n = r.nextInt(300);
      boolean dense = r.nextBoolean();
      for (int i = 0; i < n; i++) {
        next += dense ? (r.nextInt(10) == 0 ? 1 + r.nextInt(100) : 1) : 1 + r.nextInt(1 << 20);
        s.add(next);
        used.add(next);
      }
      byte[] bytes = IdSetCodec.encode(s);
      assertEquals(s, IdSetCodec.decode(bytes));
      assertEquals(used.size(), IdSetCodec.decode(bytes).size());
    }
    IdSet run = new IdSet().addRun(1, 1_000_000);
    assertTrue(IdSetCodec.encode(run).length <= 8, "a million consecutive ids fit in a few bytes");
  }

  @Test
  void codecRejectsMalformedInputWithOneExceptionType() {
    SplittableRandom r = new SplittableRandom(4);
    int rejected = 0;
    for (int i = 0; i < 20_000; i++) {
      byte[] b = new byte[r.nextInt(24)];
      r.nextBytes(b);
      if (b.length > 0 && r.nextBoolean()) {
        b[0] = (byte) r.nextInt(2);
      }
      try {
        IdSetCodec.decode(b);
      } catch (IllegalArgumentException e) {
        rejected++;
      }
    }
    assertTrue(rejected > 10_000, "most random inputs are malformed: " + rejected);
    assertThrows(IllegalArgumentException.class,
        () -> IdSetCodec.decode(new byte[] {0, (byte) 0xff, (byte) 0xff, (byte) 0xff, 0x7f}));
  }
}
