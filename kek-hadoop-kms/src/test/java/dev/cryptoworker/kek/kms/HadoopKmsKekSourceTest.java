package dev.cryptoworker.kek.kms;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cryptoworker.cryptobox.BoxKind;
import dev.cryptoworker.keys.KeyEncryptionKey;
import dev.cryptoworker.keys.KeyProvider;
import dev.cryptoworker.keys.KeyScope;
import dev.cryptoworker.keys.KeysetFiles;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.PrivilegedExceptionAction;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.security.UserGroupInformation;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code kms://} keys against Hadoop's MiniKMS, over real HTTP: envelopes, a KMS down, a denied key. */
class HadoopKmsKekSourceTest {
  private static MiniKmsServer kms;

  @TempDir static Path confDir;
  @TempDir Path dir;

  @BeforeAll
  static void startKms() throws Exception {
    kms = new MiniKmsServer(confDir.resolve("kms"));
  }

  @AfterAll
  static void stopKms() {
    if (kms != null) {
      kms.close();
    }
  }

  private static KeyEncryptionKey kek(String uri) throws Exception {
    return KeyEncryptionKey.fromUri(uri, Map.of());
  }

  @Test
  void keysetsAreEnvelopesTheKmsOpens() throws Exception {
    Path keyset = dir.resolve("keyset.json");
    KeysetFiles.generate(keyset, kek(kms.kekUri(MiniKmsServer.KEY)));
    KeysetFiles.rotate(keyset, kek(kms.kekUri(MiniKmsServer.KEY)));
    assertEquals(2, KeyProvider.fromKeysetFile(keyset, kms.kekUri(MiniKmsServer.KEY))
        .keyRing(KeyScope.rowKey("t", BoxKind.DET), 32).keys().size());
    // An envelope names the KMS key version whose data key sealed it.
    byte[] envelope = kek(kms.kekUri(MiniKmsServer.KEY)).aead().encrypt(new byte[] {1, 2, 3}, new byte[0]);
    assertTrue(new String(envelope, java.nio.charset.StandardCharsets.ISO_8859_1).contains(MiniKmsServer.KEY + "@0"));
  }

  /**
   * Counted by the KMS itself (its decrypt meter): each uncached open is one decrypt there, and
   * 10,000 opens through a URI with cache parameters are one.
   */
  @Test
  void tenThousandCachedOpensMakeOneKmsDecrypt() throws Exception {
    String uri = kms.kekUri(MiniKmsServer.KEY);
    Path keyset = dir.resolve("cached.json");
    KeysetFiles.generate(keyset, kek(uri));
    long uncached = kms.decryptCalls();
    for (int i = 0; i < 3; i++) {
      KeyProvider.fromKeysetFile(keyset, uri);
    }
    assertEquals(3, kms.decryptCalls() - uncached, "KMS decrypts for 3 opens without the cache");
    String cachedUri = kms.providerUri() + "?cache-ttl=600&cache-uses=10000#" + MiniKmsServer.KEY;
    long cached = kms.decryptCalls();
    for (int i = 0; i < 10_000; i++) {
      KeyProvider.fromKeysetFile(keyset, cachedUri);
    }
    assertEquals(1, kms.decryptCalls() - cached, "KMS decrypts for 10,000 cached opens");
  }

  /** Moving a keyset from a raw key onto the KMS: afterwards only the KMS opens it. */
  @Test
  void rewrapOntoTheKms() throws Exception {
    KeyEncryptionKey raw = KeyEncryptionKey.fromBytes(new byte[32]);
    Path keyset = dir.resolve("moved.json");
    KeysetFiles.generate(keyset, raw);
    var keys = KeysetFiles.describe(keyset, raw);
    KeysetFiles.rewrap(keyset, raw, kek(kms.kekUri(MiniKmsServer.KEY)));
    assertEquals(keys, KeysetFiles.describe(keyset, kek(kms.kekUri(MiniKmsServer.KEY))));
    assertThrows(GeneralSecurityException.class, () -> KeysetFiles.describe(keyset, raw));
  }

  @Test
  void aKeyTheAclDeniesIsNamedWithTheUser() throws Exception {
    String uri = kms.kekUri(MiniKmsServer.RESTRICTED);
    Path keyset = dir.resolve("restricted.json");
    as(MiniKmsServer.ADMIN, () -> {
      KeysetFiles.generate(keyset, kek(uri));
      return null;
    });
    GeneralSecurityException decrypt = assertThrows(GeneralSecurityException.class,
        () -> as("mallory", () -> KeyProvider.fromKeysetFile(keyset, uri)));
    String message = rootMessage(decrypt);
    assertTrue(message.contains("Hadoop KMS " + kms.providerUri() + " refused user mallory to decrypt a data key with"
        + " key " + MiniKmsServer.RESTRICTED), message);
    GeneralSecurityException generate = assertThrows(GeneralSecurityException.class,
        () -> as("mallory", () -> {
          KeysetFiles.generate(dir.resolve("mallory.json"), kek(uri));
          return null;
        }));
    assertTrue(generate.getMessage().startsWith("Hadoop KMS " + kms.providerUri() + " refused user mallory to generate"
        + " a data key with key " + MiniKmsServer.RESTRICTED + ": "), generate.getMessage());
    as(MiniKmsServer.ADMIN, () -> KeyProvider.fromKeysetFile(keyset, uri));
  }

  /** A KMS that accepts connections and drops them: one clear error, after at most two attempts per call. */
  @Test
  void aKmsThatIsDownFailsClearlyWithoutRetrying() throws Exception {
    AtomicInteger connections = new AtomicInteger();
    try (ServerSocket broken = new ServerSocket(0)) {
      Thread acceptor = new Thread(() -> {
        while (!broken.isClosed()) {
          try {
            Socket dropped = broken.accept();
            connections.incrementAndGet();
            dropped.close();
          } catch (IOException e) {
            return; // closed
          }
        }
      });
      acceptor.setDaemon(true);
      acceptor.start();
      String uri = "kms://http@localhost:" + broken.getLocalPort() + "/kms#" + MiniKmsServer.KEY;
      GeneralSecurityException e = assertThrows(GeneralSecurityException.class,
          () -> KeysetFiles.generate(dir.resolve("down.json"), kek(uri)));
      assertTrue(e.getMessage().startsWith("cannot generate a data key with key " + MiniKmsServer.KEY
          + " of Hadoop KMS kms://http@localhost:" + broken.getLocalPort() + "/kms as user "), e.getMessage());
      assertTrue(connections.get() >= 1 && connections.get() <= 2,
          connections.get() + " connections for one failed call");
    }
  }

  @Test
  void aKmsNobodyListensOnIsRefusedAtOnce() throws Exception {
    int port;
    try (ServerSocket free = new ServerSocket(0)) {
      port = free.getLocalPort();
    }
    String uri = "kms://http@localhost:" + port + "/kms#" + MiniKmsServer.KEY;
    GeneralSecurityException e = assertThrows(GeneralSecurityException.class,
        () -> KeysetFiles.generate(dir.resolve("refused.json"), kek(uri)));
    assertTrue(e.getMessage().contains("Connection refused"), e.getMessage());
    assertTrue(e.getMessage().contains("key " + MiniKmsServer.KEY), e.getMessage());
  }

  private interface Action<T> {
    T run() throws Exception;
  }

  private static <T> T as(String user, Action<T> action) throws Exception {
    try {
      return UserGroupInformation.createRemoteUser(user).doAs((PrivilegedExceptionAction<T>) action::run);
    } catch (java.lang.reflect.UndeclaredThrowableException e) {
      throw (Exception) e.getCause();
    }
  }

  private static String rootMessage(Throwable t) {
    StringBuilder s = new StringBuilder();
    for (Throwable c = t; c != null; c = c.getCause()) {
      s.append(c.getMessage()).append(" | ");
    }
    return s.toString();
  }
}
