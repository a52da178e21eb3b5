package dev.cryptoworker.keys;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;

/**
 * {@code pkcs12:PATH[?password-env=NAME]#alias}: a 32-byte AES secret key entry of a PKCS#12
 * keystore, its password (the keystore's and the entry's) in the environment variable {@code NAME}
 * (default {@value #DEFAULT_PASSWORD_VARIABLE}). The key's bytes are read into this JVM.
 */
public final class Pkcs12KekSource implements KekSource {
  /** The variable holding the keystore's password unless the URI names another. */
  public static final String DEFAULT_PASSWORD_VARIABLE = "CRYPTOWORKER_KEYSTORE_PASSWORD";

  @Override
  public String form() {
    return "pkcs12:PATH[?password-env=NAME]#alias";
  }

  @Override
  public KeyEncryptionKey open(KekUri uri, Map<String, String> environment) throws IOException {
    uri.checkParameters("password-env");
    String alias = uri.requiredFragment("keystore entry's alias");
    char[] password = Secrets.variable(environment, uri.parameter("password-env", DEFAULT_PASSWORD_VARIABLE),
        "the keystore's password", uri);
    return RawKeyEncryptionKeys.fromKeyStore(Path.of(uri.body()), password, alias, password);
  }
}
