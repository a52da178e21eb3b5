package dev.cryptoworker.keys;

import java.io.IOException;
import java.security.GeneralSecurityException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * The {@link KekSource}s known by scheme: given explicitly, or found through {@link ServiceLoader}
 * in the thread's context class loader (where frameworks such as MapReduce and Spark put a job's
 * jars) and this module's.
 */
public final class KekSources {
  private final Map<String, KekSource> byScheme;

  private KekSources(Collection<KekSource> sources) {
    Map<String, KekSource> map = new TreeMap<>();
    for (KekSource source : sources) {
      map.putIfAbsent(source.scheme(), source);
    }
    this.byScheme = java.util.Collections.unmodifiableMap(map);
  }

  /** Exactly {@code sources}; the first of two for one scheme wins. */
  public static KekSources of(Collection<KekSource> sources) {
    return new KekSources(sources);
  }

  /** The sources registered with {@link ServiceLoader}. */
  public static KekSources standard() {
    List<KekSource> found = new ArrayList<>();
    ClassLoader context = Thread.currentThread().getContextClassLoader();
    if (context != null) {
      ServiceLoader.load(KekSource.class, context).forEach(found::add);
    }
    ServiceLoader.load(KekSource.class, KekSources.class.getClassLoader()).forEach(found::add);
    return new KekSources(found);
  }

  /**
   * The key {@code uri} names.
   *
   * @throws IllegalArgumentException if the URI is malformed or no source opens its scheme
   */
  public KeyEncryptionKey open(String uri, Map<String, String> environment)
      throws IOException, GeneralSecurityException {
    KekUri parsed = KekUri.parse(uri);
    return sourceOf(parsed).open(parsed, environment);
  }

  /**
   * Checks that {@code uri} is well formed and that a source opens its scheme, without opening it:
   * for a process that hands the URI to others (a MapReduce job's tasks).
   *
   * @throws IllegalArgumentException if not
   */
  public KekUri check(String uri) {
    KekUri parsed = KekUri.parse(uri);
    sourceOf(parsed);
    return parsed;
  }

  private KekSource sourceOf(KekUri uri) {
    KekSource source = byScheme.get(uri.scheme());
    if (source == null) {
      throw new IllegalArgumentException("no key-encryption key source for scheme '" + uri.scheme() + "' of " + uri
          + "; known: " + byScheme.values().stream().map(KekSource::form).collect(Collectors.joining(", "))
          + (uri.scheme().equals("kms") ? " (kms: needs module kek-hadoop-kms on the classpath)" : ""));
    }
    return source;
  }
}
