package dev.cryptoworker.client;

import dev.cryptoworker.cryptobox.CryptoBox;
import java.security.GeneralSecurityException;

/** Builds the box a column policy names, from the keys and services of its {@link BoxContext}. */
@FunctionalInterface
interface BoxFactory {
  CryptoBox create(BoxContext context) throws GeneralSecurityException;
}
