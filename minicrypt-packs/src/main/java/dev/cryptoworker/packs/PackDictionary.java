package dev.cryptoworker.packs;

import java.util.Arrays;
import java.util.Objects;

/**
 * A compression dictionary trained on a sample of a table's rows, under a version id that every
 * pack compressed with it names (version 0 means "no dictionary" and is never a dictionary's). The
 * bytes reveal the sample's common content: store them encrypted.
 */
public final class PackDictionary {
  private final int version;
  private final PackCompression compression;
  private final byte[] bytes;

  /**
   * @throws IllegalArgumentException if {@code version} is not positive, or the compression has no
   *     dictionaries
   */
  public PackDictionary(int version, PackCompression compression, byte[] bytes) {
    if (version <= 0) {
      throw new IllegalArgumentException("a dictionary's version must be positive, got " + version);
    }
    if (!Objects.requireNonNull(compression, "compression").supportsDictionaries()) {
      throw new IllegalArgumentException(compression + " has no dictionaries");
    }
    if (Objects.requireNonNull(bytes, "bytes").length == 0) {
      throw new IllegalArgumentException("an empty dictionary");
    }
    this.version = version;
    this.compression = compression;
    this.bytes = bytes.clone();
  }

  public int version() {
    return version;
  }

  public PackCompression compression() {
    return compression;
  }

  public byte[] bytes() {
    return bytes.clone();
  }

  byte[] bytesUnsafe() {
    return bytes;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof PackDictionary d && d.version == version && d.compression == compression
        && Arrays.equals(d.bytes, bytes);
  }

  @Override
  public int hashCode() {
    return 31 * version + compression.hashCode();
  }

  @Override
  public String toString() {
    return "PackDictionary(version " + version + ", " + compression + ", " + bytes.length + " bytes)";
  }
}
