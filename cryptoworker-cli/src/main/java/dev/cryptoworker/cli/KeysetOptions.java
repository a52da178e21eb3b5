package dev.cryptoworker.cli;

import dev.cryptoworker.keys.KeyEncryptionKey;
import java.io.IOException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
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
    @Option(names = "--kek", paramLabel = "URI",
        description = "The key-encryption key's URI: env:NAME, file:PATH, pkcs12:PATH[?password-env=NAME]#alias,"
            + " pkcs11:CONFIG[?pin-env=NAME]#label or kms://http@HOST:PORT/kms#KEY; any may take the query"
            + " parameters cache-ttl=SECONDS and"
            + " cache-uses=N (docs/keks.md)."
            + " The options below are older spellings of the first three.")
    String uri;

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
  KeyEncryptionKey keyEncryptionKey(Map<String, String> environment) throws IOException, GeneralSecurityException {
    return KeyEncryptionKey.fromUri(uri(), environment);
  }

  /** The chosen source as a URI: the older options are spellings of {@code env:}, {@code file:} and {@code pkcs12:}. */
  String uri() {
    if (kek == null) {
      return "env:" + KeyEncryptionKey.DEFAULT_ENVIRONMENT_VARIABLE;
    }
    if (kek.uri != null) {
      return kek.uri;
    }
    if (kek.environmentVariable != null) {
      return "env:" + kek.environmentVariable;
    }
    if (kek.file != null) {
      return "file:" + kek.file;
    }
    return "pkcs12:" + kek.keyStore.file + "?password-env=" + kek.keyStore.passwordVariable + "#" + kek.keyStore.alias;
  }
}
