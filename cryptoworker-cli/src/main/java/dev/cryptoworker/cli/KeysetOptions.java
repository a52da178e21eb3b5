package dev.cryptoworker.cli;

import dev.cryptoworker.keys.KeyEncryptionKey;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Option;

/** {@code --keyset FILE} and where its key-encryption key comes from (one source at most). */
final class KeysetOptions {

  @Option(names = "--keyset", required = true, paramLabel = "FILE",
      description = "The encrypted Tink keyset file.")
  Path keyset;

  @ArgGroup(exclusive = true, multiplicity = "0..1",
      heading = "Key-encryption key (default: --kek-env "
          + KeyEncryptionKey.DEFAULT_ENVIRONMENT_VARIABLE + "):%n")
  KekSource kek;

  static final class KekSource {
    @Option(names = "--kek-env", paramLabel = "NAME",
        description = "Environment variable holding the base64 32-byte KEK.")
    String environmentVariable;

    @Option(names = "--kek-file", paramLabel = "FILE",
        description = "File holding the base64 32-byte KEK.")
    Path file;

    @ArgGroup(exclusive = false)
    KeyStoreSource keyStore;
  }

  static final class KeyStoreSource {
    @Option(names = "--kek-keystore", required = true, paramLabel = "FILE.p12",
        description = "PKCS#12 keystore holding the KEK as a 32-byte AES secret key entry.")
    Path file;

    @Option(names = "--kek-alias", required = true, paramLabel = "ALIAS",
        description = "The entry's alias.")
    String alias;

    @Option(names = "--kek-keystore-password-env", required = true, paramLabel = "NAME",
        description = "Environment variable holding the keystore's (and entry's) password.")
    String passwordVariable;
  }

  /** The key-encryption key from the chosen source, reading variables from {@code environment}. */
  KeyEncryptionKey keyEncryptionKey(Map<String, String> environment) throws IOException {
    if (kek == null) {
      return KeyEncryptionKey.fromEnvironment(
          KeyEncryptionKey.DEFAULT_ENVIRONMENT_VARIABLE, environment);
    }
    if (kek.environmentVariable != null) {
      return KeyEncryptionKey.fromEnvironment(kek.environmentVariable, environment);
    }
    if (kek.file != null) {
      return KeyEncryptionKey.fromFile(kek.file);
    }
    KeyStoreSource store = kek.keyStore;
    String password = environment.get(store.passwordVariable);
    if (password == null) {
      throw new IllegalStateException(
          "environment variable " + store.passwordVariable + " is not set");
    }
    char[] chars = password.toCharArray();
    return KeyEncryptionKey.fromKeyStore(store.file, chars, store.alias, chars);
  }
}
