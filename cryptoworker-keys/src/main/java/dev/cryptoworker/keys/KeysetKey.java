package dev.cryptoworker.keys;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * What {@link KeysetFiles#describe} tells about one key of a keyset file: public facts only, never
 * key material.
 *
 * @param id the key id, as the 5-byte ciphertext header carries it (after the version byte)
 * @param status {@code ENABLED}, {@code DISABLED} or {@code DESTROYED}
 * @param primary whether new ciphertexts are made with this key
 * @param oldest whether this is the oldest enabled key (keyset order; rotation appends): row keys
 *     and protected qualifier names of every table are encrypted under it
 * @param created when the key was generated, to the second; empty for keys of keyset files written
 *     before creation times were recorded
 */
public record KeysetKey(int id, String status, boolean primary, boolean oldest, Optional<Instant> created) {

  public KeysetKey {
    Objects.requireNonNull(status, "status");
    Objects.requireNonNull(created, "created");
  }

  /** The id as 8 hex digits, the way the ciphertext header's bytes read. */
  public String hexId() {
    return hex(id);
  }

  /** {@code id} as 8 hex digits. */
  public static String hex(int id) {
    return String.format("%08x", id);
  }
}
