package dev.cryptoworker.client.codec;

import dev.cryptoworker.cryptobox.CryptoBox;
import java.security.GeneralSecurityException;

/** Builds the box a column policy names, from the keys and services of its {@link BoxContext}. */
@FunctionalInterface
public interface BoxFactory {
  CryptoBox create(BoxContext context) throws GeneralSecurityException;
}
