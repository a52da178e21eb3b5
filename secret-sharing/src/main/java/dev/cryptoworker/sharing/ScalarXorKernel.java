package dev.cryptoworker.sharing;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/** {@link XorKernel} 8 bytes at a time through a long view of the arrays: the default, plain Java. */
final class ScalarXorKernel implements XorKernel {
  static final ScalarXorKernel INSTANCE = new ScalarXorKernel();

  private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

  private ScalarXorKernel() {}

  private static long word(byte[] a, int at) {
    return (long) LONGS.get(a, at);
  }

  @Override
  public void xor1(byte[] d, int dAt, boolean accumulate,
      byte[] a0, int o0, int length) {
    for (int b = 0; b < length; b += 8) {
      long x = accumulate ? word(d, dAt + b) : 0;
      LONGS.set(d, dAt + b, x ^ word(a0, o0 + b));
    }
  }

  @Override
  public void xor2(byte[] d, int dAt, boolean accumulate,
      byte[] a0, int o0, byte[] a1, int o1, int length) {
    for (int b = 0; b < length; b += 8) {
      long x = accumulate ? word(d, dAt + b) : 0;
      LONGS.set(d, dAt + b, x ^ word(a0, o0 + b) ^ word(a1, o1 + b));
    }
  }

  @Override
  public void xor3(byte[] d, int dAt, boolean accumulate,
      byte[] a0, int o0, byte[] a1, int o1, byte[] a2, int o2, int length) {
    for (int b = 0; b < length; b += 8) {
      long x = accumulate ? word(d, dAt + b) : 0;
      LONGS.set(d, dAt + b, x ^ word(a0, o0 + b) ^ word(a1, o1 + b) ^ word(a2, o2 + b));
    }
  }

  @Override
  public void xor4(byte[] d, int dAt, boolean accumulate,
      byte[] a0, int o0, byte[] a1, int o1, byte[] a2, int o2, byte[] a3, int o3, int length) {
    for (int b = 0; b < length; b += 8) {
      long x = accumulate ? word(d, dAt + b) : 0;
      LONGS.set(d, dAt + b, x ^ word(a0, o0 + b) ^ word(a1, o1 + b) ^ word(a2, o2 + b) ^ word(a3, o3 + b));
    }
  }

  @Override
  public void xor5(byte[] d, int dAt, boolean accumulate,
      byte[] a0, int o0, byte[] a1, int o1, byte[] a2, int o2, byte[] a3, int o3,
      byte[] a4, int o4, int length) {
    for (int b = 0; b < length; b += 8) {
      long x = accumulate ? word(d, dAt + b) : 0;
      LONGS.set(d, dAt + b, x ^ word(a0, o0 + b) ^ word(a1, o1 + b) ^ word(a2, o2 + b) ^ word(a3, o3 + b)
          ^ word(a4, o4 + b));
    }
  }

  @Override
  public void xor6(byte[] d, int dAt, boolean accumulate,
      byte[] a0, int o0, byte[] a1, int o1, byte[] a2, int o2, byte[] a3, int o3,
      byte[] a4, int o4, byte[] a5, int o5, int length) {
    for (int b = 0; b < length; b += 8) {
      long x = accumulate ? word(d, dAt + b) : 0;
      LONGS.set(d, dAt + b, x ^ word(a0, o0 + b) ^ word(a1, o1 + b) ^ word(a2, o2 + b) ^ word(a3, o3 + b)
          ^ word(a4, o4 + b) ^ word(a5, o5 + b));
    }
  }

  @Override
  public void xor7(byte[] d, int dAt, boolean accumulate,
      byte[] a0, int o0, byte[] a1, int o1, byte[] a2, int o2, byte[] a3, int o3,
      byte[] a4, int o4, byte[] a5, int o5, byte[] a6, int o6, int length) {
    for (int b = 0; b < length; b += 8) {
      long x = accumulate ? word(d, dAt + b) : 0;
      LONGS.set(d, dAt + b, x ^ word(a0, o0 + b) ^ word(a1, o1 + b) ^ word(a2, o2 + b) ^ word(a3, o3 + b)
          ^ word(a4, o4 + b) ^ word(a5, o5 + b) ^ word(a6, o6 + b));
    }
  }

  @Override
  public void xor8(byte[] d, int dAt, boolean accumulate,
      byte[] a0, int o0, byte[] a1, int o1, byte[] a2, int o2, byte[] a3, int o3,
      byte[] a4, int o4, byte[] a5, int o5, byte[] a6, int o6, byte[] a7, int o7, int length) {
    for (int b = 0; b < length; b += 8) {
      long x = accumulate ? word(d, dAt + b) : 0;
      LONGS.set(d, dAt + b, x ^ word(a0, o0 + b) ^ word(a1, o1 + b) ^ word(a2, o2 + b) ^ word(a3, o3 + b)
          ^ word(a4, o4 + b) ^ word(a5, o5 + b) ^ word(a6, o6 + b) ^ word(a7, o7 + b));
    }
  }
}
