package dev.cryptoworker.cryptobox;

import java.security.GeneralSecurityException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * One primitive per key of a {@link KeyRing}: the primary one for writes, and lookup by the key
 * header of a ciphertext (see {@link StoredFormat}) for reads. Shared by the keyed boxes.
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
  private final StoredFormat format;
  private final int minimumBodyLength;
  private final Map<Integer, P> byId = new HashMap<>();
  private final P primary;

  private KeyedPrimitives(KeyRing keys, StoredFormat format, int minimumBodyLength, Map<Integer, P> byId) {
    this.keys = keys;
    this.format = format;
    this.minimumBodyLength = minimumBodyLength;
    this.byId.putAll(byId);
    this.primary = byId.get(keys.primary().keyId());
  }

  /** As {@link #create(KeyRing, StoredFormat, String, int, int, Factory)} in stored format 1. */
  public static <P> KeyedPrimitives<P> create(
      KeyRing keys, String box, int keyLengthBytes, int minimumBodyLength, Factory<P> factory)
      throws GeneralSecurityException {
    return create(keys, StoredFormat.V1, box, keyLengthBytes, minimumBodyLength, factory);
  }

  /**
   * Builds a primitive for every key of {@code keys}, whose ciphertexts carry {@code format}'s
   * header.
   *
   * @param box the box name, for messages
   * @param keyLengthBytes the key length the primitive needs
   * @param minimumBodyLength the smallest valid ciphertext after the key header
   * @throws GeneralSecurityException if a key has the wrong length, or the format cannot tell two
   *     of the keys apart
   */
  public static <P> KeyedPrimitives<P> create(KeyRing keys, StoredFormat format, String box, int keyLengthBytes,
      int minimumBodyLength, Factory<P> factory) throws GeneralSecurityException {
    format.requireDistinctHeaders(keys, box);
    Map<Integer, P> byId = new HashMap<>();
    for (VersionedKey key : keys.keys()) {
      if (key.key().length() != keyLengthBytes) {
        throw new GeneralSecurityException(
            box + " needs " + keyLengthBytes + "-byte keys, got " + key.key().length());
      }
      byId.put(key.keyId(), factory.create(key));
    }
    return new KeyedPrimitives<>(keys, format, minimumBodyLength, byId);
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

  /** The header format of the ciphertexts. */
  public StoredFormat format() {
    return format;
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
    return byId.get(format.keyFor(ciphertext, minimumBodyLength, keys).keyId());
  }
}
