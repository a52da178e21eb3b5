package dev.cryptoworker.keys;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.crypto.tink.Aead;
import com.google.crypto.tink.subtle.AesGcmJce;
import dev.cryptoworker.cryptobox.BoxKind;
import dev.cryptoworker.cryptobox.SecretKeyBytes;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Unwrapped keysets cached with a time to live and a number of uses: one key call for many opens. */
class KeysetCacheTest {
  @TempDir Path dir;

  /** An AES-GCM key that counts its decryptions, standing in for the KMS or token call each one costs. */
  private static final class CountingAead implements Aead {
    final AtomicInteger decryptions = new AtomicInteger();
    private final Aead aead;

    CountingAead() throws GeneralSecurityException {
      aead = new AesGcmJce(new byte[32]);
    }

    @Override
    public byte[] encrypt(byte[] plaintext, byte[] associatedData) throws GeneralSecurityException {
      return aead.encrypt(plaintext, associatedData);
    }

    @Override
    public byte[] decrypt(byte[] ciphertext, byte[] associatedData) throws GeneralSecurityException {
      decryptions.incrementAndGet();
      return aead.decrypt(ciphertext, associatedData);
    }
  }

  private static KekSource countingSource(CountingAead aead) {
    return new KekSource() {
      @Override
      public String form() {
        return "counting:NAME";
      }

      @Override
      public KeyEncryptionKey open(KekUri uri, Map<String, String> environment) {
        uri.checkParameters();
        return KeyEncryptionKey.of(aead, uri.text());
      }
    };
  }

  @Test
  void tenThousandOpensMakeOneKeyCall() throws Exception {
    CountingAead counting = new CountingAead();
    KekSources sources = KekSources.of(List.of(countingSource(counting)));
    String uri = "counting:ten-thousand?cache-ttl=600&cache-uses=10000";
    Path file = dir.resolve("keyset.json");
    KeysetFiles.generate(file, sources.open(uri, Map.of()));
    String contents = Files.readString(file);
    KeyScope scope = KeyScope.rowKey("t", BoxKind.DET);
    SecretKeyBytes first = KeyProvider.fromKeysetFile(file, KeyEncryptionKey.of(counting, "uncached"))
        .keyRing(scope, 32).primary().key();
    counting.decryptions.set(0);
    for (int i = 0; i < 10_000; i++) {
      KeyProvider keys = KeyProvider.fromKeysetFileContents(contents, "keyset", sources.open(uri, Map.of()));
      assertTrue(first.equalsKey(keys.keyRing(scope, 32).primary().key()), "open " + i);
    }
    assertEquals(1, counting.decryptions.get(), "key calls for 10,000 opens");
    assertSame(sources.open(uri, Map.of()), sources.open(uri, Map.of()), "one caching key per URI in a process");
    KeyProvider.fromKeysetFileContents(contents, "keyset", sources.open(uri, Map.of()));
    assertEquals(2, counting.decryptions.get(), "the 10,001st open decrypts again");
    KeyProvider.fromKeysetFileContents(contents, "keyset", sources.open("counting:ten-thousand", Map.of()));
    assertEquals(3, counting.decryptions.get(), "a URI without cache parameters does not cache");
  }

  /** Every fromUri call finds its sources anew; a cached URI still gives the one caching key of the process. */
  @Test
  void fromUriSharesOneCachingKeyPerUri() throws Exception {
    Map<String, String> env = Map.of("CACHED_KEK", KeyEncryptionKey.generateBase64());
    assertSame(KeyEncryptionKey.fromUri("env:CACHED_KEK?cache-ttl=60", env),
        KeyEncryptionKey.fromUri("env:CACHED_KEK?cache-ttl=60", env));
  }

  /** A clock the test moves. */
  private static final class MovingClock extends Clock {
    Instant now = Instant.parse("2026-01-01T00:00:00Z");

    @Override
    public ZoneOffset getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(java.time.ZoneId zone) {
      return this;
    }

    @Override
    public Instant instant() {
      return now;
    }
  }

  @Test
  void entriesExpireAfterTheirTimeToLive() throws Exception {
    CountingAead counting = new CountingAead();
    MovingClock clock = new MovingClock();
    Aead cached = new CachingAead(counting, Duration.ofMinutes(5), 1_000, clock);
    byte[] ad = "ad".getBytes(StandardCharsets.UTF_8);
    byte[] sealed = counting.encrypt("keyset".getBytes(StandardCharsets.UTF_8), ad);
    cached.decrypt(sealed, ad);
    clock.now = clock.now.plus(Duration.ofMinutes(5)).minusMillis(1);
    cached.decrypt(sealed, ad);
    assertEquals(1, counting.decryptions.get());
    clock.now = clock.now.plusMillis(1);
    assertArrayEquals("keyset".getBytes(StandardCharsets.UTF_8), cached.decrypt(sealed, ad));
    assertEquals(2, counting.decryptions.get(), "decrypted again once the entry expired");
  }

  /** The cache answers only for the exact ciphertext and associated data it decrypted. */
  @Test
  void otherAssociatedDataOrATamperedCiphertextGoToTheKey() throws Exception {
    CountingAead counting = new CountingAead();
    Aead cached = new CachingAead(counting, Duration.ofMinutes(5), 1_000, new MovingClock());
    byte[] ad = "ad".getBytes(StandardCharsets.UTF_8);
    byte[] sealed = counting.encrypt("keyset".getBytes(StandardCharsets.UTF_8), ad);
    cached.decrypt(sealed, ad);
    assertThrows(GeneralSecurityException.class, () -> cached.decrypt(sealed, "other".getBytes(StandardCharsets.UTF_8)));
    byte[] tampered = sealed.clone();
    tampered[tampered.length - 1] ^= 1;
    assertThrows(GeneralSecurityException.class, () -> cached.decrypt(tampered, ad));
    assertEquals(3, counting.decryptions.get());
    assertThrows(IllegalArgumentException.class, () -> new CachingAead(counting, Duration.ZERO, 1, new MovingClock()));
  }
}
