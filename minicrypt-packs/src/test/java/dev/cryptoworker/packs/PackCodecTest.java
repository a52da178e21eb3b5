package dev.cryptoworker.packs;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cryptoworker.cryptobox.CryptoBox;
import dev.cryptoworker.cryptobox.KeyRing;
import dev.cryptoworker.cryptobox.TestKeys;
import dev.cryptoworker.cryptobox.std.RandomizedBox;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Sealing and opening packs: round trips, tampering, moved packs, padding, dictionaries, compression. */
class PackCodecTest {
  private static final CryptoBox BOX = box();
  private static final byte[] F = bytes("f");

  private static CryptoBox box() {
    try {
      return RandomizedBox.create(KeyRing.of(TestKeys.random(1, 32)));
    } catch (java.security.GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  /** A patient-like record: repeated field names, a few distinct values, some free text. */
  static PackRows records(long from, int count) {
    PackRows rows = new PackRows();
    String[] cities = {"Lisboa", "Porto", "Braga", "Coimbra", "Faro"};
    String[] conditions = {"hypertension", "type 2 diabetes", "asthma", "none", "migraine"};
    for (long i = from; i < from + count; i++) {
      SplittableRandom r = new SplittableRandom(i);
      byte[] row = bytes(String.format("patient-%08d", i));
      rows.put(row, F, bytes("name"), bytes("Patient " + (char) ('A' + r.nextInt(26)) + "ames " + r.nextInt(1000)));
      rows.put(row, F, bytes("city"), bytes(cities[r.nextInt(cities.length)]));
      rows.put(row, F, bytes("birth"), bytes(String.format("19%02d-%02d-%02d", r.nextInt(100), 1 + r.nextInt(12),
          1 + r.nextInt(28))));
      rows.put(row, F, bytes("condition"), bytes(conditions[r.nextInt(conditions.length)]));
      rows.put(row, F, bytes("notes"), bytes("Seen on " + r.nextInt(30) + " occasions; follow-up in "
          + r.nextInt(12) + " months; allergic to " + (r.nextBoolean() ? "penicillin" : "nothing known")));
    }
    return rows;
  }

  /** Rows with arbitrary bytes everywhere, empty keys, qualifiers and values included. */
  static PackRows arbitrary(SplittableRandom random, int count) {
    PackRows rows = new PackRows();
    for (int i = 0; i < count; i++) {
      byte[] row = new byte[random.nextInt(20)];
      random.nextBytes(row);
      for (int c = random.nextInt(1, 5); c > 0; c--) {
        byte[] family = new byte[1 + random.nextInt(3)];
        byte[] qualifier = new byte[random.nextInt(10)];
        byte[] value = new byte[random.nextInt(300)];
        random.nextBytes(family);
        random.nextBytes(qualifier);
        random.nextBytes(value);
        rows.put(row, family, qualifier, value);
      }
    }
    return rows;
  }

  private static PackCodec codec(String table, PackCompression compression, PackDictionary dictionary) {
    return PackCodec.builder(table, BOX).compression(compression)
        .dictionaries(v -> dictionary != null && v == dictionary.version() ? dictionary : null).build();
  }

  private static List<byte[]> samples(long from, int rows) {
    List<byte[]> out = new ArrayList<>();
    for (long i = from; i < from + rows; i++) {
      out.add(PackDictionaries.sampleOf(records(i, 1)));
    }
    return out;
  }

  @Test
  void everyCompressionRoundTripsWithAndWithoutADictionary() throws Exception {
    SplittableRandom random = new SplittableRandom(5);
    for (PackCompression c : PackCompression.values()) {
      PackDictionary dictionary = c.supportsDictionaries()
          ? PackDictionaries.train(c, 3, samples(10_000, 2_000), 16 << 10) : null;
      for (PackDictionary d : dictionary == null ? new PackDictionary[] {null} : new PackDictionary[] {null, dictionary}) {
        PackCodec codec = codec("t", c, d);
        for (PackRows rows : List.of(new PackRows(), records(0, 1), records(0, 50), arbitrary(random, 40))) {
          byte[] id = rows.isEmpty() ? new byte[0] : rows.keys().first();
          byte[] stored = codec.seal(id, rows, d);
          assertEquals(rows, codec.open(id, stored), c + " " + d);
        }
      }
    }
  }

  @Test
  void anyAlteredTruncatedOrMovedPackIsRefusedNamingTableAndPack() throws Exception {
    PackCodec codec = codec("patients", PackCompression.ZSTD, null);
    PackRows rows = records(100, 20);
    byte[] id = rows.keys().first();
    byte[] stored = codec.seal(id, rows, null);
    for (int i = 0; i < stored.length; i += Math.max(1, stored.length / 200)) {
      for (int bit = 0; bit < 8; bit += 3) {
        byte[] altered = stored.clone();
        altered[i] ^= (byte) (1 << bit);
        PackDecodingException e = assertThrows(PackDecodingException.class, () -> codec.open(id, altered));
        assertTrue(e.getMessage().startsWith("table patients, pack 'patient-00000100': does not decrypt"),
            e.getMessage());
      }
    }
    for (int n : new int[] {0, 1, 10, stored.length - 1}) {
      byte[] truncated = java.util.Arrays.copyOf(stored, n);
      assertThrows(PackDecodingException.class, () -> codec.open(id, truncated));
    }
    // Swapped into another pack id of the table, or into another table: refused.
    assertThrows(PackDecodingException.class, () -> codec.open(bytes("patient-00000101"), stored));
    PackDecodingException moved = assertThrows(PackDecodingException.class,
        () -> codec("appointments", PackCompression.ZSTD, null).open(id, stored));
    assertTrue(moved.getMessage().contains("moved from another pack id or table"), moved.getMessage());
    assertEquals(rows, codec.open(id, stored));
  }

  @Test
  void paddingLeavesOnlyTheTierVisible() throws Exception {
    PackCodec padded = PackCodec.builder("t", BOX).compression(PackCompression.LZ4)
        .padding(PackPadding.tiers(List.of(1024, 4096, 16384))).build();
    // One row compresses to well under 1 KiB: its stored size is the first tier plus the box's overhead.
    int overhead = padded.seal(bytes("a"), records(0, 1), null).length - 1024;
    assertTrue(overhead > 0 && overhead < 64, "box overhead " + overhead);
    Map<Integer, Integer> stored = new java.util.TreeMap<>();
    for (int count : new int[] {1, 2, 5, 10, 20, 40, 80, 200, 400}) {
      PackRows rows = records(0, count);
      byte[] id = rows.keys().first();
      byte[] sealed = padded.seal(id, rows, null);
      int body = sealed.length - overhead;
      assertTrue(body == 1024 || body == 4096 || body % 16384 == 0, count + " rows: " + body + " bytes");
      stored.put(count, sealed.length);
      assertEquals(rows, padded.open(id, sealed));
    }
    assertEquals(stored.get(1), stored.get(2));
    assertEquals(stored.get(1), stored.get(5));
    assertTrue(stored.get(400) > stored.get(20));
    assertEquals(1024, padded.paddedLength(1));
    assertEquals(4096, padded.paddedLength(1025));
    assertEquals(16384, padded.paddedLength(16384));
    assertEquals(32768, padded.paddedLength(16385));
    assertThrows(IllegalArgumentException.class, () -> PackPadding.tiers(List.of(4096, 1024)));
    assertThrows(IllegalArgumentException.class, () -> PackPadding.tiers(List.of()));
  }

  /** Padmé by default: at most 6.25% added from 1 KiB up, and lengths that differ a little store alike. */
  @Test
  void packsArePaddedWithPadmeByDefault() throws Exception {
    PackCodec codec = PackCodec.builder("t", BOX).compression(PackCompression.LZ4).build();
    // Padmé (PETS 2019, Algorithm 1): 9,000 has exponent 13, whose 4 bits stay with the leading one:
    // the lowest 9 bits are rounded up, so lengths from 8,705 to 9,216 all store as 9,216.
    assertEquals(9216, codec.paddedLength(9000));
    assertEquals(9216, codec.paddedLength(8705));
    assertEquals(8704, codec.paddedLength(8704));
    assertEquals(1, codec.paddedLength(1));
    assertEquals(16, codec.paddedLength(15));
    for (int n = 1024; n < 1 << 20; n += 97) {
      int padded = codec.paddedLength(n);
      assertTrue(padded >= n && padded <= n + n / 16, n + " padded to " + padded);
    }
    PackCodec unpadded = PackCodec.builder("t", BOX).compression(PackCompression.LZ4).padding(PackPadding.none()).build();
    PackRows rows = records(0, 40);
    byte[] id = rows.keys().first();
    byte[] sealed = codec.seal(id, rows, null);
    int bare = unpadded.seal(id, rows, null).length;
    assertTrue(sealed.length >= bare && sealed.length <= bare + bare / 8, bare + " -> " + sealed.length);
    assertEquals(rows, codec.open(id, sealed));
  }

  @Test
  void aPackNamesItsDictionaryAndOldOnesStayReadable() throws Exception {
    PackDictionary v1 = PackDictionaries.train(PackCompression.ZSTD, 1, samples(0, 2_000), 16 << 10);
    PackDictionary v2 = PackDictionaries.train(PackCompression.ZSTD, 2, samples(50_000, 2_000), 16 << 10);
    Map<Integer, PackDictionary> known = Map.of(1, v1, 2, v2);
    PackCodec codec = PackCodec.builder("t", BOX).dictionaries(known::get).build();
    PackRows rows = records(7, 5);
    byte[] id = rows.keys().first();
    byte[] old = codec.seal(id, rows, v1);
    byte[] renewed = codec.seal(id, rows, v2);
    assertEquals(rows, codec.open(id, old));
    assertEquals(rows, codec.open(id, renewed));
    PackDecodingException missing = assertThrows(PackDecodingException.class,
        () -> PackCodec.builder("t", BOX).dictionaries(v -> null).build().open(id, old));
    assertTrue(missing.getMessage().contains("dictionary version 1, which this table does not have"),
        missing.getMessage());
    assertThrows(IllegalArgumentException.class,
        () -> codec.seal(id, rows, PackDictionaries.train(PackCompression.DEFLATE, 3, samples(0, 10), 4096)));
    assertThrows(IllegalArgumentException.class, () -> PackDictionaries.train(PackCompression.LZ4, 1, samples(0, 10), 4096));
  }

  @Test
  void largerPacksAndDictionariesCompressBetter() throws Exception {
    // Ratios on structured rows: the property MiniCrypt rests on, and what a dictionary adds to small packs.
    for (PackCompression c : List.of(PackCompression.ZSTD, PackCompression.DEFLATE)) {
      PackDictionary dictionary = PackDictionaries.train(c, 1, samples(1_000_000, 3_000), 32 << 10);
      double one = ratio(c, 1, null);
      double fifty = ratio(c, 50, null);
      double fiveWithDictionary = ratio(c, 5, dictionary);
      double fiveWithout = ratio(c, 5, null);
      assertTrue(fifty > 1.5 * one, c + ": 50-row packs " + fifty + " against 1-row " + one);
      assertTrue(fiveWithDictionary > 1.3 * fiveWithout, c + ": 5 rows with a dictionary " + fiveWithDictionary
          + " against " + fiveWithout);
    }
    assertTrue(ratio(PackCompression.LZ4, 50, null) > 1.2);
    assertTrue(ratio(PackCompression.NONE, 50, null) < 1.0, "no compression: the headers only add bytes");
  }

  /** Serialized bytes over stored bytes for 40 packs of {@code rowsPerPack} rows. */
  private static double ratio(PackCompression c, int rowsPerPack, PackDictionary dictionary) throws Exception {
    PackCodec codec = codec("t", c, dictionary);
    long plain = 0;
    long stored = 0;
    for (int p = 0; p < 40; p++) {
      PackRows rows = records(p * 1_000L, rowsPerPack);
      plain += rows.serialize().length;
      stored += codec.seal(rows.keys().first(), rows, dictionary).length;
    }
    return (double) plain / stored;
  }

  @Test
  void printableIdsInMessages() {
    assertArrayEquals(bytes("'a\\x00b\\xFF'"), bytes(PackCodec.printable(new byte[] {'a', 0, 'b', (byte) 0xff})));
  }

  @Test
  void anEntryOpensOnlyUnderItsRowAndIdAndNeverAsAPack() throws Exception {
    PackCodec codec = codec("events", PackCompression.ZSTD, null);
    PackRows entry = new PackRows();
    entry.putIfNewer(bytes("row-1"), F, bytes("reading"), bytes("36.6 C"), new CellVersion(1_700_000_000_000L, 3));
    byte[] id = bytes("epoch-7/writer/3");
    byte[] stored = codec.sealEntry(bytes("row-1"), id, entry, null);
    assertEquals(entry, codec.openEntry(bytes("row-1"), id, stored));
    PackDecodingException otherRow = assertThrows(PackDecodingException.class,
        () -> codec.openEntry(bytes("row-2"), id, stored));
    assertTrue(otherRow.getMessage().startsWith("table events, row 'row-2', entry 'epoch-7/writer/3': does not"
        + " decrypt"), otherRow.getMessage());
    assertThrows(PackDecodingException.class, () -> codec.openEntry(bytes("row-1"), bytes("epoch-7/writer/4"), stored));
    assertThrows(PackDecodingException.class, () -> codec.open(bytes("row-1"), stored));
    byte[] pack = codec.seal(bytes("row-1"), entry, null);
    assertThrows(PackDecodingException.class, () -> codec.openEntry(bytes("row-1"), id, pack));
    assertThrows(PackDecodingException.class, () -> codec("other", PackCompression.ZSTD, null)
        .openEntry(bytes("row-1"), id, stored));
  }

  /**
   * An entry's stored size tells only its tier, not how well the row compressed (a size oracle for
   * whoever can insert rows, as in CRIME): a value that repeats the others and one that does not,
   * of the same length, are stored alike; without tiers they are not (the oracle the default closes).
   */
  @Test
  void entriesArePaddedToTiersByDefault() throws Exception {
    PackCodec codec = codec("events", PackCompression.ZSTD, null);
    PackCodec unpadded = PackCodec.builder("events", BOX).entryPaddingTiers().build();
    SplittableRandom random = new SplittableRandom(9);
    byte[] noise = new byte[60];
    random.nextBytes(noise);
    String guess = "penicillin penicillin penicillin penicillin penicillin pen";
    List<Integer> padded = new ArrayList<>();
    List<Integer> bare = new ArrayList<>();
    for (byte[] value : List.of(bytes(guess), java.util.HexFormat.of().formatHex(noise).substring(0, guess.length())
        .getBytes(StandardCharsets.US_ASCII))) {
      PackRows entry = new PackRows();
      entry.putIfNewer(bytes("row-1"), F, bytes("allergy"), value, new CellVersion(1_700_000_000_000L, 3));
      byte[] stored = codec.sealEntry(bytes("row-1"), bytes("e/1"), entry, null);
      assertEquals(entry, codec.openEntry(bytes("row-1"), bytes("e/1"), stored));
      padded.add(stored.length);
      bare.add(unpadded.sealEntry(bytes("row-1"), bytes("e/1"), entry, null).length);
    }
    assertEquals(padded.get(0), padded.get(1), "padded entries of one tier");
    assertTrue(bare.get(0) < bare.get(1), "unpadded, the repetitive value compresses smaller: " + bare);
    assertEquals(List.of(128, 256, 512, 1024, 2048, 4096), PackCodec.DEFAULT_ENTRY_PADDING_TIERS);
  }

  @Test
  void zstdWritesBareFramesAndStillReadsFullOnes() throws Exception {
    PackDictionary dictionary = PackDictionaries.train(PackCompression.ZSTD, 1, samples(0, 2_000), 16 << 10);
    Compressor zstd = Compressor.of(PackCompression.ZSTD);
    for (PackDictionary d : new PackDictionary[] {null, dictionary}) {
      byte[] rows = records(3, 10).serialize();
      byte[] full = d == null ? com.github.luben.zstd.Zstd.compress(rows, 3)
          : com.github.luben.zstd.Zstd.compress(rows, new com.github.luben.zstd.ZstdDictCompress(d.bytesUnsafe(), 3));
      byte[] bare = zstd.compress(rows, d);
      // the magic (4 bytes) and, with a dictionary, its id (4 more); the content size gives way to a window size
      assertTrue(full.length - bare.length >= (d == null ? 4 : 8), "bare " + bare.length + ", full " + full.length);
      assertArrayEquals(rows, zstd.decompress(bare, rows.length, d));
      assertArrayEquals(rows, zstd.decompress(full, rows.length, d), "a frame written before still opens");
      assertThrows(IllegalArgumentException.class, () -> zstd.decompress(bare, rows.length + 1, d));
    }
  }
}
