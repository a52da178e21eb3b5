package dev.cryptoworker.packs;

/** How writes reach a packed table (MiniCrypt). */
public enum PackMode {
  /** Every put or delete rewrites its pack: read, change, re-seal, conditional write, retry on conflict. */
  GENERIC,
  /** Inserts go to per-epoch single-row cells; clients merge settled epochs into packs in the background. */
  APPEND
}
