package dev.cryptoworker.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The repository's documents stand on their own: every relative link in its Markdown resolves, and
 * no source, build or document file cites a path outside the repository.
 */
class RepositoryDocsTest {
  private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
  private static final Pattern LINK = Pattern.compile("\\]\\(([^)\\s]+)\\)");
  private static final Pattern FENCE = Pattern.compile("```.*?```", Pattern.DOTALL);
  /** The design notes beside the repository (written so that this file does not match itself). */
  private static final Pattern OUTSIDE = Pattern.compile("shared[/]design|[.][.]/shared/");

  /**
   * Files of the repository with these endings, outside build output and hidden folders. Those are
   * never entered: tests running beside this one create and delete folders under target/.
   */
  private static List<Path> files(String... endings) throws IOException {
    List<Path> out = new ArrayList<>();
    Files.walkFileTree(ROOT, new SimpleFileVisitor<>() {
      @Override
      public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attributes) {
        String name = dir.getFileName().toString();
        boolean skipped = !dir.equals(ROOT) && (name.equals("target") || name.startsWith(".") || name.equals("runs"));
        return skipped ? FileVisitResult.SKIP_SUBTREE : FileVisitResult.CONTINUE;
      }

      @Override
      public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) {
        String name = file.getFileName().toString();
        if (attributes.isRegularFile() && Stream.of(endings).anyMatch(name::endsWith)) {
          out.add(file);
        }
        return FileVisitResult.CONTINUE;
      }
    });
    return out;
  }

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
}
