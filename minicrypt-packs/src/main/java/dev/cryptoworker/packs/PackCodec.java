package dev.cryptoworker.packs;

import dev.cryptoworker.cryptobox.AssociatedData;
import dev.cryptoworker.cryptobox.CryptoBox;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * Seals a pack's rows into one stored value and opens it again: rows serialized, compressed (with
 * a dictionary where given), padded ({@link PackPadding}), then encrypted by an authenticated box with the
 * table's name and the pack id as associated data, so a pack moved to another id or table, or
 * altered in any bit, does not open. Thread-safe.
 *
 * <p>Inside the encryption: format byte, compression id, dictionary version (0: none), serialized
 * length, compressed length (varints), the compressed rows, zero padding.
 */
public final class PackCodec {
  private static final int FORMAT = 1;

  /** Finds a dictionary by the version a pack names. */
  @FunctionalInterface
  public interface Dictionaries {
    /**
     * @return the dictionary, or null if there is none of that version
     * @throws IOException if it cannot be read
     */
    PackDictionary get(int version) throws IOException;
  }

  private final String table;
  private final CryptoBox box;
  private final PackCompression compression;
  /**
   * Entries are padded by default: powers of two from 128 bytes to 4 KiB (then multiples of 4 KiB),
   * at most doubling an entry's size while its stored size tells only its tier.
   */
  public static final List<Integer> DEFAULT_ENTRY_PADDING_TIERS = List.of(128, 256, 512, 1024, 2048, 4096);

  private final PackPadding padding;
  private final PackPadding entryPadding;
  private final Dictionaries dictionaries;

  private PackCodec(Builder b) {
    this.table = b.table;
    this.box = b.box;
    this.compression = b.compression;
    this.padding = b.padding;
    this.entryPadding = b.entryPadding;
    this.dictionaries = b.dictionaries;
  }

  public static Builder builder(String table, CryptoBox box) {
    return new Builder(table, box);
  }

  /** The stored bytes of pack {@code packId} holding {@code rows}, compressed with {@code dictionary} if not null. */
  public byte[] seal(byte[] packId, PackRows rows, PackDictionary dictionary) throws GeneralSecurityException {
    return box.encrypt(pad(compress(rows, dictionary), padding), associatedData(packId));
  }

  /**
   * The stored bytes of an APPEND-mode entry: {@code rows} (one put's cells, with their versions)
   * written under stored row {@code storedKey} as cell {@code entryId}. Sealed as a pack is, padded
   * to the entry tiers ({@link Builder#entryPaddingTiers}), and bound to its row and id under a
   * label of its own, so an entry never opens as a pack nor under another row or id. The padding
   * hides how well one row compressed (against the table's dictionary, say), which anyone who can
   * insert rows could otherwise use as a size oracle, as in CRIME; only the tier shows.
   */
  public byte[] sealEntry(byte[] storedKey, byte[] entryId, PackRows rows, PackDictionary dictionary)
      throws GeneralSecurityException {
    return box.encrypt(pad(compress(rows, dictionary), entryPadding), entryAssociatedData(storedKey, entryId));
  }

  /**
   * The rows of an entry {@link #sealEntry} wrote.
   *
   * @throws PackDecodingException naming the table, the row and entry, and the reason
   */
  public PackRows openEntry(byte[] storedKey, byte[] entryId, byte[] stored) throws PackDecodingException {
    String name = "row " + printable(storedKey) + ", entry " + printable(entryId);
    byte[] plain;
    try {
      plain = box.decrypt(stored, entryAssociatedData(storedKey, entryId));
    } catch (GeneralSecurityException e) {
      throw failure(name, "does not decrypt (tampered, truncated, moved from another row,"
          + " entry or table, or a wrong key): " + e.getMessage(), e);
    }
    return decompress(name, plain);
  }

  /** Format byte, compression id, dictionary version, lengths, then the compressed rows (unpadded). */
  private byte[] compress(PackRows rows, PackDictionary dictionary) {
    if (dictionary != null && dictionary.compression() != compression) {
      throw new IllegalArgumentException("table " + table + ": a " + dictionary.compression()
          + " dictionary cannot compress " + compression + " packs");
    }
    byte[] serialized = rows.serialize();
    byte[] compressed = Compressor.of(compression).compress(serialized, dictionary);
    ByteArrayOutputStream out = new ByteArrayOutputStream(compressed.length + 16);
    out.write(FORMAT);
    out.write(compression.id());
    Varints.write(out, dictionary == null ? 0 : dictionary.version());
    Varints.write(out, serialized.length);
    Varints.write(out, compressed.length);
    out.write(compressed, 0, compressed.length);
    return out.toByteArray();
  }

  private static byte[] pad(byte[] plain, PackPadding padding) {
    return Arrays.copyOf(plain, padding.paddedLength(plain.length));
  }

  /** The length a pack of {@code length} bytes is padded to. */
  int paddedLength(int length) {
    return padding.paddedLength(length);
  }


  /**
   * The rows of pack {@code packId} from its stored bytes.
   *
   * @throws PackDecodingException naming the table, the pack and the reason (does not decrypt under
   *     this table and pack id; unknown dictionary or compression; malformed)
   */
  public PackRows open(byte[] packId, byte[] stored) throws PackDecodingException {
    byte[] plain;
    try {
      plain = box.decrypt(stored, associatedData(packId));
    } catch (GeneralSecurityException e) {
      throw failure(packId, "does not decrypt (tampered, truncated, moved from another pack id or table, or a wrong"
          + " key): " + e.getMessage(), e);
    }
    return decompress("pack " + printable(packId), plain);
  }

  /** The rows in decrypted bytes {@link #compress} wrote (padding after them ignored); {@code name} for messages. */
  private PackRows decompress(String name, byte[] plain) throws PackDecodingException {
    try {
      Varints.Reader in = new Varints.Reader(plain);
      int format = in.readByte();
      if (format != FORMAT) {
        throw failure(name, "pack format " + format + ", this version reads " + FORMAT, null);
      }
      int compressionId = in.readByte();
      PackCompression used = PackCompression.ofId(compressionId);
      if (used == null) {
        throw failure(name, "unknown compression id " + compressionId, null);
      }
      int version = (int) in.read();
      long length = in.read();
      int compressedLength = in.readCount();
      if (length > Integer.MAX_VALUE - 64) {
        throw failure(name, "a serialized length of " + length + " bytes", null);
      }
      PackDictionary dictionary = null;
      if (version != 0) {
        try {
          dictionary = dictionaries == null ? null : dictionaries.get(version);
        } catch (IOException e) {
          throw failure(name, "its dictionary version " + version + " cannot be read: " + e.getMessage(), e);
        }
        if (dictionary == null) {
          throw failure(name, "compressed with dictionary version " + version + ", which this table does not have",
              null);
        }
      }
      int at = in.position();
      byte[] compressed = Arrays.copyOfRange(plain, at, at + compressedLength);
      return PackRows.parse(Compressor.of(used).decompress(compressed, (int) length, dictionary));
    } catch (IllegalArgumentException e) {
      throw failure(name, "malformed: " + e.getMessage(), e);
    }
  }

  private byte[] associatedData(byte[] packId) {
    return AssociatedData.of("cryptoworker-pack-v1", table.getBytes(StandardCharsets.UTF_8), packId);
  }

  private byte[] entryAssociatedData(byte[] storedKey, byte[] entryId) {
    return AssociatedData.of("cryptoworker-pack-entry-v1", table.getBytes(StandardCharsets.UTF_8), storedKey, entryId);
  }

  private PackDecodingException failure(byte[] packId, String reason, Throwable cause) {
    return failure("pack " + printable(packId), reason, cause);
  }

  private PackDecodingException failure(String name, String reason, Throwable cause) {
    return new PackDecodingException(table, name, reason, cause);
  }

  /** A pack id for messages: printable ASCII as is, other bytes as \xNN (as HBase's toStringBinary). */
  static String printable(byte[] id) {
    StringBuilder sb = new StringBuilder("'");
    for (byte b : id) {
      int c = b & 0xff;
      if (c >= ' ' && c < 0x7f && c != '\\' && c != '\'') {
        sb.append((char) c);
      } else {
        sb.append(String.format("\\x%02X", c));
      }
    }
    return sb.append('\'').toString();
  }

  /** Settings of a {@link PackCodec}. */
  public static final class Builder {
    private final String table;
    private final CryptoBox box;
    private PackCompression compression = PackCompression.ZSTD;
    private PackPadding padding = PackPadding.padme();
    private PackPadding entryPadding = PackPadding.tiers(DEFAULT_ENTRY_PADDING_TIERS);
    private Dictionaries dictionaries;

    private Builder(String table, CryptoBox box) {
      this.table = Objects.requireNonNull(table, "table");
      this.box = Objects.requireNonNull(box, "box");
    }

    /** How new packs are compressed (default ZSTD); packs name theirs, so old ones open whatever this says. */
    public Builder compression(PackCompression compression) {
      this.compression = Objects.requireNonNull(compression, "compression");
      return this;
    }

    /** How a pack's compressed bytes are padded ({@link PackPadding}; default {@link PackPadding#padme()}). */
    public Builder padding(PackPadding padding) {
      this.padding = Objects.requireNonNull(padding, "padding");
      return this;
    }

    /**
     * Size tiers of APPEND-mode entries ({@link PackPadding#tiers}); by default {@link
     * #DEFAULT_ENTRY_PADDING_TIERS}. No tiers: each entry's stored size follows its compressed size.
     *
     * @throws IllegalArgumentException naming the table, if the tiers are not positive and ascending
     */
    public Builder entryPaddingTiers(int... tiers) {
      try {
        this.entryPadding = tiers.length == 0 ? PackPadding.none()
            : PackPadding.tiers(Arrays.stream(tiers).boxed().toList());
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("table " + table + ": " + e.getMessage(), e);
      }
      return this;
    }

    /** Where packs' dictionaries are found by version (needed to open packs compressed with one). */
    public Builder dictionaries(Dictionaries dictionaries) {
      this.dictionaries = dictionaries;
      return this;
    }

    public PackCodec build() {
      return new PackCodec(this);
    }
  }
}
