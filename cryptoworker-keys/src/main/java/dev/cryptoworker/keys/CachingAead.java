package dev.cryptoworker.keys;

import com.google.crypto.tink.Aead;
import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Remembers what a key-encryption key decrypted, for a time and a number of uses, as AWS's
 * hierarchical keyring caches branch keys: opening the same keyset again within them costs no call
 * to the KMS or token. Entries are keyed by a SHA-256 of the ciphertext and associated data; an
 * expired or used-up entry is wiped and decrypted afresh. Encryption always calls the key.
 */
final class CachingAead implements Aead {
  /** Keysets a process opens are few; beyond this many the oldest entry goes. */
  private static final int MAX_ENTRIES = 64;

  private static final class Entry {
    final byte[] plaintext;
    final Instant expires;
    long usesLeft;

    Entry(byte[] plaintext, Instant expires, long usesLeft) {
      this.plaintext = plaintext;
      this.expires = expires;
      this.usesLeft = usesLeft;
    }
  }

  private final Aead key;
  private final Duration ttl;
  private final long maxUses;
  private final Clock clock;
  private final Map<ByteBuffer, Entry> entries = new LinkedHashMap<>();

  CachingAead(Aead key, Duration ttl, long maxUses, Clock clock) {
    if (ttl.isNegative() || ttl.isZero() || maxUses < 1) {
      throw new IllegalArgumentException("a keyset cache needs a positive time to live and at least one use, got "
          + ttl + " and " + maxUses);
    }
    this.key = key;
    this.ttl = ttl;
    this.maxUses = maxUses;
    this.clock = clock;
  }

  @Override
  public byte[] encrypt(byte[] plaintext, byte[] associatedData) throws GeneralSecurityException {
    return key.encrypt(plaintext, associatedData);
  }

  @Override
  public synchronized byte[] decrypt(byte[] ciphertext, byte[] associatedData) throws GeneralSecurityException {
    Instant now = clock.instant();
    ByteBuffer name = name(ciphertext, associatedData);
    Entry entry = entries.get(name);
    if (entry != null && (entry.usesLeft == 0 || !now.isBefore(entry.expires))) {
      forget(name);
      entry = null;
    }
    if (entry == null) {
      entry = new Entry(key.decrypt(ciphertext, associatedData), now.plus(ttl), maxUses);
      entries.put(name, entry);
      if (entries.size() > MAX_ENTRIES) {
        forget(entries.keySet().iterator().next());
      }
    }
    entry.usesLeft--;
    return entry.plaintext.clone();
  }

  private void forget(ByteBuffer name) {
    Entry gone = entries.remove(name);
    if (gone != null) {
      Arrays.fill(gone.plaintext, (byte) 0);
    }
  }

  private static ByteBuffer name(byte[] ciphertext, byte[] associatedData) throws GeneralSecurityException {
    MessageDigest sha = MessageDigest.getInstance("SHA-256");
    byte[] ad = associatedData == null ? new byte[0] : associatedData;
    sha.update(ByteBuffer.allocate(4).putInt(ad.length).array());
    sha.update(ad);
    sha.update(ciphertext);
    return ByteBuffer.wrap(sha.digest());
  }
}
