package dev.cryptoworker.sharing;

/**
 * Products in GF(2^8) by XOR alone, for large chunks (Jerasure's bit-matrix coding, Blomer et al.'s
 * Cauchy Reed-Solomon): a chunk is cut into 8 equal packets, packet b holding bit b of every
 * symbol, so multiplying every symbol by c is, for each output packet, the XOR of the input packets
 * that c's 8 x 8 bit matrix selects. XORs run 8 bytes at a time, where product tables take a load
 * per byte; the code is the same linear code as the byte-wise one (same matrix, each symbol's bits
 * spread over the packets), so every property of the scheme holds alike. A matrix's products are
 * run by its {@link XorSchedule}.
 */
final class BitslicedKernel {
  /** PLANES[c][b]: bit b' set if output plane b of c * x takes input plane b'. */
  private static final int[][] PLANES = new int[256][8];

  static {
    for (int c = 0; c < 256; c++) {
      for (int in = 0; in < 8; in++) {
        int image = Gf256.mul(c, 1 << in); // c times the symbol with only bit `in` set
        for (int out = 0; out < 8; out++) {
          if ((image & (1 << out)) != 0) {
            PLANES[c][out] |= 1 << in;
          }
        }
      }
    }
  }

  private BitslicedKernel() {}

  /** Bit b' set if output plane {@code out} of c * x takes input plane b'. */
  static int planes(int c, int out) {
    return PLANES[c][out];
  }

  /**
   * {@code dst[d..d+chunk) = sum over j of c[j] * src[j][s[j]..s[j]+chunk)}, chunks bit-sliced into 8
   * packets; {@code chunk} must be a multiple of 64. For one product; a matrix's products run faster
   * through its {@link XorSchedule}, built once.
   */
  static void combine(int[] c, byte[][] src, int[] s, byte[] dst, int d, int chunk) {
    XorSchedule.of(new int[][] {c}).run(src, s, new byte[][] {dst}, new int[] {d}, chunk);
  }
}
