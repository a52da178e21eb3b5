package dev.cryptoworker.client;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.ArrayList;
import java.util.List;

/**
 * Evaluates the arithmetic of a derived figure: decimal numbers (thousands separated by commas or
 * not), {@code + - * /}, parentheses and {@code median(a, b, ...)}. It also lists the numbers it
 * read, so that a check can find each in the result it was taken from.
 */
final class Arithmetic {
  private final String text;
  private final List<String> operands = new ArrayList<>();
  private int at;

  private Arithmetic(String text) {
    this.text = text;
  }

  /** The value of {@code expression} and the numbers it is made of, as written. */
  record Result(BigDecimal value, List<String> operands) {}

  static Result evaluate(String expression) {
    Arithmetic parser = new Arithmetic(expression);
    BigDecimal value = parser.sum();
    parser.skipSpaces();
    if (parser.at != expression.length()) {
      throw parser.error("an operator or the end");
    }
    return new Result(value, List.copyOf(parser.operands));
  }

  private BigDecimal sum() {
    BigDecimal value = product();
    while (next('+') || next('-')) {
      char operator = text.charAt(at - 1);
      BigDecimal right = product();
      value = operator == '+' ? value.add(right) : value.subtract(right);
    }
    return value;
  }

  private BigDecimal product() {
    BigDecimal value = factor();
    while (next('*') || next('/')) {
      char operator = text.charAt(at - 1);
      BigDecimal right = factor();
      value = operator == '*' ? value.multiply(right) : value.divide(right, MathContext.DECIMAL64);
    }
    return value;
  }

  private BigDecimal factor() {
    if (next('(')) {
      BigDecimal value = sum();
      expect(')');
      return value;
    }
    skipSpaces();
    if (text.startsWith("median(", at)) {
      at += "median(".length();
      List<BigDecimal> values = new ArrayList<>(List.of(sum()));
      while (next(',')) {
        values.add(sum());
      }
      expect(')');
      values.sort(null);
      int middle = values.size() / 2;
      return values.size() % 2 == 1
          ? values.get(middle)
          : values.get(middle - 1).add(values.get(middle)).divide(BigDecimal.valueOf(2));
    }
    int start = at;
    // A comma followed by three digits separates thousands; any other comma separates arguments.
    while (at < text.length() && (Character.isDigit(text.charAt(at)) || text.charAt(at) == '.'
        || text.startsWith(",", at) && text.substring(at + 1).matches("\\d{3}(?!\\d)[\\s\\S]*"))) {
      at++;
    }
    if (start == at) {
      throw error("a number, '(' or median(");
    }
    String number = text.substring(start, at);
    operands.add(number);
    return new BigDecimal(number.replace(",", ""));
  }

  private boolean next(char c) {
    skipSpaces();
    if (at < text.length() && text.charAt(at) == c) {
      at++;
      return true;
    }
    return false;
  }

  private void expect(char c) {
    if (!next(c)) {
      throw error("'" + c + "'");
    }
  }

  private void skipSpaces() {
    while (at < text.length() && text.charAt(at) == ' ') {
      at++;
    }
  }

  private IllegalArgumentException error(String expected) {
    return new IllegalArgumentException("expected " + expected + " at column " + (at + 1) + " of '" + text + "'");
  }
}
