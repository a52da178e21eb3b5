package dev.cryptoworker.cryptobox;

import java.security.GeneralSecurityException;
import java.util.List;

/**
 * Capability of a box whose stored values region servers can add without keys: each region returns
 * a partial sum, the client hands every partial of one group to {@link #decryptSum}.
 */
public interface AdditiveAggregation {

  /** How a region server adds the stored values. */
  enum RegionAddition {
    /** ASHE ciphertexts: added mod 2^64, identifier sets united. */
    ASHE,
    /** Plaintext 8-byte longs or 4-byte ints. */
    PLAIN
  }

  /** A decrypted sum over some rows, and how many values it adds. */
  record Sum(long value, long count) {}

  /** How region servers add this box's stored values. */
  RegionAddition regionAddition();

  /**
   * Merges the partial sums the regions returned for one group (in any order, possibly under
   * several key versions) and decrypts the total.
   *
   * @throws GeneralSecurityException if a partial is malformed or under a key this box lacks
   */
  Sum decryptSum(List<byte[]> regionPartials) throws GeneralSecurityException;

  /** Stores a 64-bit number, whatever the column's value width (SPLASHE indicators and splays). */
  byte[] encryptNumber(long value) throws GeneralSecurityException;

  /** Reads a value written by {@link #encryptNumber} (or a stored long/int) as a 64-bit number. */
  long decryptNumber(byte[] stored) throws GeneralSecurityException;
}
