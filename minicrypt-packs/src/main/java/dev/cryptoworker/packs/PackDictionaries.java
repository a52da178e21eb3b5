package dev.cryptoworker.packs;

import com.github.luben.zstd.ZstdDictTrainer;
import com.github.luben.zstd.ZstdException;
import java.util.List;

/** Trains pack dictionaries from sample rows (serialized as packs hold them). */
public final class PackDictionaries {
  /** DEFLATE looks back at most 32 KiB: a longer preset dictionary is cut to its last 32 KiB. */
  private static final int DEFLATE_WINDOW = 32 << 10;

  private PackDictionaries() {}

  /**
   * A dictionary of at most {@code maxBytes} trained on {@code samples} (each one row, or a few):
   * zstd's trainer (ZDICT) for ZSTD; for DEFLATE, the samples themselves, the last ones nearest
   * the end of the window, where DEFLATE finds them cheapest.
   *
   * @throws IllegalArgumentException if the compression has no dictionaries, or the samples are too
   *     few or too small to train on (zstd wants many; its message is passed on)
   */
  public static PackDictionary train(PackCompression compression, int version, List<byte[]> samples, int maxBytes) {
    if (!compression.supportsDictionaries()) {
      throw new IllegalArgumentException(compression + " has no dictionaries");
    }
    if (samples.isEmpty()) {
      throw new IllegalArgumentException("no samples to train a dictionary on");
    }
    if (compression == PackCompression.DEFLATE) {
      int size = Math.min(Math.min(maxBytes, DEFLATE_WINDOW), samples.stream().mapToInt(s -> s.length).sum());
      byte[] dictionary = new byte[size];
      int at = size;
      for (int i = samples.size() - 1; i >= 0 && at > 0; i--) {
        byte[] s = samples.get(i);
        int n = Math.min(at, s.length);
        System.arraycopy(s, s.length - n, dictionary, at - n, n);
        at -= n;
      }
      return new PackDictionary(version, compression, dictionary);
    }
    long total = samples.stream().mapToLong(s -> s.length).sum();
    ZstdDictTrainer trainer = new ZstdDictTrainer((int) Math.min(Integer.MAX_VALUE - 8, total), maxBytes);
    for (byte[] s : samples) {
      trainer.addSample(s);
    }
    try {
      return new PackDictionary(version, compression, trainer.trainSamples());
    } catch (ZstdException e) {
      throw new IllegalArgumentException("zstd cannot train a dictionary on " + samples.size() + " samples of "
          + total + " bytes: " + e.getMessage(), e);
    }
  }

  /** The serialized form of {@code rows}, as samples for {@link #train} (one per row, or per small group). */
  public static byte[] sampleOf(PackRows rows) {
    return rows.serialize();
  }
}
