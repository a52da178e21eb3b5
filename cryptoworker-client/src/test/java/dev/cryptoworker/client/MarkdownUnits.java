package dev.cryptoworker.client;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The units a Markdown page's citations apply to: paragraphs, top-level list items and table rows,
 * outside code fences. A table row also carries the paragraph that introduces its table, whose
 * citations cover the rows that cite nothing of their own.
 */
final class MarkdownUnits {
  /** One unit: its first line (from 1), its text, and for a table row the paragraph before the table. */
  record Unit(int line, String text, String introduction) {
    /** The unit's text and, for a table row, its table's introduction. */
    String withIntroduction() {
      return introduction + "\n" + text;
    }
  }

  private static final Pattern FENCE = Pattern.compile("```.*?```", Pattern.DOTALL);

  private MarkdownUnits() {}

  static List<Unit> of(String markdown) {
    // Fences become blank lines, so that line numbers stay those of the page.
    String[] lines = FENCE.matcher(markdown).replaceAll(m -> m.group().replaceAll("[^\\n]", "")).split("\n", -1);
    List<Unit> units = new ArrayList<>();
    StringBuilder text = new StringBuilder();
    int first = 0;
    String previous = "";
    String introduction = "";
    for (int i = 0; i <= lines.length; i++) {
      String line = i < lines.length ? lines[i] : "";
      boolean row = line.startsWith("|");
      boolean starts = line.isBlank() || row || line.startsWith("- ") || text.toString().startsWith("|");
      if (starts && text.length() > 0) {
        units.add(new Unit(first + 1, text.toString(), text.charAt(0) == '|' ? introduction : ""));
        if (text.charAt(0) != '|') {
          previous = text.toString();
        }
        text.setLength(0);
      }
      if (row && (i == 0 || !lines[i - 1].startsWith("|"))) {
        introduction = previous;
      }
      if (!line.isBlank()) {
        if (text.length() == 0) {
          first = i;
        } else {
          text.append('\n');
        }
        text.append(line);
      }
    }
    return units;
  }
}
