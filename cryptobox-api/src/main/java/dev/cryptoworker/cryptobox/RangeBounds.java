package dev.cryptoworker.cryptobox;

/**
 * Where one plaintext falls among the stored bytes of one key version of an order-preserving box,
 * all in unsigned byte order: stored {@code x < v} iff {@code x < lower}, and {@code x <= v} iff
 * {@code x < upperExclusive}, whatever bytes follow the order-preserving part.
 *
 * @param versionStart every stored value of this key version is at least this
 * @param lower the bound of {@code v}
 * @param upperExclusive the bound of the successor of {@code v}
 * @param versionEnd every stored value of this key version is below this
 */
public record RangeBounds(byte[] versionStart, byte[] lower, byte[] upperExclusive, byte[] versionEnd) {}
