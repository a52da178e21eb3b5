package dev.cryptoworker.kek.kms;

import dev.cryptoworker.keys.KeyEncryptionKey;
import dev.cryptoworker.keys.KeyProvider;
import dev.cryptoworker.keys.KeysetFiles;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A small timed runner (not a test): how long opening a keyset takes through the MiniKMS, the first
 * time in a JVM, then per open without and with the keyset cache. Run with the module's test
 * classpath: {@code java -cp ... dev.cryptoworker.kek.kms.KeysetOpenTimings [uncachedOpens]
 * [cachedOpens]}.
 */
public final class KeysetOpenTimings {
  private KeysetOpenTimings() {}

  public static void main(String[] args) throws Exception {
    int uncached = args.length > 0 ? Integer.parseInt(args[0]) : 1_000;
    int cached = args.length > 1 ? Integer.parseInt(args[1]) : 10_000;
    Path dir = Files.createTempDirectory("kek-timings");
    try (MiniKmsServer kms = new MiniKmsServer(dir.resolve("kms"))) {
      String uri = kms.kekUri(MiniKmsServer.KEY);
      Path keyset = dir.resolve("keyset.json");
      long t0 = System.nanoTime();
      KeysetFiles.generate(keyset, KeyEncryptionKey.fromUri(uri));
      long t1 = System.nanoTime();
      KeyProvider.fromKeysetFile(keyset, uri);
      long t2 = System.nanoTime();
      System.out.printf("first keyset write (KMS client start, generate and decrypt a data key): %.1f ms%n",
          (t1 - t0) / 1e6);
      System.out.printf("first open (one KMS decrypt over HTTP): %.1f ms%n", (t2 - t1) / 1e6);
      long t3 = System.nanoTime();
      for (int i = 0; i < uncached; i++) {
        KeyProvider.fromKeysetFile(keyset, uri);
      }
      long t4 = System.nanoTime();
      System.out.printf("uncached: %d opens, %.3f ms per open (each one KMS decrypt)%n", uncached,
          (t4 - t3) / 1e6 / uncached);
      String cachedUri = uri.replace("#", "?cache-ttl=600&cache-uses=" + cached + "#");
      long t5 = System.nanoTime();
      KeyProvider.fromKeysetFile(keyset, cachedUri);
      long t6 = System.nanoTime();
      for (int i = 1; i < cached; i++) {
        KeyProvider.fromKeysetFile(keyset, cachedUri);
      }
      long t7 = System.nanoTime();
      System.out.printf("cached: first open %.1f ms (one KMS decrypt), then %d opens at %.3f ms per open (no KMS call)%n",
          (t6 - t5) / 1e6, cached - 1, (t7 - t6) / 1e6 / (cached - 1));
    }
  }
}
