package dev.cryptoworker.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The recorded server classpath resolves on another machine, or says what is missing. */
class ServerClasspathTest {
  private static final Path REPO = Paths.get("/home/other/.m2/repository");

  @Test
  void repositoryEntriesResolveAgainstThisMachinesRepository() {
    Path jar = REPO.resolve("org/apache/hbase/hbase-server/2.6.4/hbase-server-2.6.4.jar");
    List<Path> out = ServerClasspath.resolve(
        "@M2_REPO@/org/apache/hbase/hbase-server/2.6.4/hbase-server-2.6.4.jar", REPO, Set.of(jar)::contains);
    assertEquals(List.of(jar), out);
  }

  @Test
  void ownModulesFallBackFromTheirBuildOutputToTheInstalledArtifact() {
    Path installed = REPO.resolve("dev/cryptoworker/cryptoworker-coprocessor/0.1.0-SNAPSHOT/"
        + "cryptoworker-coprocessor-0.1.0-SNAPSHOT.jar");
    String recorded = "/gone/checkout/cryptoworker-coprocessor/target/cryptoworker-coprocessor-0.1.0-SNAPSHOT.jar";
    assertEquals(List.of(installed), ServerClasspath.resolve(recorded, REPO, Set.of(installed)::contains));
    Path built = Paths.get(recorded);
    assertEquals(List.of(built), ServerClasspath.resolve(recorded, REPO, Set.of(built, installed)::contains),
        "the build output wins where it exists (a checkout's own build)");
  }

  @Test
  void missingEntriesAreNamedWithWhatToDo() {
    String recorded = String.join(File.pathSeparator,
        "@M2_REPO@/a/b/1/b-1.jar", "/gone/checkout/region-protocol/target/region-protocol-0.1.0-SNAPSHOT.jar");
    IllegalStateException e = assertThrows(IllegalStateException.class,
        () -> ServerClasspath.resolve(recorded, REPO, p -> false));
    assertTrue(e.getMessage().contains("b-1.jar") && e.getMessage().contains("region-protocol")
        && e.getMessage().contains("install"), e.getMessage());
  }
}
