package dev.cryptoworker.keys;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;

/** {@code file:PATH} (or {@code file:///PATH}): a base64 32-byte key in a file. */
public final class FileKekSource implements KekSource {
  @Override
  public String form() {
    return "file:PATH";
  }

  @Override
  public KeyEncryptionKey open(KekUri uri, Map<String, String> environment) throws IOException {
    uri.checkParameters();
    EnvKekSource.noFragment(uri);
    return RawKeyEncryptionKeys.fromFile(path(uri));
  }

  /** The body as a path; {@code file:///a} is {@code /a}, as {@code file:/a} is. */
  static Path path(KekUri uri) {
    String body = uri.body();
    return Path.of(body.startsWith("///") ? body.substring(2) : body);
  }
}
