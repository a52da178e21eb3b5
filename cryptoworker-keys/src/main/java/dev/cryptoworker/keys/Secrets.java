package dev.cryptoworker.keys;

import java.util.Map;

/** Passwords and PINs that a key URI names by environment variable. */
final class Secrets {
  private Secrets() {}

  /**
   * The variable {@code name} of {@code environment}.
   *
   * @throws IllegalStateException naming the variable, what it should hold and the URI, if unset
   */
  static char[] variable(Map<String, String> environment, String name, String what, KekUri uri) {
    String value = environment.get(name);
    if (value == null || value.isEmpty()) {
      throw new IllegalStateException("environment variable " + name + " (" + what + " for " + uri + ") is not set");
    }
    return value.toCharArray();
  }
}
