package dev.cryptoworker.client;

import dev.cryptoworker.cryptobox.AssociatedData;
import dev.cryptoworker.cryptobox.BoxKind;
import dev.cryptoworker.cryptobox.SecretKeyAccess;
import dev.cryptoworker.cryptobox.VersionedKey;
import dev.cryptoworker.keys.KeyProvider;
import dev.cryptoworker.keys.KeyScope;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.Arrays;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Names of identifier-counter rows: a keyed PRF (HMAC-SHA256, truncated to 16 bytes) of the
 * column's table, family and name, so the counter table reveals neither table, family nor column
 * names (a family with {@code protectQualifiers} keeps its column names secret there too), only how
 * many ASHE columns exist and how many values they have leased.
 */
final class CounterRows {
  private static final int NAME_BYTES = 16;

  private CounterRows() {}

  /** The counter row of the ASHE column {@code scope} (under the keyset's oldest key: names never rotate). */
  static byte[] name(KeyProvider keys, KeyScope scope) throws GeneralSecurityException {
    VersionedKey key = keys.keyRing(
        new KeyScope(scope.table(), scope.family(), scope.column(), "identifier-counter", BoxKind.ASHE), 32)
        .oldestOnly().primary();
    Mac mac = Mac.getInstance("HmacSHA256");
    mac.init(key.key().withCopy(SecretKeyAccess.insecure(), bytes -> new SecretKeySpec(bytes, "HmacSHA256")));
    byte[] tag = mac.doFinal(AssociatedData.of("identifier-counter", utf8(scope.table()), utf8(scope.family()),
        utf8(scope.column())));
    return Arrays.copyOf(tag, NAME_BYTES);
  }

  /** The row name earlier versions used: the plaintext names. */
  static byte[] legacyName(KeyScope scope) {
    return utf8(scope.table() + "/" + scope.family() + "/" + scope.column());
  }

  private static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
