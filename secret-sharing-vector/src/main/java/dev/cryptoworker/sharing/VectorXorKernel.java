package dev.cryptoworker.sharing;

import static jdk.incubator.vector.VectorOperators.XOR;

import jdk.incubator.vector.ByteVector;
import jdk.incubator.vector.VectorSpecies;

/**
 * {@link XorKernel} on the JDK's Vector API (incubator in JDK 17): one vector of the preferred
 * species (64 bytes with AVX-512, a whole packet of a 512-byte chunk) per load, where the scalar
 * kernel makes 8 long loads, each with its bounds check. A packet's last bytes short of a vector go
 * through the scalar kernel. Loaded by {@link XorKernelChoice} only when the JVM has the module
 * {@code jdk.incubator.vector}.
 */
final class VectorXorKernel implements XorKernel {
  private static final VectorSpecies<Byte> SPECIES = ByteVector.SPECIES_PREFERRED;
  private static final int LANES = SPECIES.length();
  private static final XorKernel TAIL = ScalarXorKernel.INSTANCE;

  VectorXorKernel() {}

  private static ByteVector at(byte[] a, int offset) {
    return ByteVector.fromArray(SPECIES, a, offset);
  }

  // The sum is stored on two paths rather than merged: a vector merged from two branches may be
  // boxed by C2, and the accumulating branch is invariant, so the loop is unswitched on it.
  private static void store(ByteVector x, boolean accumulate, byte[] d, int offset) {
    if (accumulate) {
      x.lanewise(XOR, at(d, offset)).intoArray(d, offset);
    } else {
      x.intoArray(d, offset);
    }
  }

  @Override
  public void xor1(byte[] d, int dAt, boolean accumulate,
      byte[] a0, int o0, int length) {
    int b = 0;
    for (; b <= length - LANES; b += LANES) {
      store(at(a0, o0 + b), accumulate, d, dAt + b);
    }
    if (b < length) {
      TAIL.xor1(d, dAt + b, accumulate, a0, o0 + b, length - b);
    }
  }

  @Override
  public void xor2(byte[] d, int dAt, boolean accumulate,
      byte[] a0, int o0, byte[] a1, int o1, int length) {
    int b = 0;
    for (; b <= length - LANES; b += LANES) {
      store(at(a0, o0 + b)
          .lanewise(XOR, at(a1, o1 + b)), accumulate, d, dAt + b);
    }
    if (b < length) {
      TAIL.xor2(d, dAt + b, accumulate, a0, o0 + b, a1, o1 + b, length - b);
    }
  }

  @Override
  public void xor3(byte[] d, int dAt, boolean accumulate,
      byte[] a0, int o0, byte[] a1, int o1, byte[] a2, int o2, int length) {
    int b = 0;
    for (; b <= length - LANES; b += LANES) {
      store(at(a0, o0 + b)
          .lanewise(XOR, at(a1, o1 + b))
          .lanewise(XOR, at(a2, o2 + b)), accumulate, d, dAt + b);
    }
    if (b < length) {
      TAIL.xor3(d, dAt + b, accumulate, a0, o0 + b, a1, o1 + b, a2, o2 + b, length - b);
    }
  }

  @Override
  public void xor4(byte[] d, int dAt, boolean accumulate,
      byte[] a0, int o0, byte[] a1, int o1, byte[] a2, int o2, byte[] a3, int o3, int length) {
    int b = 0;
    for (; b <= length - LANES; b += LANES) {
      store(at(a0, o0 + b)
          .lanewise(XOR, at(a1, o1 + b))
          .lanewise(XOR, at(a2, o2 + b))
          .lanewise(XOR, at(a3, o3 + b)), accumulate, d, dAt + b);
    }
    if (b < length) {
      TAIL.xor4(d, dAt + b, accumulate, a0, o0 + b, a1, o1 + b, a2, o2 + b, a3, o3 + b, length - b);
    }
  }

  @Override
  public void xor5(byte[] d, int dAt, boolean accumulate,
      byte[] a0, int o0, byte[] a1, int o1, byte[] a2, int o2, byte[] a3, int o3,
      byte[] a4, int o4, int length) {
    int b = 0;
    for (; b <= length - LANES; b += LANES) {
      store(at(a0, o0 + b)
          .lanewise(XOR, at(a1, o1 + b))
          .lanewise(XOR, at(a2, o2 + b))
          .lanewise(XOR, at(a3, o3 + b))
          .lanewise(XOR, at(a4, o4 + b)), accumulate, d, dAt + b);
    }
    if (b < length) {
      TAIL.xor5(d, dAt + b, accumulate, a0, o0 + b, a1, o1 + b, a2, o2 + b, a3, o3 + b,
          a4, o4 + b, length - b);
    }
  }

  @Override
  public void xor6(byte[] d, int dAt, boolean accumulate,
      byte[] a0, int o0, byte[] a1, int o1, byte[] a2, int o2, byte[] a3, int o3,
      byte[] a4, int o4, byte[] a5, int o5, int length) {
    int b = 0;
    for (; b <= length - LANES; b += LANES) {
      store(at(a0, o0 + b)
          .lanewise(XOR, at(a1, o1 + b))
          .lanewise(XOR, at(a2, o2 + b))
          .lanewise(XOR, at(a3, o3 + b))
          .lanewise(XOR, at(a4, o4 + b))
          .lanewise(XOR, at(a5, o5 + b)), accumulate, d, dAt + b);
    }
    if (b < length) {
      TAIL.xor6(d, dAt + b, accumulate, a0, o0 + b, a1, o1 + b, a2, o2 + b, a3, o3 + b,
          a4, o4 + b, a5, o5 + b, length - b);
    }
  }

  @Override
  public void xor7(byte[] d, int dAt, boolean accumulate,
      byte[] a0, int o0, byte[] a1, int o1, byte[] a2, int o2, byte[] a3, int o3,
      byte[] a4, int o4, byte[] a5, int o5, byte[] a6, int o6, int length) {
    int b = 0;
    for (; b <= length - LANES; b += LANES) {
      store(at(a0, o0 + b)
          .lanewise(XOR, at(a1, o1 + b))
          .lanewise(XOR, at(a2, o2 + b))
          .lanewise(XOR, at(a3, o3 + b))
          .lanewise(XOR, at(a4, o4 + b))
          .lanewise(XOR, at(a5, o5 + b))
          .lanewise(XOR, at(a6, o6 + b)), accumulate, d, dAt + b);
    }
    if (b < length) {
      TAIL.xor7(d, dAt + b, accumulate, a0, o0 + b, a1, o1 + b, a2, o2 + b, a3, o3 + b,
          a4, o4 + b, a5, o5 + b, a6, o6 + b, length - b);
    }
  }

  @Override
  public void xor8(byte[] d, int dAt, boolean accumulate,
      byte[] a0, int o0, byte[] a1, int o1, byte[] a2, int o2, byte[] a3, int o3,
      byte[] a4, int o4, byte[] a5, int o5, byte[] a6, int o6, byte[] a7, int o7, int length) {
    int b = 0;
    for (; b <= length - LANES; b += LANES) {
      store(at(a0, o0 + b)
          .lanewise(XOR, at(a1, o1 + b))
          .lanewise(XOR, at(a2, o2 + b))
          .lanewise(XOR, at(a3, o3 + b))
          .lanewise(XOR, at(a4, o4 + b))
          .lanewise(XOR, at(a5, o5 + b))
          .lanewise(XOR, at(a6, o6 + b))
          .lanewise(XOR, at(a7, o7 + b)), accumulate, d, dAt + b);
    }
    if (b < length) {
      TAIL.xor8(d, dAt + b, accumulate, a0, o0 + b, a1, o1 + b, a2, o2 + b, a3, o3 + b,
          a4, o4 + b, a5, o5 + b, a6, o6 + b, a7, o7 + b, length - b);
    }
  }
}
