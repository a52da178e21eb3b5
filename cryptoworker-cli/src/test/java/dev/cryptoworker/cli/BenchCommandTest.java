package dev.cryptoworker.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BenchCommandTest {
  @TempDir Path dir;

  @Test
  void runsTheReadmesMainCommandWithTheJobsOptions() throws Exception {
    Cli.Result dry = Cli.run("bench", "--dry-run", "--home", "/opt/cw", "--records=10", "--workloads=A,B");
    assertEquals(0, dry.exitCode(), dry.err());
    assertEquals("/opt/cw/mvnw -q -DskipTests -pl benchmarks -am package exec:exec@ycsb"
        + " -Dbench.args=--records=10 --workloads=A,B", dry.out().strip());
    Cli.Result plain = Cli.run("bench", "--dry-run", "--home", "/opt/cw");
    assertEquals("/opt/cw/mvnw -q -DskipTests -pl benchmarks -am package exec:exec@ycsb", plain.out().strip());

    // The README's main job is this command: a change to one must change the other.
    String readme = Files.readString(Paths.get("..", "README.md"));
    assertTrue(readme.contains("    ./mvnw " + String.join(" ", BenchCommand.MAIN_JOB) + "\n"), "README main command");
  }

  @Test
  void outsideACheckoutItSaysWhatIsMissing() {
    Cli.Result result = Cli.run("bench", "--home", dir.toString(), "--records=10");
    assertEquals(1, result.exitCode());
    assertTrue(result.err().contains("is not an executable Maven wrapper"), result.err());
  }
}
