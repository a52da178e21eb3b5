package dev.cryptoworker.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cryptoworker.schema.ExampleSchemas;
import dev.cryptoworker.schema.TableSchema;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SchemaCommandTest {
  /** The example schemas at the repository root (tests run in the module's directory). */
  private static final String PATIENTS = Path.of("..", "schemas", "patients.yaml").toString();
  private static final String APPOINTMENTS = Path.of("..", "schemas", "appointments.yaml").toString();

  @TempDir Path dir;

  private Path copyOfPatients(String from, String to) throws Exception {
    String yaml = Files.readString(Path.of(PATIENTS));
    assertTrue(yaml.contains(from), from);
    return Files.writeString(dir.resolve("patients-new.yaml"), yaml.replace(from, to));
  }

  private static JsonNode json(Cli.Result result) throws Exception {
    assertEquals(0, result.exitCode(), result.err());
    return new ObjectMapper().readTree(result.out());
  }

  @Test
  void theExampleSchemasAreTheOnesShipped() throws Exception {
    assertEquals(ExampleSchemas.patients(), TableSchema.load(Path.of(PATIENTS)));
    assertEquals(ExampleSchemas.appointments(), TableSchema.load(Path.of(APPOINTMENTS)));
  }

  @Test
  void checkPassesTheExamples() {
    Cli.Result result = Cli.run("schema", "check", PATIENTS, APPOINTMENTS);
    assertEquals(0, result.exitCode(), result.err());
    assertEquals(PATIENTS + ": ok" + System.lineSeparator() + APPOINTMENTS + ": ok"
        + System.lineSeparator(), result.out());
  }

  @Test
  void checkNamesTheFileAndLineOfARefusal() throws Exception {
    Path bad = copyOfPatients("mainId:      { box: DET", "mainId:      { box: DETT");
    Cli.Result result = Cli.run("schema", "check", PATIENTS, bad.toString());
    assertEquals(1, result.exitCode());
    assertEquals(PATIENTS + ": ok" + System.lineSeparator(), result.out());
    assertTrue(result.err().startsWith(bad + ":8: table patients, families.identification.columns.mainId.box:"
        + " unknown box 'DETT'"), result.err());

    Cli.Result missing = Cli.run("schema", "check", dir.resolve("none.yaml").toString());
    assertEquals(1, missing.exitCode());
    assertTrue(missing.err().contains("cannot read"), missing.err());
    assertEquals(2, Cli.run("schema", "check").exitCode(), "no file is a usage error");
  }

  @Test
  void showListsEveryPolicyAndWhatTheServerLearns() {
    Cli.Result result = Cli.run("schema", "show", PATIENTS);
    assertEquals(0, result.exitCode(), result.err());
    String out = result.out();
    assertTrue(out.startsWith("table patients (" + PATIENTS + ")"), out);
    assertTrue(out.contains(("row key: {box: DET, type: bytes}\n    server learns: which operations"
        + " touch the same row; the number of rows").replace("\n", System.lineSeparator())), out);
    assertTrue(out.contains("family identification column mainId: {box: DET, type: string}"), out);
    assertTrue(out.contains("equality of values in the same column (hence frequencies)"), out);
    assertTrue(out.contains("family appointments qualifier names: {protectQualifiers: true}"), out);
    assertTrue(out.contains("equality of qualifier names within the family"), out);
    assertTrue(out.contains("family contacts default: {box: STD, type: string}"), out);
    assertTrue(out.contains("families not listed: REFUSE, a client refuses their cells"), out);
  }

  @Test
  void showSaysUnlistedFamiliesArePlain() throws Exception {
    Path oneColumn = copyOfPatients("families:", "unlistedFamilies: PLAIN\nfamilies:");
    Cli.Result result = Cli.run("schema", "show", oneColumn.toString());
    assertEquals(0, result.exitCode(), result.err());
    assertTrue(result.out().contains("families not listed: PLAIN, stored as they are (server learns everything in"
        + " them)"), result.out());
    assertEquals("PLAIN, stored as they are (server learns everything in them)",
        json(Cli.run("schema", "show", oneColumn.toString(), "--json")).get("unlistedFamilies").asText());
  }

  @Test
  void showAsJsonIncludesTheOpeCompanion() throws Exception {
    JsonNode document = json(Cli.run("schema", "show", APPOINTMENTS, "--json"));
    assertEquals("appointments", document.get("table").asText());
    JsonNode date = null;
    for (JsonNode entry : document.get("entries")) {
      if (entry.get("target").asText().equals("family appointment column date")) {
        date = entry;
      }
    }
    assertEquals("OPE", date.get("box").asText());
    assertEquals("date", date.get("type").asText());
    assertEquals("STD", date.get("companion").asText());
    assertTrue(date.get("serverLearns").asText().startsWith("the order of all values"));
  }

  @Test
  void diffNamesAChangeOfUnlistedFamilies() throws Exception {
    Path oneColumn = copyOfPatients("families:", "unlistedFamilies: PLAIN\nfamilies:");
    Cli.Result result = Cli.run("schema", "diff", PATIENTS, oneColumn.toString());
    assertEquals(0, result.exitCode(), result.err());
    assertEquals("families not listed: REFUSE -> PLAIN  (clients store them unprotected)" + System.lineSeparator(),
        result.out());
  }

  @Test
  void diffOfASchemaWithItselfIsEmpty() {
    Cli.Result result = Cli.run("schema", "diff", PATIENTS, PATIENTS);
    assertEquals(0, result.exitCode(), result.err());
    assertEquals("no differences" + System.lineSeparator(), result.out());
  }

  @Test
  void diffListsABoxChangeAsNeedingReencryption() throws Exception {
    Path changed = copyOfPatients("mainId:      { box: DET", "mainId:      { box: OPE");
    Cli.Result result = Cli.run("schema", "diff", PATIENTS, changed.toString());
    assertEquals(0, result.exitCode(), result.err());
    assertEquals("family identification column mainId: {box: DET, type: string} -> {box: OPE,"
        + " type: string}  (needs re-encryption: box DET -> OPE)" + System.lineSeparator(),
        result.out());
  }

  @Test
  void diffSeesAColumnMovingToItsFamilyDefaultAsAKeyChange() throws Exception {
    Path changed = copyOfPatients("      civilId:     { box: STD, type: string }\n", "");
    JsonNode changes = json(Cli.run("schema", "diff", PATIENTS, changed.toString(), "--json"))
        .get("changes");
    assertEquals(1, changes.size(), changes.toString());
    JsonNode civilId = changes.get(0);
    assertEquals("family identification column civilId", civilId.get("target").asText());
    assertTrue(civilId.get("needsReencryption").asBoolean());
    assertEquals("type string -> bytes; key changes: its own key -> family default's key",
        civilId.get("reason").asText());
  }

  @Test
  void diffSeesAnEqualPolicyUnderItsOwnKey() throws Exception {
    Path changed = copyOfPatients("  contacts:\n    default: { box: STD, type: string }\n",
        "  contacts:\n    default: { box: STD, type: string }\n    columns:\n"
            + "      phone: { box: STD, type: string }\n");
    JsonNode changes = json(Cli.run("schema", "diff", PATIENTS, changed.toString(), "--json"))
        .get("changes");
    assertEquals(1, changes.size(), changes.toString());
    assertEquals("family contacts column phone", changes.get(0).get("target").asText());
    assertEquals("key changes: family default's key -> its own key",
        changes.get(0).get("reason").asText());
  }

  @Test
  void diffListsFamiliesAddedAndRemovedAndQualifierProtection() throws Exception {
    Path changed = copyOfPatients("    protectQualifiers: true           # one qualifier per"
        + " appointment id: names hidden too\n",
        "  notes:\n    default: { box: STD }\n");
    String yaml = Files.readString(changed).replace("  observations:\n    default: { box: STD,"
        + " type: string }\n", "");
    Files.writeString(changed, yaml);
    Cli.Result result = Cli.run("schema", "diff", PATIENTS, changed.toString());
    assertEquals(0, result.exitCode(), result.err());
    String out = result.out();
    assertTrue(out.contains("family observations: present -> absent  (removed"), out);
    assertTrue(out.contains("family notes: absent -> present  (added)"), out);
    assertTrue(out.contains("family appointments qualifier names: {protectQualifiers: true} ->"
        + " {protectQualifiers: false}  (needs re-encryption: protectQualifiers changed)"), out);
    assertFalse(out.contains("no differences"), out);
  }

  @Test
  void diffOfAFailingSchemaFailsWithItsMessage() throws Exception {
    Path bad = copyOfPatients("rowKey: { box: DET }", "rowKey: { box: ASHE }");
    Cli.Result result = Cli.run("schema", "diff", PATIENTS, bad.toString());
    assertEquals(1, result.exitCode());
    assertTrue(result.err().startsWith("cryptoworker: " + bad + ":3: "), result.err());
    assertEquals(2, Cli.run("schema", "diff", PATIENTS).exitCode(), "NEW is required");
  }
}
