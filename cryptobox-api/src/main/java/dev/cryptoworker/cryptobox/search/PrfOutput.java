package dev.cryptoworker.cryptobox.search;

import java.util.Arrays;

/**
 * An immutable PRF output (a counter's name, a tree's root) used as a map key. Its hash is taken
 * once: {@code ByteBuffer.wrap} keys rehash their bytes on every lookup, which cost about a sixth
 * of a searchable insert's client time.
 */
public final class PrfOutput {
  private final byte[] bytes;
  private final int hash;

  private PrfOutput(byte[] bytes) {
    this.bytes = bytes;
    this.hash = Arrays.hashCode(bytes);
  }

  /** A key holding a copy of {@code bytes}. */
  public static PrfOutput copyOf(byte[] bytes) {
    return new PrfOutput(bytes.clone());
  }

  /** A copy of the bytes. */
  public byte[] toByteArray() {
    return bytes.clone();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof PrfOutput other && hash == other.hash && Arrays.equals(bytes, other.bytes);
  }

  @Override
  public int hashCode() {
    return hash;
  }

  @Override
  public String toString() {
    return "PrfOutput[" + bytes.length + " bytes]";
  }
}
