package dev.cryptoworker.packs;

import java.io.ByteArrayOutputStream;
import java.util.Arrays;

/** Unsigned LEB128 varints and length-prefixed byte strings, for the pack formats. */
final class Varints {
  private Varints() {}

  static void write(ByteArrayOutputStream out, long value) {
    while ((value & ~0x7FL) != 0) {
      out.write((int) ((value & 0x7F) | 0x80));
      value >>>= 7;
    }
    out.write((int) value);
  }

  static void writeBytes(ByteArrayOutputStream out, byte[] bytes) {
    write(out, bytes.length);
    out.write(bytes, 0, bytes.length);
  }

  /** Reads what {@link Varints} wrote, refusing truncated or oversized input by an {@link IllegalArgumentException}. */
  static final class Reader {
    private final byte[] bytes;
    private final int end;
    private int at;

    Reader(byte[] bytes) {
      this(bytes, 0, bytes.length);
    }

    Reader(byte[] bytes, int from, int end) {
      this.bytes = bytes;
      this.at = from;
      this.end = end;
    }

    int readByte() {
      if (at >= end) {
        throw new IllegalArgumentException("truncated at byte " + at);
      }
      return bytes[at++] & 0xff;
    }

    long read() {
      long value = 0;
      for (int shift = 0; shift < 64; shift += 7) {
        int b = readByte();
        value |= (long) (b & 0x7F) << shift;
        if ((b & 0x80) == 0) {
          return value;
        }
      }
      throw new IllegalArgumentException("varint longer than 10 bytes at byte " + at);
    }

    /** A count or length: at most what is left of the input, so that no malformed size allocates. */
    int readCount() {
      long n = read();
      if (n > end - at) {
        throw new IllegalArgumentException("a length of " + n + " with " + (end - at) + " bytes left");
      }
      return (int) n;
    }

    byte[] readBytes() {
      int n = readCount();
      byte[] out = Arrays.copyOfRange(bytes, at, at + n);
      at += n;
      return out;
    }

    int position() {
      return at;
    }

    boolean atEnd() {
      return at == end;
    }

    int remaining() {
      return end - at;
    }
  }
}
