package dev.cryptoworker.sharing;

/**
 * The packet XORs an {@link XorSchedule} runs: {@code d[dAt..dAt+length) = (accumulate ? d[dAt..dAt+length) : 0)
 * ^ a0[o0..o0+length) ^ ...}, {@code length} a multiple of 8, the destination overlapping no source.
 * One method per source count, so each runs one loop with its sources in locals. {@link
 * ScalarXorKernel} is the default; an opt-in one on the JDK's Vector API lives in the module
 * secret-sharing-vector (same package), chosen by {@link XorKernelChoice}.
 */
interface XorKernel {
  void xor1(byte[] d, int dAt, boolean accumulate,
      byte[] a0, int o0, int length);

  void xor2(byte[] d, int dAt, boolean accumulate,
      byte[] a0, int o0, byte[] a1, int o1, int length);

  void xor3(byte[] d, int dAt, boolean accumulate,
      byte[] a0, int o0, byte[] a1, int o1, byte[] a2, int o2, int length);

  void xor4(byte[] d, int dAt, boolean accumulate,
      byte[] a0, int o0, byte[] a1, int o1, byte[] a2, int o2, byte[] a3, int o3, int length);

  void xor5(byte[] d, int dAt, boolean accumulate,
      byte[] a0, int o0, byte[] a1, int o1, byte[] a2, int o2, byte[] a3, int o3,
      byte[] a4, int o4, int length);

  void xor6(byte[] d, int dAt, boolean accumulate,
      byte[] a0, int o0, byte[] a1, int o1, byte[] a2, int o2, byte[] a3, int o3,
      byte[] a4, int o4, byte[] a5, int o5, int length);

  void xor7(byte[] d, int dAt, boolean accumulate,
      byte[] a0, int o0, byte[] a1, int o1, byte[] a2, int o2, byte[] a3, int o3,
      byte[] a4, int o4, byte[] a5, int o5, byte[] a6, int o6, int length);

  void xor8(byte[] d, int dAt, boolean accumulate,
      byte[] a0, int o0, byte[] a1, int o1, byte[] a2, int o2, byte[] a3, int o3,
      byte[] a4, int o4, byte[] a5, int o5, byte[] a6, int o6, byte[] a7, int o7, int length);
}
