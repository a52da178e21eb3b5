package dev.cryptoworker.client;

import static dev.cryptoworker.client.RepositoryFiles.ROOT;
import static dev.cryptoworker.client.RepositoryFiles.files;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The repository's documents stand on their own: every relative link in its Markdown resolves, no
 * source, build or document file cites a path outside the repository, and the docs name the commit
 * of each benchmark result they cite. Their figures are checked against those results by
 * {@link DocumentedFiguresTest}.
 */
class RepositoryDocsTest {
  private static final Pattern LINK = Pattern.compile("\\]\\(([^)\\s]+)\\)");
  private static final Pattern FENCE = Pattern.compile("```.*?```", Pattern.DOTALL);
  /** The design notes beside the repository (written so that this file does not match itself). */
  private static final Pattern OUTSIDE = Pattern.compile("shared[/]design|[.][.]/shared/");
  /** How result files state the commit they measured ({@code Commit: 5d82359}, {@code commit 0f26d30}, {@code commit (5d82359)}). */
  private static final Pattern STATED_COMMIT = Pattern.compile("(?i)commit\\W{0,3}([0-9a-f]{7})[0-9a-f]*\\b");

  @Test
  void everyRelativeMarkdownLinkResolves() throws IOException {
    List<Path> documents = files(".md");
    assertTrue(documents.size() > 20, "the README and module READMEs: " + documents.size());
    List<String> broken = new ArrayList<>();
    for (Path doc : documents) {
      String text = FENCE.matcher(Files.readString(doc)).replaceAll("");
      Matcher m = LINK.matcher(text);
      while (m.find()) {
        String target = m.group(1);
        String path = target.split("#", 2)[0];
        if (target.matches("[a-z]+:.*") || path.isEmpty()) {
          continue; // web addresses, mail, anchors within the document
        }
        if (!Files.exists(doc.getParent().resolve(path))) {
          broken.add(ROOT.relativize(doc) + ": " + target);
        }
      }
    }
    assertEquals(List.of(), broken);
  }

  @Test
  void noFileCitesAPathOutsideTheRepository() throws IOException {
    List<String> found = new ArrayList<>();
    for (Path file : files(".java", ".md", ".xml", ".yaml", ".properties")) {
      List<String> lines = Files.readAllLines(file);
      for (int i = 0; i < lines.size(); i++) {
        if (OUTSIDE.matcher(lines.get(i)).find()) {
          found.add(ROOT.relativize(file) + ":" + (i + 1));
        }
      }
    }
    assertEquals(List.of(), found);
  }

  /**
   * A figure in README.md or docs/ names the result file it comes from and the commit that file
   * measured: each link to a result file that states a commit sits in a paragraph, list item or
   * table (a table with the paragraph introducing it) naming one of its commits, so a stale figure
   * shows its age.
   */
  @Test
  void everyCitedResultNamesItsCommit() throws IOException {
    List<String> unnamed = new ArrayList<>();
    int cited = 0;
    for (Path doc : RepositoryFiles.userDocs()) {
      for (MarkdownUnits.Unit unit : MarkdownUnits.of(Files.readString(doc))) {
        Matcher link = CitedFigures.RESULT_LINK.matcher(unit.text());
        while (link.find()) {
          if (link.group(1).equals("README.md")) {
            continue; // the results' index, not a result
          }
          List<String> stated = new ArrayList<>();
          Matcher commit = STATED_COMMIT.matcher(RepositoryFiles.result(link.group(1)).orElse(""));
          while (commit.find()) {
            stated.add(commit.group(1));
          }
          cited++;
          if (!stated.isEmpty() && stated.stream().noneMatch(c -> Pattern.compile("\\b" + c).matcher(unit.withIntroduction()).find())) {
            unnamed.add(ROOT.relativize(doc) + ":" + unit.line() + ": " + link.group(1) + " (states " + stated + ")");
          }
        }
      }
    }
    assertTrue(cited > 40, "links to results: " + cited);
    assertEquals(List.of(), unnamed);
  }
}
