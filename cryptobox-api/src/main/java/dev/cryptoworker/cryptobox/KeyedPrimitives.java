package dev.cryptoworker.cryptobox;

import java.security.GeneralSecurityException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * One primitive per key of a {@link KeyRing}: the primary one for writes, and lookup by the key
 * id in a ciphertext's {@link KeyIdPrefix} for reads. Shared by the keyed boxes.
 *
 * @param <P> the primitive (for example a Tink {@code Aead})
 */
public final class KeyedPrimitives<P> {
  /** Builds the primitive of one key. */
  @FunctionalInterface
  public interface Factory<P> {
    P create(VersionedKey key) throws GeneralSecurityException;
  }

  private final KeyRing keys;
  private final int minimumBodyLength;
  private final Map<Integer, P> byId = new HashMap<>();
  private final P primary;

  private KeyedPrimitives(KeyRing keys, int minimumBodyLength, Map<Integer, P> byId) {
    this.keys = keys;
    this.minimumBodyLength = minimumBodyLength;
    this.byId.putAll(byId);
    this.primary = byId.get(keys.primary().keyId());
  }

  /**
   * Builds a primitive for every key of {@code keys}.
   *
   * @param box the box name, for messages
   * @param keyLengthBytes the key length the primitive needs
   * @param minimumBodyLength the smallest valid ciphertext after the key-id prefix
   * @throws GeneralSecurityException if a key has the wrong length
   */
  public static <P> KeyedPrimitives<P> create(
      KeyRing keys, String box, int keyLengthBytes, int minimumBodyLength, Factory<P> factory)
      throws GeneralSecurityException {
    Map<Integer, P> byId = new HashMap<>();
    for (VersionedKey key : keys.keys()) {
      if (key.key().length() != keyLengthBytes) {
        throw new GeneralSecurityException(
            box + " needs " + keyLengthBytes + "-byte keys, got " + key.key().length());
      }
      byId.put(key.keyId(), factory.create(key));
    }
    return new KeyedPrimitives<>(keys, minimumBodyLength, byId);
  }

  /** Every primitive, the primary's first. */
  public List<P> all() {
    List<P> out = new ArrayList<>();
    out.add(primary);
    for (VersionedKey k : keys.keys()) {
      if (k.keyId() != keys.primary().keyId()) {
        out.add(byId.get(k.keyId()));
      }
    }
    return out;
  }

  /** The primitive of the primary key, for new ciphertexts. */
  public P primary() {
    return primary;
  }

  /**
   * The primitive whose key made {@code ciphertext}.
   *
   * @throws GeneralSecurityException if it is truncated, of an unknown format or made under a key
   *     this ring does not hold
   */
  public P forCiphertext(byte[] ciphertext) throws GeneralSecurityException {
    return byId.get(KeyIdPrefix.keyFor(ciphertext, minimumBodyLength, keys).keyId());
  }
}
