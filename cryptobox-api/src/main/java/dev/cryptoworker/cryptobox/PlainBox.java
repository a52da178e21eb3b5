package dev.cryptoworker.cryptobox;

import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;
import java.util.List;

/**
 * The identity box of unprotected data (PLAIN): stores the plaintext, so the server sees it and
 * can do anything with it. Sums of 8-byte long or 4-byte int values run on the region servers.
 */
public final class PlainBox implements CryptoBox, PlaintextStorage, EqualityOnCiphertext, AdditiveAggregation {
  private static final PlainBox INSTANCE = new PlainBox();

  private PlainBox() {}

  /** The identity box (stateless, shared). */
  public static PlainBox get() {
    return INSTANCE;
  }

  @Override
  public BoxKind kind() {
    return BoxKind.PLAIN;
  }

  @Override
  public byte[] encrypt(byte[] plaintext, byte[] associatedData) {
    return plaintext;
  }

  @Override
  public byte[] decrypt(byte[] ciphertext, byte[] associatedData) {
    return ciphertext;
  }

  @Override
  public List<byte[]> encryptUnderEveryKey(byte[] plaintext, byte[] associatedData) {
    return List.of(plaintext);
  }

  @Override
  public RegionAddition regionAddition() {
    return RegionAddition.PLAIN;
  }

  /** Partials are {@code sum (8) || count (8)}, as the region servers return them. */
  @Override
  public Sum decryptSum(List<byte[]> regionPartials) throws GeneralSecurityException {
    long sum = 0;
    long count = 0;
    for (byte[] p : regionPartials) {
      if (p.length != 16) {
        throw new GeneralSecurityException("a plain partial sum is 16 bytes, got " + p.length);
      }
      ByteBuffer b = ByteBuffer.wrap(p);
      sum += b.getLong();
      count += b.getLong();
    }
    return new Sum(sum, count);
  }

  @Override
  public byte[] encryptNumber(long value) {
    return ByteBuffer.allocate(8).putLong(value).array();
  }

  @Override
  public long decryptNumber(byte[] stored) throws GeneralSecurityException {
    if (stored.length == 8) {
      return ByteBuffer.wrap(stored).getLong();
    }
    if (stored.length == 4) {
      return ByteBuffer.wrap(stored).getInt();
    }
    throw new GeneralSecurityException("a plain number is 8 or 4 bytes, got " + stored.length);
  }
}
