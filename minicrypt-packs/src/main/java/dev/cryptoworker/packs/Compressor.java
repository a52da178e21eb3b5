package dev.cryptoworker.packs;

import com.github.luben.zstd.Zstd;
import com.github.luben.zstd.ZstdCompressCtx;
import com.github.luben.zstd.ZstdDecompressCtx;
import com.github.luben.zstd.ZstdDictCompress;
import com.github.luben.zstd.ZstdDictDecompress;
import com.github.luben.zstd.ZstdException;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.zip.DataFormatException;
import java.util.zip.Deflater;
import java.util.zip.Inflater;
import net.jpountz.lz4.LZ4Exception;
import net.jpountz.lz4.LZ4Factory;

/**
 * One {@link PackCompression}'s compress and decompress, with a dictionary where it has them.
 * Thread-safe; loaded zstd dictionaries are kept per dictionary (loading one costs more than
 * compressing a pack).
 */
abstract class Compressor {
  abstract byte[] compress(byte[] input, PackDictionary dictionary);

  /**
   * @throws IllegalArgumentException if {@code compressed} does not decompress to exactly
   *     {@code length} bytes
   */
  abstract byte[] decompress(byte[] compressed, int length, PackDictionary dictionary);

  static Compressor of(PackCompression compression) {
    return switch (compression) {
      case NONE -> NONE;
      case ZSTD -> ZSTD;
      case LZ4 -> LZ4;
      case DEFLATE -> DEFLATE;
    };
  }

  private static final Compressor NONE = new Compressor() {
    @Override
    byte[] compress(byte[] input, PackDictionary dictionary) {
      return input;
    }

    @Override
    byte[] decompress(byte[] compressed, int length, PackDictionary dictionary) {
      if (compressed.length != length) {
        throw new IllegalArgumentException("uncompressed pack of " + compressed.length + " bytes, " + length
            + " expected");
      }
      return compressed;
    }
  };

  /**
   * zstd frames without what the pack already says or the encryption already guarantees: no magic
   * number, dictionary id, content size or checksum (4 bytes a pack, 8 with a dictionary: much of a
   * small pack's or an APPEND entry's).
   * Frames written with them before still open: a magicless frame never starts with the magic's
   * first byte (0x28 would set a reserved bit of its header).
   */
  private static final Compressor ZSTD = new Compressor() {
    private static final int LEVEL = 3;
    private static final byte[] MAGIC = {0x28, (byte) 0xB5, 0x2F, (byte) 0xFD};
    private final Map<PackDictionary, ZstdDictCompress> compressing = new ConcurrentHashMap<>();
    private final Map<PackDictionary, ZstdDictDecompress> decompressing = new ConcurrentHashMap<>();
    /** Contexts are not thread-safe: one per thread and dictionary (null: none). */
    private final ThreadLocal<Map<PackDictionary, ZstdCompressCtx>> compressors =
        ThreadLocal.withInitial(HashMap::new);
    private final ThreadLocal<Map<PackDictionary, ZstdDecompressCtx>> decompressors =
        ThreadLocal.withInitial(HashMap::new);

    @Override
    byte[] compress(byte[] input, PackDictionary dictionary) {
      ZstdCompressCtx ctx = compressors.get().computeIfAbsent(dictionary, d -> {
        ZstdCompressCtx c = new ZstdCompressCtx().setLevel(LEVEL).setMagicless(true).setDictID(false)
            .setContentSize(false).setChecksum(false);
        return d == null ? c : c.loadDict(compressing.computeIfAbsent(d,
            x -> new ZstdDictCompress(x.bytesUnsafe(), LEVEL)));
      });
      return ctx.compress(input);
    }

    @Override
    byte[] decompress(byte[] compressed, int length, PackDictionary dictionary) {
      try {
        byte[] out;
        if (Arrays.equals(compressed, 0, Math.min(4, compressed.length), MAGIC, 0, 4)) {
          out = dictionary == null ? Zstd.decompress(compressed, length) // a framed pack, written before
              : Zstd.decompress(compressed, dictionaryFor(dictionary), length);
        } else {
          ZstdDecompressCtx ctx = decompressors.get().computeIfAbsent(dictionary, d -> {
            ZstdDecompressCtx c = new ZstdDecompressCtx().setMagicless(true);
            return d == null ? c : c.loadDict(dictionaryFor(d));
          });
          out = new byte[length];
          int n = ctx.decompressByteArray(out, 0, length, compressed, 0, compressed.length);
          if (n != length) {
            throw new IllegalArgumentException("zstd gave " + n + " bytes, " + length + " expected");
          }
        }
        if (out.length != length) {
          throw new IllegalArgumentException("zstd gave " + out.length + " bytes, " + length + " expected");
        }
        return out;
      } catch (ZstdException e) {
        throw new IllegalArgumentException("zstd: " + e.getMessage(), e);
      }
    }

    private ZstdDictDecompress dictionaryFor(PackDictionary d) {
      return decompressing.computeIfAbsent(d, x -> new ZstdDictDecompress(x.bytesUnsafe()));
    }
  };

  private static final Compressor LZ4 = new Compressor() {
    private final LZ4Factory factory = LZ4Factory.fastestInstance();

    @Override
    byte[] compress(byte[] input, PackDictionary dictionary) {
      return factory.fastCompressor().compress(input);
    }

    @Override
    byte[] decompress(byte[] compressed, int length, PackDictionary dictionary) {
      byte[] out = new byte[length];
      try {
        int n = factory.safeDecompressor().decompress(compressed, 0, compressed.length, out, 0, length);
        if (n != length) {
          throw new IllegalArgumentException("LZ4 gave " + n + " bytes, " + length + " expected");
        }
        return out;
      } catch (LZ4Exception e) {
        throw new IllegalArgumentException("LZ4: " + e.getMessage(), e);
      }
    }
  };

  private static final Compressor DEFLATE = new Compressor() {
    private static final int LEVEL = 6;

    @Override
    byte[] compress(byte[] input, PackDictionary dictionary) {
      Deflater deflater = new Deflater(LEVEL, true);
      try {
        if (dictionary != null) {
          deflater.setDictionary(dictionary.bytesUnsafe());
        }
        deflater.setInput(input);
        deflater.finish();
        byte[] buffer = new byte[input.length + input.length / 1000 + 64];
        int n = 0;
        while (!deflater.finished()) {
          if (n == buffer.length) {
            buffer = java.util.Arrays.copyOf(buffer, buffer.length * 2);
          }
          n += deflater.deflate(buffer, n, buffer.length - n);
        }
        return java.util.Arrays.copyOf(buffer, n);
      } finally {
        deflater.end();
      }
    }

    @Override
    byte[] decompress(byte[] compressed, int length, PackDictionary dictionary) {
      Inflater inflater = new Inflater(true);
      try {
        if (dictionary != null) {
          inflater.setDictionary(dictionary.bytesUnsafe());
        }
        inflater.setInput(compressed);
        byte[] out = new byte[length];
        int n = 0;
        while (n < length && !inflater.finished()) {
          int got = inflater.inflate(out, n, length - n);
          if (got == 0 && (inflater.needsInput() || inflater.needsDictionary())) {
            break;
          }
          n += got;
        }
        if (n != length || !inflater.finished() && inflater.getRemaining() > 0) {
          throw new IllegalArgumentException("DEFLATE gave " + n + " bytes, " + length + " expected");
        }
        return out;
      } catch (DataFormatException e) {
        throw new IllegalArgumentException("DEFLATE: " + e.getMessage(), e);
      } finally {
        inflater.end();
      }
    }
  };
}
