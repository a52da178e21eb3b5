package dev.cryptoworker.client;

import static dev.cryptoworker.client.RepositoryFiles.ROOT;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every figure README.md and docs/ quote from a committed benchmark result is in the result they
 * cite, or derived in it from numbers it states ({@link CitedFigures}; the convention is in
 * docs/testing.md).
 */
class DocumentedFiguresTest {
  private static final String RESULT = "# A run\n\n| side | rows/s | of plain |\n|---|---:|---:|\n"
      + "| plain | 40,624 | 1.00 |\n| secure | 6,165 | 0.15 |\n\nCommit: 5d82359\n";

  @Test
  void everyCitedFigureIsInAResultItCites() throws IOException {
    List<String> problems = new ArrayList<>();
    int checked = 0;
    for (Path doc : RepositoryFiles.userDocs()) {
      checked += CitedFigures.checkPage(ROOT.relativize(doc).toString(), Files.readString(doc), RepositoryFiles::result, problems);
    }
    assertTrue(checked > 200, "figures checked: " + checked);
    assertEquals(List.of(), problems);
  }

  @Test
  void everyDerivedFigureFollowsFromItsResult() throws IOException {
    List<String> problems = new ArrayList<>();
    int derived = 0;
    try (Stream<Path> results = Files.list(RepositoryFiles.RESULTS)) {
      for (Path result : results.filter(p -> p.toString().endsWith(".md")).sorted().toList()) {
        String text = Files.readString(result);
        derived += text.contains("\n## Derived\n") ? 1 : 0;
        problems.addAll(CitedFigures.inResult(ROOT.relativize(result).toString(), text));
      }
    }
    assertTrue(derived > 0, "results with derived figures: " + derived);
    assertEquals(List.of(), problems);
  }

  @Test
  void aFigureMissingFromItsResultIsNamedWithPageLineAndResult() {
    String page = "Intro.\n\nSecure loads run at 0.15 of plain and 0.16 with four threads\n"
        + "([load.md](../benchmarks/results/load.md), 5d82359); goal 0.5.\n";

    List<String> problems = new ArrayList<>();
    int checked = CitedFigures.checkPage("docs/page.md", page, name -> Optional.of(RESULT), problems);

    assertEquals(3, checked);
    assertEquals(List.of("docs/page.md:3: 0.16 is in none of the results it cites [load.md]"), problems);
  }

  @Test
  void aTableRowIsCheckedAgainstTheResultsOfItsIntroduction() {
    String page = "Sources: [load.md](../benchmarks/results/load.md), 5d82359.\n\n"
        + "| load | of plain |\n|---|---:|\n| secure | 0.15 |\n| secure, four threads | 0.61 |\n";

    List<String> problems = new ArrayList<>();
    CitedFigures.checkPage("docs/page.md", page, name -> Optional.of(RESULT), problems);

    assertEquals(List.of("docs/page.md:6: 0.61 is in none of the results it cites [load.md]"), problems);
  }

  @Test
  void aCitedResultThatDoesNotExistIsNamed() {
    String page = "It runs at 0.15 of plain ([gone.md](../benchmarks/results/gone.md), 5d82359).\n";

    List<String> problems = new ArrayList<>();
    CitedFigures.checkPage("docs/page.md", page, name -> Optional.empty(), problems);

    assertEquals(List.of("docs/page.md:1: cites gone.md, which is not in benchmarks/results"), problems);
  }

  @Test
  void aDerivedFigureMustFollowFromNumbersTheResultStates() {
    Map<String, String> lines = Map.of(
        "- 6.6 = 40,624 / 6,165: plain over secure", "",
        "- 6.5 = 40,624 / 6,165: plain over secure",
        "load.md:12: 40,624 / 6,165 is 6.58946, which rounds to 6.6, not 6.5",
        "- 0.16 = median(0.15, 0.16, 0.17): three runs",
        "load.md:12: 0.16 (in 0.16 = median(0.15, 0.16, 0.17)) is not in the result above its Derived section\n"
            + "load.md:12: 0.17 (in 0.16 = median(0.15, 0.16, 0.17)) is not in the result above its Derived section",
        "- 0.15 = 6,165 / 40,624 /", "load.md:12: expected a number, '(' or median( at column 17 of '6,165 / 40,624 /'");
    lines.forEach((line, expected) -> assertEquals(expected,
        String.join("\n", CitedFigures.inResult("load.md", RESULT + "\n## Derived\n\n" + line + "\n")), line));
  }
}
