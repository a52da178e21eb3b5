package dev.cryptoworker.cryptobox;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.time.format.ResolverStyle;

/**
 * The {@code date} value type: UTF-8 ISO-8601 text, extended ({@code 2019-03-01},
 * {@code 2019-03-01T10:15:30}, {@code 2019-03-01T10:15:30Z}) or basic ({@code 20190301},
 * {@code 20190301101530}), or an 8-byte big-endian epoch-millisecond long. Text without an offset
 * is read as UTC. Text is tried first, so an 8-byte value that parses as a basic date is a date.
 */
public final class DateValues {
  private static final DateTimeFormatter BASIC_DATE_TIME =
      DateTimeFormatter.ofPattern("uuuuMMddHHmmss").withResolverStyle(ResolverStyle.STRICT);

  private DateValues() {}

  /** Whether {@code value} is a date in one of the accepted forms. */
  public static boolean isDate(byte[] value) {
    try {
      epochMillis(value);
      return true;
    } catch (IllegalArgumentException e) {
      return false;
    }
  }

  /**
   * The instant of {@code value} in milliseconds since the epoch (UTC).
   *
   * @throws IllegalArgumentException if it is not a date in an accepted form
   */
  public static long epochMillis(byte[] value) {
    String text = utf8(value);
    if (text != null) {
      Long millis = parse(text);
      if (millis != null) {
        return millis;
      }
    }
    if (value.length == 8) {
      return ByteBuffer.wrap(value).getLong();
    }
    throw new IllegalArgumentException(
        "a date must be ISO-8601 text (2019-03-01, 20190301101530, 2019-03-01T10:15:30Z) or an 8-byte"
            + " epoch-millisecond long");
  }

  private static Long parse(String text) {
    try {
      switch (text.length()) {
        case 8:
          return LocalDate.parse(text, DateTimeFormatter.BASIC_ISO_DATE).atStartOfDay().toInstant(ZoneOffset.UTC).toEpochMilli();
        case 10:
          return LocalDate.parse(text).atStartOfDay().toInstant(ZoneOffset.UTC).toEpochMilli();
        case 14:
          return LocalDateTime.parse(text, BASIC_DATE_TIME).toInstant(ZoneOffset.UTC).toEpochMilli();
        default:
          try {
            return LocalDateTime.parse(text).toInstant(ZoneOffset.UTC).toEpochMilli();
          } catch (DateTimeParseException e) {
            return OffsetDateTime.parse(text).toInstant().toEpochMilli();
          }
      }
    } catch (DateTimeParseException | ArithmeticException e) {
      return null;
    }
  }

  private static String utf8(byte[] value) {
    try {
      return StandardCharsets.UTF_8.newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(value))
          .toString();
    } catch (CharacterCodingException e) {
      return null;
    }
  }
}
