package dev.cryptoworker.kek.kms;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Writer;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.PrivilegedExceptionAction;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.crypto.key.KeyProvider;
import org.apache.hadoop.crypto.key.KeyProviderFactory;
import org.apache.hadoop.crypto.key.kms.server.KMSWebApp;
import org.apache.hadoop.crypto.key.kms.server.MiniKMS;
import org.apache.hadoop.security.UserGroupInformation;

/**
 * Hadoop's in-process MiniKMS (Jetty on localhost, HTTP, simple authentication), with a key
 * {@value #KEY} every user may use and a key {@value #RESTRICTED} only user {@value #ADMIN} may
 * generate and decrypt data keys with. {@link #main} runs it as the child JVM of {@link
 * MiniKmsProcess}.
 */
final class MiniKmsServer implements AutoCloseable {
  static final String KEY = MiniKmsProcess.KEY;
  static final String RESTRICTED = "restricted-kek";
  static final String ADMIN = "kek-admin";

  private final MiniKMS kms;

  MiniKmsServer(Path confDir) throws Exception {
    Files.createDirectories(confDir);
    write(confDir.resolve("kms-site.xml"), Map.of(
        "hadoop.kms.key.provider.uri", "jceks://file@" + confDir.resolve("kms.keystore").toUri().getPath(),
        "hadoop.kms.authentication.type", "simple"));
    write(confDir.resolve("kms-acls.xml"), Map.ofEntries(
        Map.entry("hadoop.kms.acl.CREATE", "*"), Map.entry("hadoop.kms.acl.DELETE", "*"),
        Map.entry("hadoop.kms.acl.ROLLOVER", "*"), Map.entry("hadoop.kms.acl.GET", "*"),
        Map.entry("hadoop.kms.acl.GET_KEYS", "*"), Map.entry("hadoop.kms.acl.GET_METADATA", "*"),
        Map.entry("hadoop.kms.acl.SET_KEY_MATERIAL", "*"), Map.entry("hadoop.kms.acl.GENERATE_EEK", "*"),
        Map.entry("hadoop.kms.acl.DECRYPT_EEK", "*"),
        Map.entry("default.key.acl.MANAGEMENT", "*"), Map.entry("default.key.acl.GENERATE_EEK", "*"),
        Map.entry("default.key.acl.DECRYPT_EEK", "*"), Map.entry("default.key.acl.READ", "*"),
        Map.entry("key.acl." + RESTRICTED + ".GENERATE_EEK", ADMIN),
        Map.entry("key.acl." + RESTRICTED + ".DECRYPT_EEK", ADMIN),
        Map.entry("key.acl." + RESTRICTED + ".MANAGEMENT", ADMIN), Map.entry("key.acl." + RESTRICTED + ".READ", "*")));
    File dir = confDir.toFile();
    kms = new MiniKMS.Builder().setKmsConfDir(dir).setLog4jConfFile("log4j.properties").build();
    kms.start();
    createKey(KEY);
    createKey(RESTRICTED);
  }

  /**
   * Runs a MiniKMS in the configuration directory {@code args[0]}: prints {@code READY} and its
   * provider URI, then answers {@code decrypts} with the number of data keys it decrypted, and
   * stops at the end of its input (its parent closed it or died).
   */
  public static void main(String[] args) throws Exception {
    try (MiniKmsServer kms = new MiniKmsServer(Path.of(args[0]));
        BufferedReader commands = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.US_ASCII))) {
      System.out.println(MiniKmsProcess.READY + kms.providerUri());
      for (String command = commands.readLine(); command != null; command = commands.readLine()) {
        System.out.println(command.equals(MiniKmsProcess.DECRYPTS)
            ? MiniKmsProcess.DECRYPTS + " " + kms.decryptCalls() : "ERR " + command);
      }
    }
    System.exit(0);
  }

  /** The decrypt requests ({@code decryptEncryptedKey}) the MiniKMS of this JVM received, from its own metrics. */
  long decryptCalls() {
    return KMSWebApp.getDecryptEEKCallsMeter().getCount();
  }

  /** {@code kms://http@localhost:PORT/kms}. */
  URI providerUri() {
    return URI.create("kms://http@localhost:" + kms.getKMSUrl().getPort() + "/kms");
  }

  /** The key-encryption key URI of {@code key}. */
  String kekUri(String key) {
    return providerUri() + "#" + key;
  }

  private void createKey(String name) throws Exception {
    Configuration conf = new Configuration();
    UserGroupInformation.createRemoteUser(ADMIN).doAs((PrivilegedExceptionAction<Void>) () -> {
      KeyProvider provider = KeyProviderFactory.get(providerUri(), conf);
      provider.createKey(name, new KeyProvider.Options(conf).setBitLength(256).setCipher("AES/CTR/NoPadding"));
      provider.flush();
      return null;
    });
  }

  private static void write(Path file, Map<String, String> properties) throws IOException {
    Configuration conf = new Configuration(false);
    properties.forEach(conf::set);
    try (Writer out = Files.newBufferedWriter(file)) {
      conf.writeXml(out);
    }
  }

  @Override
  public void close() {
    kms.stop();
  }
}
