package dev.cryptoworker.client;

/**
 * A sum, count and average computed by {@link SecureTable#aggregate}: added on the region servers
 * (ASHE: over ciphertext, without keys), merged and decrypted on the client.
 *
 * @param sum the sum of the selected values, as a signed 64-bit integer (wraps around like Java's
 *     {@code long} addition)
 * @param count how many values were added (rows that have the column)
 */
public record AggregateResult(long sum, long count) {

  /** The mean, or {@code NaN} when no value was selected. */
  public double average() {
    return count == 0 ? Double.NaN : (double) sum / count;
  }

  /** The sum and count of this and {@code other} together (partials of disjoint rows). */
  public AggregateResult plus(AggregateResult other) {
    return new AggregateResult(sum + other.sum, count + other.count);
  }
}
