package dev.cryptoworker.layout.packed;

import dev.cryptoworker.client.SecureConnection;
import dev.cryptoworker.client.spi.LayoutContext;
import dev.cryptoworker.packs.PackMode;
import java.io.IOException;
import java.util.Objects;
import org.apache.hadoop.hbase.TableName;

/**
 * The operator's calls on the PACKED tables of one {@link SecureConnection}: compression
 * dictionaries and APPEND-mode merges. Obtained with {@link #of(SecureConnection)}; as thread-safe
 * as the connection.
 */
public final class PackedTables {
  private final SecureConnection secure;

  private PackedTables(SecureConnection secure) {
    this.secure = secure;
  }

  /** The PACKED tables of {@code secure}. */
  public static PackedTables of(SecureConnection secure) {
    return new PackedTables(Objects.requireNonNull(secure, "secure"));
  }

  /**
   * Trains a compression dictionary for PACKED table {@code name} (schema {@code dictionary: true})
   * on its first {@code sampleRows} rows and makes it the one new packs use; packs already written
   * keep theirs (each names its version). Tables opened before keep compressing with the dictionary
   * they found until they are opened again.
   *
   * @return the new dictionary's version
   * @throws IllegalArgumentException if no schema names the table, it is not PACKED, or the rows are
   *     too few to train on
   */
  public int trainDictionary(TableName name, int sampleRows) throws IOException {
    try (PackedLayout layout = PackedLayout.open(packed(name))) {
      return layout.trainDictionary(sampleRows);
    }
  }

  /**
   * Runs one merge round of APPEND-mode PACKED table {@code name} now: closes its open epoch if it
   * is due, and merges into packs the closed epochs no other client holds the lease of (see the
   * APPEND mode in docs/layouts.md). Rounds of one table are serialized within the connection; those of
   * other clients are coordinated through the table's epoch records.
   *
   * @return the entries merged into packs
   * @throws IllegalArgumentException if no schema names the table or it is not an APPEND table
   */
  public int mergeEpochs(TableName name) throws IOException {
    return merging(name).mergeEpochs();
  }

  /**
   * How many entries APPEND-mode PACKED table {@code name} holds that are not merged into packs
   * yet (the merge backlog: reads look at each entry of their rows or range). Counts them with a
   * key-only scan of the entries' family.
   *
   * @throws IllegalArgumentException if no schema names the table or it is not an APPEND table
   */
  public long unmergedEntries(TableName name) throws IOException {
    return merging(name).unmergedEntries();
  }

  /** The layout the connection's merges of APPEND table {@code name} run through. */
  private PackedLayout merging(TableName name) throws IOException {
    LayoutContext context = packed(name);
    if (((PackedTableLayout) context.layout()).mode() != PackMode.APPEND) {
      throw new IllegalArgumentException("table " + name + " is not an APPEND-mode PACKED table of this connection");
    }
    return context.connectionService(EpochMergers.class, EpochMergers::new).layout(context);
  }

  private LayoutContext packed(TableName name) throws IOException {
    LayoutContext context = secure.layoutContext(name);
    if (!(context.layout() instanceof PackedTableLayout)) {
      throw new IllegalArgumentException("table " + name + " is not a PACKED table of this connection (its layout is "
          + context.layout().type() + ")");
    }
    return context;
  }
}
