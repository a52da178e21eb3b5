package dev.cryptoworker.keys;

import java.io.IOException;
import java.security.GeneralSecurityException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.concurrent.ConcurrentHashMap;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * The {@link KekSource}s known by scheme: given explicitly, or found through {@link ServiceLoader}
 * in the thread's context class loader (where frameworks such as MapReduce and Spark put a job's
 * jars) and this module's.
 */
public final class KekSources {
  /** The query parameter that turns on {@link KeyEncryptionKey#cached caching}: seconds to keep a keyset. */
  public static final String CACHE_TTL = "cache-ttl";
  /** The query parameter that turns on {@link KeyEncryptionKey#cached caching}: opens before a keyset is decrypted again. */
  public static final String CACHE_USES = "cache-uses";
  private static final long DEFAULT_CACHE_SECONDS = 300;
  /** Caching keys opened in this process, by source class and URI: one per URI, so that every open shares its cache. */
  private static final Map<List<Object>, KeyEncryptionKey> CACHED = new ConcurrentHashMap<>();

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
    if (!parsed.query().containsKey(CACHE_TTL) && !parsed.query().containsKey(CACHE_USES)) {
      return sourceOf(parsed).open(parsed, environment);
    }
    KekSource source = sourceOf(parsed);
    List<Object> name = List.of(source.getClass(), parsed.text()); // standard() makes new instances each time
    KeyEncryptionKey cached = CACHED.get(name);
    if (cached == null) {
      KekUri key = parsed.without(CACHE_TTL, CACHE_USES);
      cached = KeyEncryptionKey.cached(source.open(key, environment),
          Duration.ofSeconds(number(parsed, CACHE_TTL, DEFAULT_CACHE_SECONDS)),
          number(parsed, CACHE_USES, Long.MAX_VALUE));
      KeyEncryptionKey raced = CACHED.putIfAbsent(name, cached);
      cached = raced != null ? raced : cached;
    }
    return cached;
  }

  private static long number(KekUri uri, String parameter, long fallback) {
    String value = uri.parameter(parameter, null);
    try {
      return value == null ? fallback : Long.parseLong(value);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("key-encryption key URI " + uri + ": " + parameter + " must be a number, got "
          + value);
    }
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
