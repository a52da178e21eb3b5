/**
 * Not API; may change; used by the box ({@link dev.cryptoworker.cryptobox.det.DeterministicBox}).
 *
 * <p>The hand-written primitive behind DET: {@link
 * dev.cryptoworker.cryptobox.det.internal.AesSivAead}, AES-SIV (RFC 5297) in Tink's format with
 * cached key schedules, checked against RFC 5297, Tink and Wycheproof's vectors. Applications use
 * the box, never this package.
 */
package dev.cryptoworker.cryptobox.det.internal;
