/**
 * Not API; may change; used by the box ({@link dev.cryptoworker.cryptobox.std.RandomizedBox}).
 *
 * <p>The hand-written primitive behind STD: {@link
 * dev.cryptoworker.cryptobox.std.internal.AesGcmAead}, AES-256-GCM in Tink's format with a cached
 * key schedule, checked against Tink and against Wycheproof's vectors. Applications use the box,
 * never this package.
 */
package dev.cryptoworker.cryptobox.std.internal;
