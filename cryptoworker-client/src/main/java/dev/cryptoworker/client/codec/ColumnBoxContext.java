package dev.cryptoworker.client.codec;

import dev.cryptoworker.cryptobox.BoxContext;
import dev.cryptoworker.cryptobox.BoxKind;
import dev.cryptoworker.cryptobox.CryptoBox;
import dev.cryptoworker.cryptobox.IdentifierSource;
import dev.cryptoworker.cryptobox.KeyRing;
import dev.cryptoworker.cryptobox.StoredFormat;
import dev.cryptoworker.keys.KeyProvider;
import dev.cryptoworker.keys.KeyScope;
import dev.cryptoworker.schema.ColumnPolicy;
import dev.cryptoworker.cryptobox.expansion.SharedCounts;
import java.io.IOException;
import java.security.GeneralSecurityException;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * The {@link BoxContext} of one column: its policy, the keys of its scope, the table's stored
 * format, identifier leases, the connection's options, and the registry (for a companion box).
 */
public final class ColumnBoxContext implements BoxContext {
  /** Creates the identifier source of an ASHE column from its key scope. */
  @FunctionalInterface
  public interface IdentifierSources {
    IdentifierSource forScope(KeyScope scope) throws GeneralSecurityException;
  }

  /**
   * Creates an identifier source from its counter's row name ({@link CounterRows}), which the
   * table's codec derives under the table's identity key.
   */
  @FunctionalInterface
  public interface CounterSources {
    IdentifierSource forCounterRow(byte[] counterRow);

    /**
     * The shared counts kept in counter row {@code counterRow}, each name's in the column {@code
     * columnOf} gives ({@link CounterRows#sharedCountsRow}); by default none: every call fails.
     */
    default SharedCounts sharedCounts(byte[] counterRow, Function<String, byte[]> columnOf) {
      return (names, deltas) -> {
        throw new IOException("this client keeps no shared counters (a tool's codec, which writes no column"
            + " that needs them)");
      };
    }
  }

  private final ColumnPolicy policy;
  private final KeyScope scope;
  private final KeyProvider keys;
  private final StoredFormat format;
  private final IdentifierSources identifiers;
  private final Map<String, Integer> boxOptions;
  private final BoxRegistry registry;

  public ColumnBoxContext(ColumnPolicy policy, KeyScope scope, KeyProvider keys, StoredFormat format,
      IdentifierSources identifiers, Map<String, Integer> boxOptions, BoxRegistry registry) {
    this.policy = policy;
    this.scope = scope;
    this.keys = keys;
    this.format = format;
    this.identifiers = identifiers;
    this.boxOptions = boxOptions;
    this.registry = registry;
  }

  /** The column's policy: which kind of box it asks for. */
  public ColumnPolicy policy() {
    return policy;
  }

  @Override
  public KeyRing keyRing(int lengthBytes) throws GeneralSecurityException {
    return keys.keyRing(scope, lengthBytes);
  }

  @Override
  public StoredFormat storedFormat() {
    return format;
  }

  @Override
  public String valueType() {
    return policy.type().yamlName();
  }

  @Override
  public CryptoBox companion() throws GeneralSecurityException {
    if (policy.companion().isEmpty()) {
      return null;
    }
    BoxKind kind = policy.companion().get();
    KeyScope companionScope = new KeyScope(scope.table(), scope.family(), scope.column(), "companion", kind);
    return registry.create(new ColumnBoxContext(ColumnPolicy.of(kind, policy.type()), companionScope, keys, format,
        identifiers, boxOptions, registry));
  }

  @Override
  public <S> Optional<S> service(Class<S> type) throws GeneralSecurityException {
    // Identifier leases for this column (ASHE), unique across every writer.
    return type == IdentifierSource.class ? Optional.of(type.cast(identifiers.forScope(scope))) : Optional.empty();
  }

  @Override
  public int option(String name, int fallback) {
    return boxOptions.getOrDefault(name, fallback);
  }
}
