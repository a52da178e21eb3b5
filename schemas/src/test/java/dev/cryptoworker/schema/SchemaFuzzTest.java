package dev.cryptoworker.schema;

import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Mutated example schemas through the loader: every input either parses or is refused with
 * InvalidSchemaException, never another exception type, never a hang.
 */
class SchemaFuzzTest {
  private static final String[] TOKENS = {":", "{", "}", "[", "]", "-", "\n", "  ", "'", "\"", "&a", "*a", "!!binary",
      "box", "OPE", "ASHE", "SPLASHE", "type", "date", "companion", "values", "splays", "\t", "#", "%", "null", "~", "\0"};

  @Test
  void mutatedSchemasFailOnlyWithInvalidSchemaException() throws Exception {
    List<String> seeds = new ArrayList<>();
    for (String resource : ExampleSchemas.RESOURCES) {
      try (InputStream in = SchemaFuzzTest.class.getClassLoader().getResourceAsStream(resource)) {
        seeds.add(new String(in.readAllBytes(), StandardCharsets.UTF_8));
      }
    }
    SplittableRandom r = new SplittableRandom(7);
    int[] outcomes = new int[2];
    assertTimeoutPreemptively(Duration.ofSeconds(60), () -> {
      for (int i = 0; i < 5000; i++) {
        String yaml = mutate(r, seeds.get(r.nextInt(seeds.size())));
        try {
          TableSchema.parse(yaml, "fuzz.yaml");
          outcomes[1]++;
        } catch (InvalidSchemaException expected) {
          outcomes[0]++;
          assertTrue(expected.getMessage().startsWith("fuzz.yaml"), expected.getMessage());
        }
      }
    });
    assertTrue(outcomes[0] > 1000, "most mutations are invalid: " + outcomes[0] + " refused, " + outcomes[1] + " accepted");
  }

  private static String mutate(SplittableRandom r, String s) {
    StringBuilder b = new StringBuilder(s);
    int edits = 1 + r.nextInt(4);
    for (int k = 0; k < edits && b.length() > 0; k++) {
      int at = r.nextInt(b.length());
      switch (r.nextInt(4)) {
        case 0 -> b.deleteCharAt(at);
        case 1 -> b.insert(at, TOKENS[r.nextInt(TOKENS.length)]);
        case 2 -> b.setCharAt(at, (char) r.nextInt(32, 127));
        default -> b.setLength(at);
      }
    }
    return b.toString();
  }
}
