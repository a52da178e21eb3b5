package dev.cryptoworker.kek.kms;

import dev.cryptoworker.keys.KekSource;
import dev.cryptoworker.keys.KekUri;
import dev.cryptoworker.keys.KeyEncryptionKey;
import java.io.IOException;
import java.net.URI;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.crypto.key.KeyProvider;
import org.apache.hadoop.crypto.key.KeyProviderCryptoExtension;
import org.apache.hadoop.crypto.key.KeyProviderFactory;
import org.apache.hadoop.security.UserGroupInformation;

/**
 * {@code kms://http@HOST:PORT/kms#KEY} (or {@code https@}, or several hosts {@code
 * kms://http@h1;h2:PORT/kms}, as Hadoop spells KMS URIs): a key of a Hadoop KMS, reached through
 * Hadoop's own {@link KeyProvider} and {@link KeyProviderCryptoExtension}. Keysets are sealed under a
 * fresh data key the KMS generates and encrypts with {@code KEY} ({@link KmsEnvelopeAead}); {@code
 * KEY} never leaves the KMS. Authentication and TLS follow the {@code core-site.xml} on the
 * classpath (Kerberos, SSL), as for HDFS encryption zones.
 */
public final class HadoopKmsKekSource implements KekSource {
  @Override
  public String form() {
    return "kms://http@HOST:PORT/kms#KEY";
  }

  /**
   * One KMS client per KMS and user: each holds threads and a queue of prefetched encrypted keys,
   * which must not pass from one user to another.
   */
  private static final Map<String, KeyProviderCryptoExtension> CLIENTS = new ConcurrentHashMap<>();

  @Override
  public KeyEncryptionKey open(KekUri uri, Map<String, String> environment) throws IOException {
    uri.checkParameters();
    String key = uri.requiredFragment("KMS key's name");
    URI provider = URI.create("kms:" + uri.body());
    return KeyEncryptionKey.of(new KmsEnvelopeAead(client(provider), provider, key),
        uri.text() + " (Hadoop KMS envelope)");
  }

  private static KeyProviderCryptoExtension client(URI provider) throws IOException {
    String name = provider + " " + UserGroupInformation.getCurrentUser().getUserName();
    KeyProviderCryptoExtension client = CLIENTS.get(name);
    if (client == null) {
      client = cryptoExtension(provider, new Configuration());
      KeyProviderCryptoExtension raced = CLIENTS.putIfAbsent(name, client);
      if (raced != null) {
        client.close();
        client = raced;
      }
    }
    return client;
  }

  /**
   * The KMS client for {@code provider}: it fails fast (one attempt per KMS host, no failover
   * loops) and prefetches no batches of encrypted keys, since a keyset write needs one.
   */
  static KeyProviderCryptoExtension cryptoExtension(URI provider, Configuration conf) throws IOException {
    conf.setInt("hadoop.security.kms.client.failover.max.retries", 0);
    conf.setInt("hadoop.security.kms.client.encrypted.key.cache.size", 1);
    conf.setFloat("hadoop.security.kms.client.encrypted.key.cache.low-watermark", 1.0f);
    conf.setInt("hadoop.security.kms.client.encrypted.key.cache.num.refill.threads", 1);
    KeyProvider kms = KeyProviderFactory.get(provider, conf);
    if (kms == null) {
      throw new IOException("no Hadoop key provider for " + provider + " (hadoop-common's KMS client missing?)");
    }
    return KeyProviderCryptoExtension.createKeyProviderCryptoExtension(kms);
  }
}
