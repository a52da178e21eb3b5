package dev.cryptoworker.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cryptoworker.cryptobox.BoxKind;
import dev.cryptoworker.schema.TableSchema;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SchemaPlanCommandTest {
  private static final Path DIR = Path.of("src", "test", "resources", "plan");
  private static final String ADS = DIR.resolve("ads-plaintext.yaml").toString();
  private static final String ADS_QUERIES = DIR.resolve("ads-queries.sql").toString();

  @TempDir Path dir;

  @Test
  void writesASchemaTheLoaderOpensAndNamesUnservableQueries() throws Exception {
    Path out = dir.resolve("ads.yaml");
    Cli.Result result = Cli.run("schema", "plan", "--schema", ADS, "--queries", ADS_QUERIES, "--out", out.toString());
    assertEquals(0, result.exitCode(), "unservable queries fail only with --strict: " + result.err());
    assertEquals("", result.out());
    TableSchema planned = TableSchema.load(out);
    assertEquals(BoxKind.OPE, planned.rowKeyPolicy().box());
    assertEquals(0, Cli.run("schema", "check", out.toString()).exitCode());
    assertTrue(result.err().contains(ADS_QUERIES + ":11: unservable: LIKE:"), result.err());
    assertTrue(Files.readString(out).contains("# Sample queries no box answers on the servers:"));
  }

  @Test
  void strictFailsOnAnUnservableQueryButStillPrintsThePlan() {
    Cli.Result result = Cli.run("schema", "plan", "--schema", ADS, "--queries", ADS_QUERIES, "--strict");
    assertEquals(1, result.exitCode());
    assertTrue(result.out().contains("table: ads"), result.out());
  }

  @Test
  void badInputFailsNamingFileLineAndReason() throws Exception {
    Path queries = Files.writeString(dir.resolve("q.sql"), "SELECT * FROM ads;\nSELECT SUM(revenue) FROM ads\n"
        + "  WHERE contry = 'FR';\n");
    Cli.Result unknown = Cli.run("schema", "plan", "--schema", ADS, "--queries", queries.toString());
    assertEquals(1, unknown.exitCode());
    assertEquals(queries + ":2: unknown column 'contry' (no family lists it; the row key is rowkey)",
        unknown.err().strip());
    assertEquals("", unknown.out());

    Path schema = Files.writeString(dir.resolve("s.yaml"), "table: ads\nrowKey: { type: string }\nfamilies:\n"
        + "  e:\n    default: { box: DET }\n");
    Cli.Result boxed = Cli.run("schema", "plan", "--schema", schema.toString(), "--queries", queries.toString());
    assertEquals(1, boxed.exitCode());
    assertEquals(schema + ":5: table ads, families.e.default.box: a plaintext schema gives no box (or PLAIN): the planner"
        + " chooses them", boxed.err().strip());
  }
}
