package dev.cryptoworker.cryptobox;

/**
 * Capability of a box that stores the plaintext itself ({@link PlainBox}): region servers may
 * evaluate any filter, comparator or row range on its stored bytes as the caller wrote them.
 */
public interface PlaintextStorage {}
