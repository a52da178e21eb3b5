package dev.cryptoworker.packs;

/**
 * How a pack's rows are compressed before encryption. The id is stored in every pack, so a
 * table's compression can change without rewriting old packs.
 */
public enum PackCompression {
  /** No compression: the baseline for measurements. */
  NONE(0, false),
  /** zstd (zstd-jni), level 3; dictionaries trained with zstd's own trainer. */
  ZSTD(1, true),
  /** LZ4 (lz4-java, fast compressor); no dictionaries. */
  LZ4(2, false),
  /** DEFLATE (the JDK's zlib), level 6; a preset dictionary of sample rows. */
  DEFLATE(3, true);

  private final int id;
  private final boolean dictionaries;

  PackCompression(int id, boolean dictionaries) {
    this.id = id;
    this.dictionaries = dictionaries;
  }

  /** The id stored in packs and dictionaries (stable across versions, unlike the ordinal). */
  public int id() {
    return id;
  }

  /** Whether this compression can use a trained dictionary. */
  public boolean supportsDictionaries() {
    return dictionaries;
  }

  /** The compression of stored id {@code id}, or null if there is none. */
  public static PackCompression ofId(int id) {
    for (PackCompression c : values()) {
      if (c.id == id) {
        return c;
      }
    }
    return null;
  }
}
