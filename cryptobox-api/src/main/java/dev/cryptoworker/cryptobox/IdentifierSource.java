package dev.cryptoworker.cryptobox;

import java.io.IOException;

/**
 * A service the client offers boxes through {@link BoxContext#service}: hands out identifiers that
 * no other writer of the same column gets, across threads, processes and machines, preferably
 * consecutive. ASHE and SPLASHE use it (one run of consecutive identifiers decrypts with two PRF
 * calls). They do not trust it for security: a source whose identifiers repeat or go back (a
 * counter restored, lost or lowered) only makes runs shorter, since the box binds a random nonce
 * of its own to them.
 */
@FunctionalInterface
public interface IdentifierSource {
  /** A fresh identifier, at least 1. */
  long nextId() throws IOException;
}
