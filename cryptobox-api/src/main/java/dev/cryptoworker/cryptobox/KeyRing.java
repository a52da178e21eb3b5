package dev.cryptoworker.cryptobox;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;

/**
 * The keys of one protected column: a primary key for writes and every still-active key for
 * reads.
 */
public final class KeyRing {
  private final VersionedKey primary;
  private final List<VersionedKey> keys;

  /**
   * @param primary the key new ciphertexts are made with; must be one of {@code keys}
   * @param keys every key that may still be needed to read
   */
  public KeyRing(VersionedKey primary, List<VersionedKey> keys) {
    if (!keys.contains(primary)) {
      throw new IllegalArgumentException("primary key must be part of the key ring");
    }
    this.primary = primary;
    this.keys = Collections.unmodifiableList(new ArrayList<>(keys));
  }

  /** A ring with a single key. */
  public static KeyRing of(VersionedKey only) {
    return new KeyRing(only, List.of(only));
  }

  /**
   * The ring of the oldest key alone (keyset order), for identities that must not change when the
   * keyset rotates: encrypted row keys and qualifier names.
   */
  public KeyRing oldestOnly() {
    return of(keys.get(0));
  }

  public VersionedKey primary() {
    return primary;
  }

  public List<VersionedKey> keys() {
    return keys;
  }

  public Optional<VersionedKey> byId(int keyId) {
    for (VersionedKey k : keys) {
      if (k.keyId() == keyId) {
        return Optional.of(k);
      }
    }
    return Optional.empty();
  }
}
