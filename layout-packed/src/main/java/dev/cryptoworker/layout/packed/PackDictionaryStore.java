package dev.cryptoworker.layout.packed;

import dev.cryptoworker.client.CellDecodingException;
import dev.cryptoworker.client.codec.TableCodec;
import dev.cryptoworker.cryptobox.AssociatedData;
import dev.cryptoworker.cryptobox.CryptoBox;
import dev.cryptoworker.packs.PackCompression;
import dev.cryptoworker.packs.PackDictionaries;
import dev.cryptoworker.packs.PackDictionary;
import java.io.IOException;
import java.security.GeneralSecurityException;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.hadoop.hbase.client.CheckAndMutate;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * A PACKED table's compression dictionaries, stored encrypted in the table itself: in family
 * {@code d} of the first pack's row (which pack reads never ask for), one cell per version
 * ({@code d:<version>}, bound to the table and version) and {@code d:current}, the version new packs
 * are compressed with. Versions only grow; old ones stay, so every pack opens with the dictionary
 * it names. Loaded dictionaries are kept (they never change).
 */
public final class PackDictionaryStore {
  public static final byte[] FAMILY = Bytes.toBytes("d");
  private static final byte[] CURRENT = Bytes.toBytes("current");

  private final Table table;
  private final TableCodec codec;
  private final PackCompression compression;
  private final Map<Integer, PackDictionary> loaded = new ConcurrentHashMap<>();

  PackDictionaryStore(Table table, TableCodec codec, PackCompression compression) {
    this.table = table;
    this.codec = codec;
    this.compression = compression;
  }

  private byte[] associatedData(int version) {
    return AssociatedData.of("cryptoworker-dictionary-v1", Bytes.toBytes(codec.table()), Bytes.toBytes(version));
  }

  private CryptoBox box() {
    return PackedLayout.packBox(codec);
  }

  /** The version new packs use, or 0 if the table has no dictionary yet. */
  int currentVersion() throws IOException {
    byte[] v = table.get(new Get(PackedLayout.FIRST_PACK).addColumn(FAMILY, CURRENT)).getValue(FAMILY, CURRENT);
    return v == null ? 0 : Bytes.toInt(v);
  }

  /**
   * Dictionary {@code version}, or null if the table has none of that version.
   *
   * @throws IOException if it does not decrypt (altered, or moved from another version or table)
   */
  PackDictionary get(int version) throws IOException {
    PackDictionary known = loaded.get(version);
    if (known != null) {
      return known;
    }
    Result r = table.get(new Get(PackedLayout.FIRST_PACK).addColumn(FAMILY, Bytes.toBytes(version)));
    byte[] sealed = r.getValue(FAMILY, Bytes.toBytes(version));
    if (sealed == null) {
      return null;
    }
    try {
      byte[] plain = box().decrypt(sealed, associatedData(version));
      PackCompression compression = PackCompression.ofId(plain[0]);
      if (compression == null) {
        throw new IllegalArgumentException("unknown compression id " + plain[0]);
      }
      PackDictionary d = new PackDictionary(version, compression, Arrays.copyOfRange(plain, 1, plain.length));
      loaded.put(version, d);
      return d;
    } catch (GeneralSecurityException | RuntimeException e) {
      throw new CellDecodingException(codec.table(), "\\x00", "d:" + version,
          "dictionary version " + version + " does not decrypt (altered, or moved from another version or table): "
              + e.getMessage());
    }
  }

  /** Up to 64 KiB (zstd) or 32 KiB (DEFLATE's window), and about a tenth of the samples: ZDICT wants many more sample bytes than dictionary bytes. */
  private int dictionarySize(List<byte[]> samples) {
    long total = samples.stream().mapToLong(s -> s.length).sum();
    int most = compression == PackCompression.ZSTD ? 64 << 10 : 32 << 10;
    return (int) Math.max(1024, Math.min(most, total / 10));
  }

  /**
   * Trains a dictionary on {@code samples} (serialized rows) and makes it the current one, under the
   * next version.
   *
   * @return the new version
   * @throws IllegalArgumentException if the samples are too few to train on
   */
  int train(List<byte[]> samples) throws IOException {
    PackDictionary trained;
    for (int attempt = 0; attempt < 10; attempt++) {
      int version = currentVersion() + 1;
      try {
        trained = PackDictionaries.train(compression, version, samples, dictionarySize(samples));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("table " + codec.table() + ": cannot train a pack dictionary: "
            + e.getMessage(), e);
      }
      byte[] plain = new byte[trained.bytes().length + 1];
      plain[0] = (byte) compression.id();
      System.arraycopy(trained.bytes(), 0, plain, 1, plain.length - 1);
      byte[] sealed;
      try {
        sealed = box().encrypt(plain, associatedData(version));
      } catch (GeneralSecurityException e) {
        throw new IOException("table " + codec.table() + ": cannot encrypt a pack dictionary: " + e.getMessage(), e);
      }
      byte[] versionQualifier = Bytes.toBytes(version);
      boolean written = table.checkAndMutate(CheckAndMutate.newBuilder(PackedLayout.FIRST_PACK)
          .ifNotExists(FAMILY, versionQualifier)
          .build(new Put(PackedLayout.FIRST_PACK).addColumn(FAMILY, versionQualifier, sealed)
              .addColumn(FAMILY, CURRENT, Bytes.toBytes(version)))).isSuccess();
      if (written) {
        loaded.put(version, trained);
        return version;
      }
    }
    throw new IOException("table " + codec.table() + ": another client kept training dictionaries; try again");
  }
}
