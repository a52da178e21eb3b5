package dev.cryptoworker.packs;

import java.util.Arrays;
import java.util.List;

/**
 * How the compressed bytes of a pack are padded before they are sealed, so that its stored size
 * says less about its content (compression makes sizes depend on it). Three kinds:
 *
 * <ul>
 *   <li>{@link #padme()}, the default: Padmé (Nikitin et al., PETS 2019). A length n is rounded up
 *       to clear its lowest E - S bits, where E = floor(log2 n) and S = floor(log2 E) + 1: at most
 *       6.25% more bytes from 1 KiB up (11.6% below; 1.6-4.7% measured on
 *       benchmarks/results/pack-compression.md's packs), and a length leaks O(log log n) bits
 *       instead of O(log n). A pack of 8-16 KiB stores in 512-byte steps.
 *   <li>{@link #tiers}: the smallest of ascending sizes that holds the bytes, beyond the largest a
 *       multiple of it. Coarser where tiers are far apart, and much larger (powers of 2 from 1 KiB: 8-948% measured).
 *   <li>{@link #none()}: the stored size follows the compressed size byte for byte.
 * </ul>
 */
public sealed interface PackPadding {
  /** The length {@code length} bytes are padded to (at least {@code length}). */
  int paddedLength(int length);

  /** Padmé: the default. */
  static PackPadding padme() {
    return new Padme();
  }

  /** No padding. */
  static PackPadding none() {
    return new None();
  }

  /**
   * Size tiers.
   *
   * @throws IllegalArgumentException if {@code sizes} is empty, or not positive and ascending
   */
  static PackPadding tiers(List<Integer> sizes) {
    return new Tiers(sizes);
  }

  /** See {@link #padme()}. */
  record Padme() implements PackPadding {
    @Override
    public int paddedLength(int length) {
      if (length < 2) {
        return length;
      }
      int exponent = 31 - Integer.numberOfLeadingZeros(length);
      int kept = 32 - Integer.numberOfLeadingZeros(exponent);
      long mask = (1L << (exponent - kept)) - 1;
      return (int) Math.min(Integer.MAX_VALUE - 64, (length + mask) & ~mask);
    }
  }

  /** See {@link #none()}. */
  record None() implements PackPadding {
    @Override
    public int paddedLength(int length) {
      return length;
    }
  }

  /** See {@link #tiers}. */
  record Tiers(List<Integer> sizes) implements PackPadding {
    public Tiers {
      sizes = List.copyOf(sizes);
      for (int i = 0; i < sizes.size(); i++) {
        if (sizes.get(i) <= 0 || i > 0 && sizes.get(i) <= sizes.get(i - 1)) {
          throw new IllegalArgumentException("padding tiers must be positive and ascending, got "
              + Arrays.toString(sizes.toArray()));
        }
      }
      if (sizes.isEmpty()) {
        throw new IllegalArgumentException("padding tiers: none given (no padding is PackPadding.none())");
      }
    }

    @Override
    public int paddedLength(int length) {
      for (int tier : sizes) {
        if (length <= tier) {
          return tier;
        }
      }
      int largest = sizes.get(sizes.size() - 1);
      return (int) Math.min(Integer.MAX_VALUE - 64, ((long) length + largest - 1) / largest * largest);
    }
  }
}
