package dev.cryptoworker.cryptobox.ashe;

import java.io.IOException;

/**
 * Hands out ASHE identifiers that no other writer of the same column ever gets, across threads,
 * processes and machines, preferably consecutive (one run decrypts with two PRF calls).
 */
@FunctionalInterface
public interface IdentifierSource {
  /** A fresh identifier, at least 1. */
  long nextId() throws IOException;
}
