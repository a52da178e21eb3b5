package dev.cryptoworker.client.codec;

import dev.cryptoworker.cryptobox.SecretKeyAccess;
import dev.cryptoworker.cryptobox.VersionedKey;
import dev.cryptoworker.keys.KeyProvider;
import dev.cryptoworker.keys.KeyScope;
import java.security.GeneralSecurityException;
import java.util.Arrays;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * HMAC-SHA256 under a key derived for one scope, always from the keyset's oldest key (what it
 * names must not change when the keyset rotates), truncated to 16 bytes.
 */
final class KeyedPrf {
  static final int TAG_BYTES = 16;

  /** A tag and the id of the key that made it. */
  record Tag(int keyId, byte[] tag) {}

  private KeyedPrf() {}

  static Tag of(KeyProvider keys, KeyScope scope, byte[] message) throws GeneralSecurityException {
    return under(keys.keyRing(scope, 32).oldestOnly().primary(), message);
  }

  /**
   * The tag under key {@code keyId} instead of the oldest.
   *
   * @throws GeneralSecurityException if the keyset has no such enabled key
   */
  static Tag of(KeyProvider keys, KeyScope scope, byte[] message, int keyId) throws GeneralSecurityException {
    return under(keys.keyRing(scope, 32).byId(keyId).orElseThrow(() -> new GeneralSecurityException(
        "the keyset has no enabled key " + Integer.toUnsignedString(keyId, 16))), message);
  }

  private static Tag under(VersionedKey key, byte[] message) throws GeneralSecurityException {
    Mac mac = Mac.getInstance("HmacSHA256");
    mac.init(key.key().withCopy(SecretKeyAccess.insecure(), bytes -> new SecretKeySpec(bytes, "HmacSHA256")));
    return new Tag(key.keyId(), Arrays.copyOf(mac.doFinal(message), TAG_BYTES));
  }
}
