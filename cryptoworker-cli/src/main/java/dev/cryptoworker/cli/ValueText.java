package dev.cryptoworker.cli;

import dev.cryptoworker.schema.ValueType;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;

/** Values as an operator types and reads them, by schema type. */
final class ValueText {
  private ValueText() {}

  /**
   * The bytes of {@code text} as a value of {@code type}: UTF-8 for strings and dates, a decimal
   * number for long and int, and for bytes either {@code 0x}-prefixed hex or UTF-8.
   */
  static byte[] parse(ValueType type, String text) {
    switch (type) {
      case LONG:
        return ByteBuffer.allocate(8).putLong(parseNumber(text, type)).array();
      case INT:
        return ByteBuffer.allocate(4).putInt(Math.toIntExact(parseNumber(text, type))).array();
      case BYTES:
        return text.startsWith("0x") ? HexFormat.of().parseHex(text.substring(2)) : text.getBytes(StandardCharsets.UTF_8);
      default:
        return text.getBytes(StandardCharsets.UTF_8);
    }
  }

  private static long parseNumber(String text, ValueType type) {
    try {
      return Long.parseLong(text);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("'" + text + "' is not a " + type.yamlName() + " (a decimal number)");
    }
  }

  /** {@code value} for reading: text, a number, or hex when it is not what its type says. */
  static String format(ValueType type, byte[] value) {
    if (type.problemWith(value) == null) {
      switch (type) {
        case LONG:
          return Long.toString(ByteBuffer.wrap(value).getLong());
        case INT:
          return Integer.toString(ByteBuffer.wrap(value).getInt());
        case STRING:
          return quoted(new String(value, StandardCharsets.UTF_8));
        case DATE:
          return value.length == 8 && ValueType.STRING.problemWith(value) != null
              ? Long.toString(ByteBuffer.wrap(value).getLong()) : quoted(new String(value, StandardCharsets.UTF_8));
        default:
          break;
      }
    }
    return hex(value);
  }

  static String hex(byte[] value) {
    return "0x" + HexFormat.of().formatHex(value);
  }

  private static String quoted(String s) {
    StringBuilder out = new StringBuilder("\"");
    for (char c : s.toCharArray()) {
      if (c == '"' || c == '\\') {
        out.append('\\').append(c);
      } else if (Character.isISOControl(c)) {
        out.append(String.format("\\u%04x", (int) c));
      } else {
        out.append(c);
      }
    }
    return out.append('"').toString();
  }
}
