package dev.cryptoworker.cryptobox.ashe;

import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * The keyless homomorphic sum of ASHE values of one key version: ciphertexts added mod 2^64,
 * identifier sets united per lease nonce ({@link IdSetsByNonce}), plus the count. What a region returns; the client merges regions with
 * {@link #add(AsheSum)} and decrypts once.
 */
public final class AsheSum {
  private final int keyId;
  private long ciphertext;
  private long count;
  private final IdSetsByNonce ids;

  public AsheSum(int keyId) {
    this(keyId, 0, 0, new IdSetsByNonce());
  }

  private AsheSum(int keyId, long ciphertext, long count, IdSetsByNonce ids) {
    this.keyId = keyId;
    this.ciphertext = ciphertext;
    this.count = count;
    this.ids = ids;
  }

  /** Adds one stored value (same key version). */
  public AsheSum add(AsheCell cell) {
    if (cell.keyId() != keyId) {
      throw new IllegalArgumentException("cannot add values of key " + cell.keyId() + " to a sum of key " + keyId);
    }
    return add(cell.ciphertext(), cell.nonce(), cell.id());
  }

  /** Adds one value of this sum's key version. */
  AsheSum add(long valueCiphertext, long nonce, long id) {
    ids.add(nonce, id);
    ciphertext += valueCiphertext; // wraps: addition mod 2^64
    count++;
    return this;
  }

  /** Adds another partial sum (for example another region's). */
  public AsheSum add(AsheSum other) {
    if (other.keyId != keyId) {
      throw new IllegalArgumentException("cannot add sums of different keys");
    }
    ciphertext += other.ciphertext;
    ids.addAll(other.ids);
    count += other.count;
    return this;
  }

  public int keyId() {
    return keyId;
  }

  public long ciphertext() {
    return ciphertext;
  }

  public long count() {
    return count;
  }

  /** The (nonce, identifier) pairs of the values added. */
  public IdSetsByNonce ids() {
    return ids;
  }

  /**
   * {@code keyId (4) || c (8) || count (8) || identifiers} ({@link IdSetsByNonce#toBytes()}): a
   * sum of legacy cells only is byte for byte what earlier versions wrote.
   */
  public byte[] toBytes() {
    byte[] idBytes = ids.toBytes();
    return ByteBuffer.allocate(20 + idBytes.length).putInt(keyId).putLong(ciphertext).putLong(count).put(idBytes).array();
  }

  /**
   * Parses {@link #toBytes()}.
   *
   * @throws IllegalArgumentException if malformed, including a count that disagrees with the ids
   */
  public static AsheSum parse(byte[] bytes) {
    if (bytes.length < 21) {
      throw new IllegalArgumentException("ASHE sum truncated: " + bytes.length + " bytes");
    }
    ByteBuffer b = ByteBuffer.wrap(bytes);
    int keyId = b.getInt();
    long c = b.getLong();
    long count = b.getLong();
    IdSetsByNonce ids = IdSetsByNonce.parse(Arrays.copyOfRange(bytes, 20, bytes.length));
    if (ids.size() != count) {
      throw new IllegalArgumentException("ASHE sum of " + count + " values carries " + ids.size() + " identifiers");
    }
    return new AsheSum(keyId, c, count, ids);
  }
}
