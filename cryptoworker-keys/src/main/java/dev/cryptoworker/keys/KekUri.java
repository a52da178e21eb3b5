package dev.cryptoworker.keys;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * A key-encryption key's URI, split as every {@link KekSource} reads it: {@code
 * scheme:body[?name=value&...][#fragment]}. The body is taken as written (a relative or absolute
 * path, or {@code //host...}), not percent-decoded, so a path needs no escaping unless it holds
 * {@code ?} or {@code #}. A URI names where a key is; it holds no secret (passwords and PINs are
 * named by environment variable).
 *
 * @param text the URI as given
 * @param scheme lower case, without the colon
 * @param body between the colon and the query or fragment
 * @param query the query's parameters, in order
 * @param fragment after {@code #}, absent when there is none
 */
public record KekUri(String text, String scheme, String body, Map<String, String> query, Optional<String> fragment) {

  /**
   * Splits {@code text}.
   *
   * @throws IllegalArgumentException if it has no scheme, no body, or a query parameter without a
   *     value
   */
  public static KekUri parse(String text) {
    int colon = text == null ? -1 : text.indexOf(':');
    if (colon <= 0 || !text.substring(0, colon).matches("[A-Za-z][A-Za-z0-9+.-]*")) {
      throw new IllegalArgumentException("key-encryption key URI must start with a scheme such as env:, file:,"
          + " pkcs12:, pkcs11: or kms:, got: " + text);
    }
    String rest = text.substring(colon + 1);
    Optional<String> fragment = Optional.empty();
    int hash = rest.indexOf('#');
    if (hash >= 0) {
      fragment = Optional.of(rest.substring(hash + 1));
      rest = rest.substring(0, hash);
    }
    Map<String, String> query = new LinkedHashMap<>();
    int question = rest.indexOf('?');
    if (question >= 0) {
      for (String pair : rest.substring(question + 1).split("&")) {
        int equals = pair.indexOf('=');
        if (equals <= 0 || equals == pair.length() - 1) {
          throw new IllegalArgumentException("key-encryption key URI " + text + ": query parameter '" + pair
              + "' is not name=value");
        }
        query.put(pair.substring(0, equals), pair.substring(equals + 1));
      }
      rest = rest.substring(0, question);
    }
    if (rest.isEmpty()) {
      throw new IllegalArgumentException("key-encryption key URI " + text + " names nothing after its scheme");
    }
    return new KekUri(text, text.substring(0, colon).toLowerCase(java.util.Locale.ROOT), rest, Map.copyOf(query),
        fragment);
  }

  /** The fragment, which this URI's scheme requires. */
  public String requiredFragment(String what) {
    return fragment.filter(f -> !f.isEmpty()).orElseThrow(() -> new IllegalArgumentException(
        "key-encryption key URI " + text + " must name the " + what + " after '#'"));
  }

  /** The query parameter {@code name}, or {@code fallback}. */
  public String parameter(String name, String fallback) {
    return query.getOrDefault(name, fallback);
  }

  /**
   * Refuses parameters other than {@code known}: a misspelt one would otherwise be ignored.
   *
   * @throws IllegalArgumentException naming the first unknown parameter
   */
  public void checkParameters(String... known) {
    for (String name : query.keySet()) {
      if (!java.util.List.of(known).contains(name)) {
        throw new IllegalArgumentException("key-encryption key URI " + text + ": unknown parameter '" + name
            + "'" + (known.length == 0 ? " (" + scheme + ": takes none)" : " (known: " + String.join(", ", known)
            + ")"));
      }
    }
  }

  /** This URI without the query parameters {@code names}. */
  public KekUri without(String... names) {
    StringBuilder s = new StringBuilder(text.substring(0, text.indexOf(':') + 1)).append(body);
    String separator = "?";
    for (Map.Entry<String, String> p : query.entrySet()) {
      if (!java.util.List.of(names).contains(p.getKey())) {
        s.append(separator).append(p.getKey()).append('=').append(p.getValue());
        separator = "&";
      }
    }
    fragment.ifPresent(f -> s.append('#').append(f));
    return parse(s.toString());
  }

  @Override
  public String toString() {
    return text;
  }
}
