package dev.cryptoworker.client;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The rule that makes the docs' figures checkable (docs/testing.md, "Figures and their sources"):
 * every decimal figure (and whole multiple, 67x) of a paragraph, list item or table row that cites a result in
 * benchmarks/results appears verbatim in one of the results it cites (a table row also counts those
 * of the paragraph before its table), unless the word "goal" comes right before it. A figure
 * computed from a result is written into that result's "Derived" section as {@code - figure =
 * arithmetic: what it is}, whose numbers must appear above the section and whose arithmetic must
 * round to the figure.
 */
final class CitedFigures {
  /** A link to a committed benchmark result (its file name in group 1). */
  static final Pattern RESULT_LINK = Pattern.compile("\\]\\((?:\\.\\./)?benchmarks/results/([\\w.-]+\\.(?:md|csv|json))[)#]");
  /**
   * A decimal figure (not part of a version such as 2.6.4, a name or a longer number), or a whole
   * multiple such as 67x (a ratio, as results print them).
   */
  private static final Pattern FIGURE = Pattern.compile("(?<![\\w.])(?:\\d+\\.\\d+(?![\\d.]*\\d)|\\d+x\\b)");
  /** What marks a figure as a goal rather than a measurement: "goal 0.9", "goal of 0.9", "goal: 0.9". */
  private static final Pattern GOAL = Pattern.compile("\\bgoal:? (?:of )?$");
  private static final String DERIVED = "## Derived";
  private static final Pattern DERIVED_LINE = Pattern.compile("- (\\d+\\.\\d+) = (.+?)(?:: .*)?");

  private CitedFigures() {}

  /** Whether {@code figure} is written in {@code text} as a whole number, not inside a longer one. */
  static boolean appearsIn(String figure, String text) {
    return Pattern.compile("(?<![\\d.])" + Pattern.quote(figure) + "(?!\\d)").matcher(text).find();
  }

  /**
   * Checks the figures of one page, adding what is wrong to {@code problems}.
   *
   * @param page the page's path, for the messages
   * @param results the text of a result by its file name, empty if there is no such file
   * @return how many figures were checked against a result
   */
  static int checkPage(String page, String markdown, Function<String, Optional<String>> results, List<String> problems) {
    int checked = 0;
    for (MarkdownUnits.Unit unit : MarkdownUnits.of(markdown)) {
      TreeSet<String> cited = new TreeSet<>();
      Matcher link = RESULT_LINK.matcher(unit.withIntroduction());
      while (link.find()) {
        if (!link.group(1).equals("README.md")) { // the results' index, not a result
          cited.add(link.group(1));
        }
      }
      List<String> texts = new ArrayList<>();
      for (String name : cited) {
        results.apply(name).ifPresentOrElse(texts::add,
            () -> problems.add(page + ":" + unit.line() + ": cites " + name + ", which is not in benchmarks/results"));
      }
      if (texts.isEmpty()) {
        continue;
      }
      Matcher figure = FIGURE.matcher(unit.text());
      while (figure.find()) {
        checked++;
        String before = unit.text().substring(Math.max(0, figure.start() - 10), figure.start());
        if (!GOAL.matcher(before).find() && texts.stream().noneMatch(t -> appearsIn(figure.group(), t))) {
          int line = unit.line() + (int) unit.text().substring(0, figure.start()).chars().filter(c -> c == '\n').count();
          problems.add(page + ":" + line + ": " + figure.group() + " is in none of the results it cites " + cited);
        }
      }
    }
    return checked;
  }

  /** What is wrong with the derived figures of one result: each must follow from the numbers above them. */
  static List<String> inResult(String name, String text) {
    List<String> problems = new ArrayList<>();
    String[] lines = text.split("\n", -1);
    int heading = List.of(lines).indexOf(DERIVED);
    if (heading < 0) {
      return problems;
    }
    String measured = String.join("\n", List.of(lines).subList(0, heading));
    for (int i = heading + 1; i < lines.length && !lines[i].startsWith("#"); i++) {
      if (!lines[i].startsWith("- ")) {
        continue; // the section's prose
      }
      String where = name + ":" + (i + 1) + ": ";
      Matcher line = DERIVED_LINE.matcher(lines[i]);
      if (!line.matches()) {
        problems.add(where + "a derived figure is written '- figure = arithmetic: what it is', not '" + lines[i] + "'");
        continue;
      }
      try {
        Arithmetic.Result result = Arithmetic.evaluate(line.group(2));
        for (String operand : result.operands()) {
          if (!appearsIn(operand, measured)) {
            problems.add(where + operand + " (in " + line.group(1) + " = " + line.group(2) + ") is not in the result above its Derived section");
          }
        }
        BigDecimal figure = new BigDecimal(line.group(1));
        BigDecimal rounded = result.value().setScale(figure.scale(), RoundingMode.HALF_UP);
        if (rounded.compareTo(figure) != 0) {
          problems.add(where + line.group(2) + " is " + result.value().round(new MathContext(6)).toPlainString() + ", which rounds to " + rounded + ", not " + figure);
        }
      } catch (IllegalArgumentException | ArithmeticException e) {
        problems.add(where + e.getMessage());
      }
    }
    return problems;
  }
}
