package dev.cryptoworker.keys;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.Provider;
import java.util.Comparator;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.crypto.KeyGenerator;
import org.junit.jupiter.api.Assumptions;

/**
 * A SoftHSM2 token for the tests, made once per JVM: initialized in the directory the surefire
 * variable {@code SOFTHSM2_CONF} points into, with an AES-256 key labelled {@value #LABEL} generated
 * on it (sensitive, never extractable). Tests using it are skipped where SoftHSM2 is not installed.
 */
final class SoftHsmToken {
  static final String LABEL = "kek";
  static final String PIN = "1234";
  static final List<Path> LIBRARIES = List.of(Path.of("/usr/lib/softhsm/libsofthsm2.so"),
      Path.of("/usr/lib/x86_64-linux-gnu/softhsm/libsofthsm2.so"));

  private static Path config;

  private SoftHsmToken() {}

  /** The SunPKCS11 configuration of the token; skips the calling test where there is no SoftHSM2. */
  static synchronized Path config() throws Exception {
    if (config == null) {
      Path library = LIBRARIES.stream().filter(Files::isReadable).findFirst().orElse(null);
      Assumptions.assumeTrue(library != null, "SoftHSM2 is not installed (Debian package softhsm2:"
          + " apt-get install softhsm2); skipping the PKCS#11 tests");
      String conf = System.getenv("SOFTHSM2_CONF");
      Assumptions.assumeTrue(conf != null, "SOFTHSM2_CONF is not set: run the PKCS#11 tests through Maven,"
          + " whose surefire configuration sets it");
      config = create(library, Path.of(conf));
    }
    return config;
  }

  private static Path create(Path library, Path conf) throws Exception {
    Path dir = conf.getParent();
    Path tokens = dir.resolve("tokens");
    if (Files.exists(tokens)) {
      try (Stream<Path> old = Files.walk(tokens)) {
        for (Path p : old.sorted(Comparator.reverseOrder()).toList()) {
          Files.delete(p);
        }
      }
    }
    Files.createDirectories(tokens);
    Files.writeString(conf, "directories.tokendir = " + tokens + "\nobjectstore.backend = file\nlog.level = ERROR\n");
    String output = run("softhsm2-util", "--init-token", "--free", "--label", "cryptoworker-test", "--pin", PIN,
        "--so-pin", "87654321");
    Matcher slot = Pattern.compile("reassigned to slot (\\d+)").matcher(output);
    if (!slot.find()) {
      throw new IllegalStateException("softhsm2-util said no slot: " + output);
    }
    Path config = dir.resolve("pkcs11.cfg");
    Files.writeString(config, String.join("\n",
        "name = SoftHSM-test",
        "library = " + library,
        "slot = " + slot.group(1),
        "attributes(generate, CKO_SECRET_KEY, *) = {",
        "  CKA_SENSITIVE = true",
        "  CKA_EXTRACTABLE = false",
        "}", ""));
    Provider provider = Pkcs11KekSource.provider(config);
    KeyGenerator generator = KeyGenerator.getInstance("AES", provider);
    generator.init(256);
    KeyStore token = KeyStore.getInstance("PKCS11", provider);
    token.load(null, PIN.toCharArray());
    token.setEntry(LABEL, new KeyStore.SecretKeyEntry(generator.generateKey()), null);
    return config;
  }

  private static String run(String... command) throws IOException, InterruptedException {
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (process.waitFor() != 0) {
      throw new IllegalStateException(String.join(" ", command) + " failed: " + output);
    }
    return output;
  }
}
