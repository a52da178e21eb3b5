package dev.cryptoworker.cryptobox;

import java.security.GeneralSecurityException;
import java.util.Optional;

/**
 * What a {@link BoxProvider} builds one column's box from: the keys of the column's scope, the
 * table's stored format, the column's value type, its companion box, and the client's services and
 * options. The client implements it; boxes never see schemas or HBase.
 */
public interface BoxContext {
  /** The keys of this column's scope, each {@code lengthBytes} long. */
  KeyRing keyRing(int lengthBytes) throws GeneralSecurityException;

  /** The stored format of the table's keyed ciphertexts. */
  StoredFormat storedFormat();

  /** The column's value type as schemas name it: {@code bytes}, {@code string}, {@code long}, {@code int} or {@code date}. */
  String valueType();

  /** The column's companion box (its own key scope), or null if the column has none. */
  CryptoBox companion() throws GeneralSecurityException;

  /**
   * A service of the client's for this column, if it offers one of {@code type} (ASHE's
   * identifier leases, unique across every writer).
   */
  <S> Optional<S> service(Class<S> type) throws GeneralSecurityException;

  /**
   * A whole-number option of the connection's, one its provider declares ({@link
   * BoxProvider#options()}), or {@code fallback} if the connection does not set it.
   */
  int option(String name, int fallback);
}
