package dev.cryptoworker.schema;

import dev.cryptoworker.cryptobox.DateValues;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Optional;

/**
 * How the bytes of a value are to be read. Order-preserving and homomorphic boxes need it to map
 * values to numbers; every box checks it on write, so a malformed value is refused before it is
 * stored.
 */
public enum ValueType {
  /** Any bytes. */
  BYTES,
  /** UTF-8 text. */
  STRING,
  /** 8-byte big-endian signed long ({@code Bytes.toBytes(long)}). */
  LONG,
  /** 4-byte big-endian signed int ({@code Bytes.toBytes(int)}). */
  INT,
  /**
   * A date: UTF-8 ISO-8601 text, extended ({@code 2019-03-01}, {@code 2019-03-01T10:15:30},
   * {@code 2019-03-01T10:15:30Z}) or basic ({@code 20190301}, {@code 20190301101530}, the 14-byte
   * form of the SafeNoSQL tables), or an 8-byte big-endian epoch-millisecond long.
   */
  DATE;

  /** The schema spelling, for example {@code long}. */
  public String yamlName() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** The type spelled {@code yamlName} in schemas, if any. */
  public static Optional<ValueType> named(String yamlName) {
    for (ValueType t : values()) {
      if (t.yamlName().equals(yamlName)) {
        return Optional.of(t);
      }
    }
    return Optional.empty();
  }

  /**
   * Returns null if {@code value} is a well-formed value of this type, else the reason it is not.
   */
  public String problemWith(byte[] value) {
    switch (this) {
      case BYTES:
        return null;
      case STRING:
        return isUtf8(value) ? null : "not valid UTF-8";
      case LONG:
        return value.length == 8 ? null : "a long must be 8 bytes, got " + value.length;
      case INT:
        return value.length == 4 ? null : "an int must be 4 bytes, got " + value.length;
      case DATE:
        return dateProblem(value);
      default:
        throw new AssertionError(this);
    }
  }

  private static String dateProblem(byte[] value) {
    try {
      DateValues.epochMillis(value);
      return null;
    } catch (IllegalArgumentException e) {
      return e.getMessage();
    }
  }

  private static boolean isUtf8(byte[] value) {
    boolean ascii = true;
    for (byte b : value) {
      ascii &= b >= 0;
    }
    if (ascii) {
      return true; // the common case, without a decoder
    }
    try {
      StandardCharsets.UTF_8
          .newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(value));
      return true;
    } catch (CharacterCodingException e) {
      return false;
    }
  }
}
