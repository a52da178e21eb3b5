package dev.cryptoworker.cryptobox;

import java.util.List;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.regex.Pattern;

/**
 * The name of a kind of protection a schema can give a row key, qualifier or value. Open: a box
 * module names its own kind ({@link #of}) and registers a {@link BoxProvider} for it; schemas accept
 * every kind whose provider is installed. What a kind leaks and where it may be used is its
 * provider's to say ({@link BoxProvider#rules()}); what the server can do with a configured box's
 * stored bytes is the box's ({@link CryptoBox#capability}).
 *
 * <p>Kinds are interned: one instance per name, so {@code ==} and {@link #equals} agree. The
 * constants below name the kinds this version's modules provide.
 */
public final class BoxKind implements Comparable<BoxKind> {
  private static final Pattern NAME = Pattern.compile("[A-Z][A-Z0-9_]{0,31}");
  private static final ConcurrentMap<String, BoxKind> KINDS = new ConcurrentHashMap<>();
  // The order of this version's kinds in listings and messages; other kinds follow by name.
  private static final List<String> SHIPPED = List.of("PLAIN", "STD", "DET", "OPE", "ASHE", "SSE", "SPLASHE");

  /** No protection ({@code cryptobox-api}). */
  public static final BoxKind PLAIN = of("PLAIN");
  /** Randomized authenticated encryption, AES-GCM ({@code cryptobox-std}). */
  public static final BoxKind STD = of("STD");
  /** Deterministic authenticated encryption, AES-SIV ({@code cryptobox-det}). */
  public static final BoxKind DET = of("DET");
  /** Order-preserving encryption ({@code cryptobox-ope}). */
  public static final BoxKind OPE = of("OPE");
  /** Additively homomorphic encryption, Seabed's ASHE ({@code cryptobox-ashe}). */
  public static final BoxKind ASHE = of("ASHE");
  /** Searchable symmetric encryption with an index in every region ({@code cryptobox-sse}). */
  public static final BoxKind SSE = of("SSE");
  /** Seabed's SPLASHE: a dimension splayed into ASHE indicators ({@code cryptobox-ashe}). */
  public static final BoxKind SPLASHE = of("SPLASHE");

  private final String name;
  private final int rank;

  private BoxKind(String name) {
    this.name = name;
    int shipped = SHIPPED.indexOf(name);
    this.rank = shipped < 0 ? SHIPPED.size() : shipped;
  }

  /**
   * The kind named {@code name}: upper-case letters, digits and underscores, starting with a letter,
   * at most 32 characters.
   *
   * @throws IllegalArgumentException if {@code name} is not such a name
   */
  public static BoxKind of(String name) {
    Objects.requireNonNull(name, "name");
    if (!NAME.matcher(name).matches()) {
      throw new IllegalArgumentException("'" + name + "' is not a box kind name (upper-case letters, digits and"
          + " underscores, starting with a letter, at most 32 characters)");
    }
    return KINDS.computeIfAbsent(name, BoxKind::new);
  }

  /** The name schemas use. */
  public String name() {
    return name;
  }

  /** Whether this kind changes the stored bytes at all. */
  public boolean isProtected() {
    return this != PLAIN;
  }

  /** This version's kinds first, in their documented order; others after them, by name. */
  @Override
  public int compareTo(BoxKind o) {
    int c = Integer.compare(rank, o.rank);
    return c != 0 ? c : name.compareTo(o.name);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof BoxKind k && k.name.equals(name);
  }

  @Override
  public int hashCode() {
    return name.hashCode();
  }

  @Override
  public String toString() {
    return name;
  }
}
