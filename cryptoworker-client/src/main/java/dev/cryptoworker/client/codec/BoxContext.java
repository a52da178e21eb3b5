package dev.cryptoworker.client.codec;

import dev.cryptoworker.cryptobox.BoxKind;
import dev.cryptoworker.cryptobox.CryptoBox;
import dev.cryptoworker.cryptobox.KeyRing;
import dev.cryptoworker.cryptobox.StoredFormat;
import dev.cryptoworker.cryptobox.ashe.IdentifierSource;
import dev.cryptoworker.keys.KeyProvider;
import dev.cryptoworker.keys.KeyScope;
import dev.cryptoworker.schema.ColumnPolicy;
import dev.cryptoworker.schema.ValueType;
import java.security.GeneralSecurityException;

/**
 * What a {@link BoxFactory} may use to build one column's box: the policy, the keys of the
 * column's scope, the table's stored format, identifier leases, options, and the registry (for a
 * companion box).
 */
public final class BoxContext {
  /** Creates the identifier source of an ASHE column from its key scope. */
  @FunctionalInterface
  public interface IdentifierSources {
    IdentifierSource forScope(KeyScope scope) throws GeneralSecurityException;
  }

  private final ColumnPolicy policy;
  private final KeyScope scope;
  private final KeyProvider keys;
  private final StoredFormat format;
  private final IdentifierSources identifiers;
  private final int orderPreservingMemoEntries;
  private final BoxRegistry registry;

  BoxContext(ColumnPolicy policy, KeyScope scope, KeyProvider keys, StoredFormat format,
      IdentifierSources identifiers, int orderPreservingMemoEntries, BoxRegistry registry) {
    this.policy = policy;
    this.scope = scope;
    this.keys = keys;
    this.format = format;
    this.identifiers = identifiers;
    this.orderPreservingMemoEntries = orderPreservingMemoEntries;
    this.registry = registry;
  }

  ColumnPolicy policy() {
    return policy;
  }

  ValueType type() {
    return policy.type();
  }

  /** The keys of this column's scope, each {@code lengthBytes} long. */
  KeyRing keyRing(int lengthBytes) throws GeneralSecurityException {
    return keys.keyRing(scope, lengthBytes);
  }

  /** The stored format of the table's keyed ciphertexts. */
  StoredFormat storedFormat() {
    return format;
  }

  /** The policy's companion box (its own key scope), or null. */
  CryptoBox companion() throws GeneralSecurityException {
    if (policy.companion().isEmpty()) {
      return null;
    }
    BoxKind kind = policy.companion().get();
    KeyScope companionScope = new KeyScope(scope.table(), scope.family(), scope.column(), "companion", kind);
    return registry.create(new BoxContext(ColumnPolicy.of(kind, policy.type()), companionScope, keys, format, identifiers,
        orderPreservingMemoEntries, registry));
  }

  /** Identifier leases for this column (ASHE), unique across every writer. */
  IdentifierSource identifiers() throws GeneralSecurityException {
    return identifiers.forScope(scope);
  }

  int orderPreservingMemoEntries() {
    return orderPreservingMemoEntries;
  }
}
