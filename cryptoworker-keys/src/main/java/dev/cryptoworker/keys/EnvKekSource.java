package dev.cryptoworker.keys;

import java.util.Map;

/** {@code env:NAME}: a base64 32-byte key in an environment variable. */
public final class EnvKekSource implements KekSource {
  @Override
  public String form() {
    return "env:NAME";
  }

  @Override
  public KeyEncryptionKey open(KekUri uri, Map<String, String> environment) {
    uri.checkParameters();
    noFragment(uri);
    return RawKeyEncryptionKeys.fromEnvironment(uri.body(), environment);
  }

  static void noFragment(KekUri uri) {
    if (uri.fragment().isPresent()) {
      throw new IllegalArgumentException("key-encryption key URI " + uri + ": " + uri.scheme() + ": takes no '#'");
    }
  }
}
