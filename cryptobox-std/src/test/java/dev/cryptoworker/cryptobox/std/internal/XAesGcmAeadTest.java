package dev.cryptoworker.cryptobox.std.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.crypto.tink.Aead;
import com.google.crypto.tink.InsecureSecretKeyAccess;
import com.google.crypto.tink.aead.XAesGcmKey;
import com.google.crypto.tink.aead.XAesGcmParameters;
import com.google.crypto.tink.aead.internal.XAesGcm;
import com.google.crypto.tink.util.SecretBytes;
import dev.cryptoworker.cryptobox.CiphertextChecks;
import dev.cryptoworker.cryptobox.SecretKeyAccess;
import dev.cryptoworker.cryptobox.StoredFormat;
import dev.cryptoworker.cryptobox.TestKeys;
import dev.cryptoworker.cryptobox.VersionedKey;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;

/** {@link XAesGcmAead} against C2SP's vectors and Tink's own XAES-256-GCM, in both directions. */
class XAesGcmAeadTest {
  private static final SecureRandom RANDOM = new SecureRandom();
  private static final StoredFormat FORMAT = StoredFormat.V4;
  private static final int HEADER = FORMAT.headerLength();
  private static final int SALT = 12;
  private static final int NONCE = 24;

  private static VersionedKey key(int id) {
    return TestKeys.random(id, 32);
  }

  private static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  /** Tink's XAES-256-GCM of {@code key}, 12-byte salt, no prefix: what follows our header. */
  private static Aead tink(VersionedKey key) throws GeneralSecurityException {
    return XAesGcm.create(XAesGcmKey.create(XAesGcmParameters.create(XAesGcmParameters.Variant.NO_PREFIX, SALT),
        key.key().withCopy(SecretKeyAccess.insecure(), raw -> SecretBytes.copyFrom(raw, InsecureSecretKeyAccess.get())),
        null));
  }

  private static byte[] withoutHeader(byte[] c) {
    return Arrays.copyOfRange(c, HEADER, c.length);
  }

  private static byte[] withHeader(VersionedKey key, byte[] body) {
    byte[] header = FORMAT.header(key.keyId());
    byte[] out = Arrays.copyOf(header, header.length + body.length);
    System.arraycopy(body, 0, out, header.length, body.length);
    return out;
  }

  /**
   * C2SP's XAES-256-GCM test vectors (c2sp.org/XAES-256-GCM): the first has the top bit of L =
   * AES(K, 0) clear, the second set, so both branches of the CMAC subkey's doubling are covered.
   */
  @Test
  void reproducesAndOpensC2spVectors() throws Exception {
    String[][] vectors = {
        {"0101010101010101010101010101010101010101010101010101010101010101", "",
            "ce546ef63c9cc60765923609b33a9a1974e96e52daf2fcf7075e2271"},
        {"0303030303030303030303030303030303030303030303030303030303030303", "c2sp.org/XAES-256-GCM",
            "986ec1832593df5443a179437fd083bf3fdb41abd740a21f71eb769d"}};
    byte[] nonce = utf8("ABCDEFGHIJKLMNOPQRSTUVWX");
    byte[] plaintext = utf8("XAES-256-GCM");
    for (String[] v : vectors) {
      VersionedKey key = TestKeys.of(0x42, HexFormat.of().parseHex(v[0]));
      XAesGcmAead aead = new XAesGcmAead(key, FORMAT);
      byte[] ad = utf8(v[1]);
      byte[] c = aead.insecureEncryptWithNonce(nonce, plaintext, ad);
      assertEquals(0x42, c[0], "the key header");
      assertArrayEquals(nonce, Arrays.copyOfRange(c, HEADER, HEADER + NONCE));
      assertEquals(v[2], HexFormat.of().formatHex(Arrays.copyOfRange(c, HEADER + NONCE, c.length)));
      assertArrayEquals(plaintext, aead.decrypt(c, ad));
    }
  }

  @Test
  void tinkAndThisClassReadEachOthersCiphertexts() throws Exception {
    for (int i = 0; i < 200; i++) {
      VersionedKey key = key(RANDOM.nextInt());
      Aead ours = new XAesGcmAead(key, FORMAT);
      Aead tink = tink(key);
      byte[] m = TestKeys.randomBytes(RANDOM.nextInt(300));
      byte[] ad = i % 5 == 0 ? null : TestKeys.randomBytes(RANDOM.nextInt(40));
      byte[] c = ours.encrypt(m, ad);
      assertEquals(HEADER + NONCE + m.length + 16, c.length, "header, nonce, body, tag");
      assertArrayEquals(m, tink.decrypt(withoutHeader(c), ad), "Tink reads ours");
      assertArrayEquals(m, ours.decrypt(withHeader(key, tink.encrypt(m, ad)), ad), "we read Tink's");
    }
  }

  @Test
  void rejectsAlterationTruncationAWrongKeyAndOtherAssociatedData() throws Exception {
    VersionedKey key = key(0x1207);
    Aead ours = new XAesGcmAead(key, FORMAT);
    byte[] ad = TestKeys.randomBytes(8);
    byte[] c = ours.encrypt(utf8("patient record"), ad);
    CiphertextChecks.assertAlterationsRejected(c, altered -> ours.decrypt(altered, ad));
    assertThrows(GeneralSecurityException.class, () -> ours.decrypt(c, TestKeys.randomBytes(8)), "other AD");
    assertThrows(GeneralSecurityException.class, () -> ours.decrypt(c, null), "no AD");
    assertThrows(GeneralSecurityException.class, () -> new XAesGcmAead(key(0x1207), FORMAT).decrypt(c, ad),
        "same id, other key");
    GeneralSecurityException e = assertThrows(GeneralSecurityException.class,
        () -> ours.decrypt(Arrays.copyOf(c, HEADER + NONCE + 15), ad));
    assertEquals("ciphertext too short", e.getMessage());
  }

  /**
   * One salt serves {@value XAesGcmAead#SALT_MESSAGES} messages, from every thread together, then
   * a new one is drawn; no (salt, IV) repeats, and another instance of the same key (another
   * process, or a restart) draws salts of its own.
   */
  @Test
  void eachSaltServesItsBudgetThenANewOneIsDrawn() throws Exception {
    VersionedKey key = key(9);
    XAesGcmAead aead = new XAesGcmAead(key, FORMAT);
    int threads = 4;
    int perThread = XAesGcmAead.SALT_MESSAGES; // four salts' worth in all
    Map<String, Integer> perSalt = new ConcurrentHashMap<>();
    Set<String> nonces = ConcurrentHashMap.newKeySet();
    byte[] m = utf8("same");
    CiphertextChecks.runConcurrently(threads, () -> {
      for (int i = 0; i < perThread; i++) {
        byte[] c = aead.encrypt(m, null);
        String nonce = HexFormat.of().formatHex(c, HEADER, HEADER + NONCE);
        assertTrue(nonces.add(nonce), "nonce " + nonce + " drawn twice");
        perSalt.merge(nonce.substring(0, 2 * SALT), 1, Integer::sum);
        assertArrayEquals(m, aead.decrypt(c, null));
      }
      return null;
    });
    assertEquals(threads * perThread, nonces.size());
    assertEquals(threads, perSalt.size(), "salts drawn: " + perSalt);
    perSalt.values().forEach(n -> assertEquals(XAesGcmAead.SALT_MESSAGES, n, "messages under one salt"));
    String other = HexFormat.of().formatHex(new XAesGcmAead(key, FORMAT).encrypt(m, null), HEADER, HEADER + SALT);
    assertFalse(perSalt.containsKey(other), "a second instance reused salt " + other);
  }

  /** Reads remember the last salt per thread: ciphertexts of alternating salts still open under the right key. */
  @Test
  void readsAlternatingBetweenSaltsOpenEach() throws Exception {
    VersionedKey key = key(5);
    List<XAesGcmAead> writers = List.of(new XAesGcmAead(key, FORMAT), new XAesGcmAead(key, FORMAT));
    Aead reader = new XAesGcmAead(key, FORMAT);
    List<byte[]> plaintexts = new ArrayList<>();
    List<byte[]> ciphertexts = new ArrayList<>();
    Set<String> salts = new HashSet<>();
    for (int i = 0; i < 20; i++) {
      byte[] m = TestKeys.randomBytes(i);
      byte[] c = writers.get(i % 2).encrypt(m, null);
      salts.add(HexFormat.of().formatHex(c, HEADER, HEADER + SALT));
      plaintexts.add(m);
      ciphertexts.add(c);
    }
    assertEquals(2, salts.size());
    for (int i = 0; i < ciphertexts.size(); i++) {
      assertArrayEquals(plaintexts.get(i), reader.decrypt(ciphertexts.get(i), null), "ciphertext " + i);
    }
  }
}
