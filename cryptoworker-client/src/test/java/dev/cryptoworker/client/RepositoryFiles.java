package dev.cryptoworker.client;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/** The repository's files as its document tests read them (tests run in their module's directory). */
final class RepositoryFiles {
  static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
  static final Path RESULTS = ROOT.resolve("benchmarks/results");

  private RepositoryFiles() {}

  /**
   * Files of the repository with these endings, outside build output and hidden folders. Those are
   * never entered: tests running beside this one create and delete folders under target/.
   */
  static List<Path> files(String... endings) throws IOException {
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

  /** The pages a user reads: README.md and docs/*.md. */
  static List<Path> userDocs() throws IOException {
    List<Path> documents = new ArrayList<>(List.of(ROOT.resolve("README.md")));
    try (Stream<Path> docs = Files.list(ROOT.resolve("docs"))) {
      docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(documents::add);
    }
    return documents;
  }

  /** The text of a committed result by its file name, empty if there is none. */
  static Optional<String> result(String name) {
    Path file = RESULTS.resolve(name);
    try {
      return Files.isRegularFile(file) ? Optional.of(Files.readString(file)) : Optional.empty();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
