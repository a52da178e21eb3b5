package dev.cryptoworker.embedded;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The child JVM's classpath as recorded at build time, resolved where this jar now runs: entries in
 * the local Maven repository are recorded relative to it ({@value #REPO} prefix) and resolved
 * against this machine's repository; entries of this project's own modules, recorded as their
 * build output ({@code <module>/target/<module>-<version>.jar}), fall back to the installed
 * artifact when that checkout is gone (an installed {@code embedded-hbase} used from anywhere).
 */
final class ServerClasspath {
  /** The placeholder the build writes for the local repository (maven-dependency-plugin's localRepoProperty). */
  static final String REPO = "@M2_REPO@";
  private static final Pattern MODULE_JAR = Pattern.compile(".*[/\\\\]([^/\\\\]+)[/\\\\]target[/\\\\]\\1-([^/\\\\]+)\\.jar");
  private static final String GROUP_PATH = "dev/cryptoworker";

  private ServerClasspath() {}

  /** This machine's local Maven repository: {@code -Dmaven.repo.local}, else {@code ~/.m2/repository}. */
  static Path localRepository() {
    String configured = System.getProperty("maven.repo.local");
    return configured != null && !configured.isBlank()
        ? Paths.get(configured)
        : Paths.get(System.getProperty("user.home"), ".m2", "repository");
  }

  /**
   * Resolves the recorded entries.
   *
   * @throws IllegalStateException naming every entry found nowhere, and what to do
   */
  static List<Path> resolve(String recorded, Path repository, Predicate<Path> exists) {
    List<Path> out = new ArrayList<>();
    List<String> missing = new ArrayList<>();
    for (String entry : recorded.strip().split(Pattern.quote(File.pathSeparator))) {
      if (entry.isBlank()) {
        continue;
      }
      Path resolved = resolveEntry(entry, repository, exists);
      if (resolved == null) {
        missing.add(entry);
      } else {
        out.add(resolved);
      }
    }
    if (!missing.isEmpty()) {
      throw new IllegalStateException("the embedded HBase's server classpath has entries that exist neither where"
          + " they were built nor in the local Maven repository " + repository + ": " + missing
          + ". Build and install the project (./mvnw install -DskipTests) on this machine, or run from its checkout");
    }
    return out;
  }

  private static Path resolveEntry(String entry, Path repository, Predicate<Path> exists) {
    if (entry.startsWith(REPO)) {
      Path p = repository.resolve(entry.substring(REPO.length()).replaceFirst("^[/\\\\]", ""));
      return exists.test(p) ? p : null;
    }
    Path p = Paths.get(entry);
    if (exists.test(p)) {
      return p;
    }
    Matcher m = MODULE_JAR.matcher(entry);
    if (m.matches()) {
      String artifact = m.group(1);
      String version = m.group(2);
      Path installed = repository.resolve(Paths.get(GROUP_PATH, artifact, version, artifact + "-" + version + ".jar"));
      return exists.test(installed) ? installed : null;
    }
    return null;
  }

  /** {@link #resolve} against the file system. */
  static List<Path> resolve(String recorded) {
    return resolve(recorded, localRepository(), Files::exists);
  }
}
