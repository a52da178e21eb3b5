package dev.cryptoworker.layout.packed;

import dev.cryptoworker.packs.PackCodec;
import dev.cryptoworker.packs.PackCompression;
import dev.cryptoworker.packs.PackMode;
import dev.cryptoworker.packs.PackPadding;
import dev.cryptoworker.schema.TableLayout;
import java.util.List;
import java.util.Objects;

/**
 * The PACKED layout's settings ({@code layout: { type: PACKED, ... }}): rows grouped in packs of
 * about {@code rowsPerPack} consecutive rows, each pack compressed (with a trained dictionary if
 * {@code dictionary}), padded as {@code padding} says (Padmé by default), and encrypted
 * as one stored cell on {@code cluster}. In APPEND mode a new epoch is opened every {@code
 * epochMillis}, a client holding an epoch's merge lease that has not renewed it for {@code
 * leaseMillis} is presumed dead, and each write's entry is padded to the first of {@code
 * entryPadding}'s tiers that holds it.
 */
public record PackedTableLayout(PackMode mode, int rowsPerPack, PackCompression compression, boolean dictionary,
    PackPadding padding, String cluster, long epochMillis, long leaseMillis, List<Integer> entryPadding)
    implements TableLayout {
  /** The layout's name in schemas. */
  public static final String TYPE = "PACKED";
  /** MiniCrypt's packs of 50 rows reached most of the whole-dataset compression ratio. */
  public static final int DEFAULT_ROWS_PER_PACK = 50;
  public static final int MAX_ROWS_PER_PACK = 10_000;
  public static final long DEFAULT_EPOCH_MILLIS = 60_000;
  public static final long DEFAULT_LEASE_MILLIS = 10_000;

  public PackedTableLayout {
    Objects.requireNonNull(mode, "mode");
    Objects.requireNonNull(compression, "compression");
    Objects.requireNonNull(cluster, "cluster");
    Objects.requireNonNull(padding, "padding");
    entryPadding = List.copyOf(entryPadding);
    if (epochMillis <= 0 || leaseMillis <= 0) {
      throw new IllegalArgumentException("epochMillis and leaseMillis must be positive, got " + epochMillis + " and "
          + leaseMillis);
    }
  }

  /** A layout with APPEND's epoch and lease lengths and entry padding at their defaults. */
  public PackedTableLayout(PackMode mode, int rowsPerPack, PackCompression compression, boolean dictionary,
      PackPadding padding, String cluster) {
    this(mode, rowsPerPack, compression, dictionary, padding, cluster, DEFAULT_EPOCH_MILLIS, DEFAULT_LEASE_MILLIS);
  }

  /** A layout with APPEND's entry padding at its default ({@link PackCodec#DEFAULT_ENTRY_PADDING_TIERS}). */
  public PackedTableLayout(PackMode mode, int rowsPerPack, PackCompression compression, boolean dictionary,
      PackPadding padding, String cluster, long epochMillis, long leaseMillis) {
    this(mode, rowsPerPack, compression, dictionary, padding, cluster, epochMillis, leaseMillis,
        PackCodec.DEFAULT_ENTRY_PADDING_TIERS);
  }

  @Override
  public String type() {
    return TYPE;
  }

  @Override
  public List<String> clusters() {
    return List.of(cluster);
  }
}
