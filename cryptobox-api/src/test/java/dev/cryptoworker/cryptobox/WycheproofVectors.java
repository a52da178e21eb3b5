package dev.cryptoworker.cryptobox;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.security.GeneralSecurityException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Predicate;

/**
 * Replays a Project Wycheproof test-vector file (JSON, on the test class path) against a
 * primitive, in the style of Tink's {@code AesGcmJceTest}: every failure is collected and reported
 * at once, and the numbers of vectors replayed and skipped are checked against the caller's
 * expectation, so a test cannot pass by replaying nothing. Published in this module's test jar.
 *
 * <p>Per vector, {@link Checks#encryption} and {@link Checks#decryption} apply Wycheproof's
 * rules: a {@code valid} vector is reproduced exactly; an {@code invalid} one is rejected with a
 * {@link GeneralSecurityException} on decryption (and its ciphertext is never what encryption
 * produces); an {@code acceptable} one may be accepted (then exactly) or rejected, but the same
 * way by every operation replayed on it.
 */
public final class WycheproofVectors {
  /** Wycheproof's verdict on a vector. */
  public enum Result {
    VALID,
    INVALID,
    ACCEPTABLE
  }

  /** One step of a replay: encrypts or decrypts, or throws. */
  @FunctionalInterface
  public interface Operation {
    byte[] run() throws GeneralSecurityException;
  }

  /** Replays one vector of an applicable group through {@code checks}. */
  @FunctionalInterface
  public interface Replay {
    void replay(Group group, Vector vector, Checks checks) throws GeneralSecurityException;
  }

  private static final HexFormat HEX = HexFormat.of();

  private final String resource;
  private final JsonNode root;

  private WycheproofVectors(String resource, JsonNode root) {
    this.resource = resource;
    this.root = root;
  }

  /** Reads {@code resource} (for example {@code /wycheproof/aes_gcm_test.json}) from the class path. */
  public static WycheproofVectors load(String resource) {
    try (InputStream in = WycheproofVectors.class.getResourceAsStream(resource)) {
      if (in == null) {
        throw new IllegalArgumentException("no test resource " + resource);
      }
      return new WycheproofVectors(resource, new ObjectMapper().readTree(in));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + resource, e);
    }
  }

  /** The number of tests the file's header announces. */
  public int numberOfTests() {
    return root.path("numberOfTests").asInt();
  }

  /** The test groups, in file order. */
  public List<Group> groups() {
    List<Group> groups = new ArrayList<>();
    for (JsonNode g : root.path("testGroups")) {
      groups.add(new Group(g));
    }
    return groups;
  }

  /**
   * Replays every vector of the groups {@code applicable} accepts and counts the others as
   * skipped; an exception escaping {@code replay} is recorded as that vector's failure.
   */
  public Report replay(Predicate<Group> applicable, Replay replay) {
    Report report = new Report(resource, numberOfTests());
    for (Group group : groups()) {
      if (!applicable.test(group)) {
        report.skipped += group.tests().size();
        continue;
      }
      for (Vector vector : group.tests()) {
        Checks checks = new Checks(group, vector, report.failures);
        try {
          replay.replay(group, vector, checks);
        } catch (GeneralSecurityException | RuntimeException e) {
          checks.fail("replay threw " + e);
        }
        checks.finish();
        report.replayed.merge(vector.result(), 1, Integer::sum);
      }
    }
    return report;
  }

  /** A test group: shared parameters (key, IV and tag sizes in bits) and its vectors. */
  public static final class Group {
    private final JsonNode node;

    private Group(JsonNode node) {
      this.node = node;
    }

    /** An integer parameter of the group, such as {@code keySize}, {@code ivSize} or {@code tagSize}. */
    public int parameter(String name) {
      JsonNode value = node.get(name);
      if (value == null || !value.isInt()) {
        throw new IllegalArgumentException("group has no integer parameter " + name + ": " + this);
      }
      return value.asInt();
    }

    public List<Vector> tests() {
      List<Vector> tests = new ArrayList<>();
      for (JsonNode t : node.path("tests")) {
        tests.add(new Vector(t));
      }
      return tests;
    }

    @Override
    public String toString() {
      StringBuilder s = new StringBuilder("group");
      for (Map.Entry<String, JsonNode> e : node.properties()) {
        if (e.getValue().isValueNode()) {
          s.append(' ').append(e.getKey()).append('=').append(e.getValue().asText());
        }
      }
      return s.toString();
    }
  }

  /** One test vector. */
  public static final class Vector {
    private final JsonNode node;

    private Vector(JsonNode node) {
      this.node = node;
    }

    public int tcId() {
      return node.path("tcId").asInt();
    }

    public Result result() {
      return Result.valueOf(node.path("result").asText().toUpperCase(Locale.ROOT));
    }

    /** A hex field such as {@code key}, {@code iv}, {@code aad}, {@code msg}, {@code ct} or {@code tag}. */
    public byte[] bytes(String field) {
      JsonNode value = node.get(field);
      if (value == null || !value.isTextual()) {
        throw new IllegalArgumentException("vector " + tcId() + " has no hex field " + field);
      }
      return HEX.parseHex(value.asText());
    }

    @Override
    public String toString() {
      return "tcId " + tcId() + " (" + node.path("result").asText() + ", '" + node.path("comment").asText()
          + "', flags " + node.path("flags") + ")";
    }
  }

  /** Applies Wycheproof's rules to the operations replayed on one vector. */
  public static final class Checks {
    private final Group group;
    private final Vector vector;
    private final Result result;
    private final List<String> failures;
    private final List<String> accepted = new ArrayList<>();
    private final List<String> rejected = new ArrayList<>();

    private Checks(Group group, Vector vector, List<String> failures) {
      this.group = group;
      this.vector = vector;
      this.result = vector.result();
      this.failures = failures;
    }

    /** Encrypts the vector's message: exactly {@code expected} if valid, anything else if invalid. */
    public void encryption(Operation encrypt, byte[] expected) {
      byte[] out = run("encryption", encrypt);
      if (out == null) {
        return;
      }
      boolean same = Arrays.equals(expected, out);
      if (result == Result.INVALID ? same : !same) {
        fail("encryption gave " + HEX.formatHex(out) + (result == Result.INVALID
            ? ", the invalid vector's ciphertext" : ", expected " + HEX.formatHex(expected)));
      }
    }

    /** Decrypts the vector's ciphertext: exactly {@code expected} if valid, rejected if invalid. */
    public void decryption(Operation decrypt, byte[] expected) {
      byte[] out = run("decryption", decrypt);
      if (out == null) {
        return;
      }
      if (result == Result.INVALID) {
        fail("decryption accepted an invalid vector, giving " + HEX.formatHex(out));
      } else if (!Arrays.equals(expected, out)) {
        fail("decryption gave " + HEX.formatHex(out) + ", expected " + HEX.formatHex(expected));
      }
    }

    /**
     * The operation's output, or null when it threw (rejected the vector): a failure for a valid
     * vector, and for any exception but a GeneralSecurityException.
     */
    private byte[] run(String what, Operation operation) {
      try {
        byte[] out = operation.run();
        accepted.add(what);
        return out;
      } catch (GeneralSecurityException | RuntimeException e) {
        rejected.add(what);
        if (e instanceof RuntimeException) {
          fail(what + " threw " + e + " instead of a GeneralSecurityException");
        } else if (result == Result.VALID) {
          fail(what + " rejected a valid vector: " + e.getMessage());
        }
        return null;
      }
    }

    private void fail(String message) {
      failures.add(group + ", " + vector + ": " + message);
    }

    /** An acceptable vector is accepted or rejected, but not both. */
    private void finish() {
      if (result == Result.ACCEPTABLE && !accepted.isEmpty() && !rejected.isEmpty()) {
        fail("acceptable vector handled inconsistently: " + accepted + " accepted, " + rejected + " rejected");
      }
    }
  }

  /** What a replay did: vectors replayed per result, vectors skipped, failures. */
  public static final class Report {
    private final String resource;
    private final int numberOfTests;
    private final Map<Result, Integer> replayed = new EnumMap<>(Result.class);
    private final List<String> failures = new ArrayList<>();
    private int skipped;

    private Report(String resource, int numberOfTests) {
      this.resource = resource;
      this.numberOfTests = numberOfTests;
    }

    public int replayed(Result result) {
      return replayed.getOrDefault(result, 0);
    }

    public int skipped() {
      return skipped;
    }

    public List<String> failures() {
      return failures;
    }

    /**
     * Asserts that no vector failed, that something was replayed, that exactly the expected
     * numbers of vectors were replayed and skipped, and that together they are every test the
     * file announces.
     */
    public void assertPassed(int valid, int invalid, int acceptable, int expectedSkipped) {
      assertTrue(failures.isEmpty(),
          resource + ": " + failures.size() + " failing vectors:\n" + String.join("\n", failures));
      int total = replayed(Result.VALID) + replayed(Result.INVALID) + replayed(Result.ACCEPTABLE);
      assertTrue(total > 0, resource + ": no vector replayed");
      assertEquals(List.of(valid, invalid, acceptable, expectedSkipped),
          List.of(replayed(Result.VALID), replayed(Result.INVALID), replayed(Result.ACCEPTABLE), skipped),
          resource + ": vectors replayed (valid, invalid, acceptable) and skipped");
      assertEquals(numberOfTests, total + skipped, resource + ": replayed and skipped vectors against the file's count");
    }
  }
}
