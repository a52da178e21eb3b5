package dev.cryptoworker.cryptobox.ope;

import dev.cryptoworker.cryptobox.BoxKind;
import dev.cryptoworker.cryptobox.CryptoBox;
import dev.cryptoworker.cryptobox.EqualityOnCiphertext;
import dev.cryptoworker.cryptobox.KeyRing;
import dev.cryptoworker.cryptobox.KeyedPrimitives;
import dev.cryptoworker.cryptobox.OrderOnCiphertext;
import dev.cryptoworker.cryptobox.RangeBounds;
import dev.cryptoworker.cryptobox.SecretKeyAccess;
import dev.cryptoworker.cryptobox.StoredFormat;
import dev.cryptoworker.cryptobox.VersionedKey;
import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import javax.crypto.Cipher;
import javax.crypto.SecretKey;
import javax.crypto.spec.SecretKeySpec;

/**
 * OPE: deterministic, strictly order-preserving encryption whose ciphertexts compare as unsigned
 * bytes in plaintext order, so HBase's own comparators, row-key ranges and filters work on them.
 *
 * <p>Ciphertext: the key header (5 bytes in stored format 1, 1 in format 2), then one 16-byte block per order key (one for LONG,
 * INT and DATE; one per 7-byte chunk for BYTES/strings), each the image of the key under a lazily
 * sampled random order-preserving function (see {@link OrderPreservingFunction}). Chunk {@code j}
 * of a string is encrypted under a function selected by a tweak chained (AES, CBC-MAC style) from
 * the order keys of chunks 0 to {@code j - 1}, so equal prefixes give equal leading blocks and
 * different prefixes unrelated ones.
 *
 * <p>Optional authenticated companion: {@code blocks || STD(value, associated data) || length}.
 * Order is decided by the blocks alone (block sequences are prefix-free), so comparisons still
 * work; decoding then decrypts the companion (authenticated, bound to the cell) and checks that
 * the blocks are the value's, so altered or swapped blocks are detected. DATE needs the companion:
 * its order key (epoch milliseconds) does not keep the text's form.
 *
 * <p><b>Leaks:</b> the order of all values of the column, hence approximately their distances
 * (window one-wayness); equality; for strings, the number of 7-byte chunks (length / 7) and which
 * values share 7-byte-aligned prefixes. Without the companion, not authenticated: a random
 * alteration is caught (a random block is a valid ciphertext with probability 2^-64), but moving a
 * valid ciphertext to another row of the same column is not.
 */
public final class OrderPreservingBox implements CryptoBox, OrderOnCiphertext, EqualityOnCiphertext {
  /** Key length: 16-byte tree key, 16-byte bit key, 16-byte chunk-chaining key (AES-128 each). */
  public static final int KEY_LENGTH_BYTES = 48;
  static final int BLOCK = 16;
  private static final int COMPANION_LENGTH_BYTES = 4;

  /** How values map to order. */
  public enum Encoding {
    /** 8-byte signed big-endian long. */
    LONG,
    /** 4-byte signed big-endian int. */
    INT,
    /** A date (see {@code DateValues}), ordered by its instant. */
    DATE,
    /** Any bytes, in unsigned lexicographic order (UTF-8 strings: code-point order). */
    BYTES
  }

  private final Encoding encoding;
  private final KeyedPrimitives<OpeKey> keys;
  private final CryptoBox companion;
  /** Length of the key header in front of the blocks. */
  private final int header;

  private OrderPreservingBox(Encoding encoding, KeyedPrimitives<OpeKey> keys, CryptoBox companion) {
    this.encoding = encoding;
    this.keys = keys;
    this.companion = companion;
    this.header = keys.format().headerLength();
  }

  /**
   * A box for {@code encoding} under {@code keys}.
   *
   * @param companion an authenticated box (STD) whose copy of the value is stored in the same cell
   *     and decoded instead of the blocks, or null
   * @throws IllegalArgumentException for DATE without a companion
   */
  public static OrderPreservingBox create(KeyRing keys, Encoding encoding, CryptoBox companion)
      throws GeneralSecurityException {
    return create(keys, encoding, companion, DEFAULT_MEMO_ENTRIES);
  }

  /** Distinct values per key version and direction whose OPE results a box remembers by default. */
  public static final int DEFAULT_MEMO_ENTRIES = 16_384;

  /**
   * As {@link #create(KeyRing, Encoding, CryptoBox)}, remembering the encryptions and
   * decryptions of up to about {@code memoEntries} values per key version (0: none). The memo
   * holds plaintexts in this process's memory, where the application has them anyway.
   */
  public static OrderPreservingBox create(KeyRing keys, Encoding encoding, CryptoBox companion, int memoEntries)
      throws GeneralSecurityException {
    return create(keys, StoredFormat.V1, encoding, companion, memoEntries);
  }

  /**
   * As {@link #create(KeyRing, Encoding, CryptoBox, int)}, the blocks behind {@code format}'s key
   * header (the companion has its own).
   */
  public static OrderPreservingBox create(KeyRing keys, StoredFormat format, Encoding encoding, CryptoBox companion,
      int memoEntries) throws GeneralSecurityException {
    Objects.requireNonNull(encoding, "encoding");
    if (encoding == Encoding.DATE && companion == null) {
      throw new IllegalArgumentException(
          "OPE on dates needs an authenticated companion (companion: STD): the order key, the"
              + " instant, does not keep the text's form");
    }
    return new OrderPreservingBox(
        encoding, KeyedPrimitives.create(keys, format, "OPE", KEY_LENGTH_BYTES, BLOCK,
            k -> new OpeKey(k, format, memoEntries)),
        companion);
  }

  @Override
  public BoxKind kind() {
    return BoxKind.OPE;
  }

  /** Whether cells carry an authenticated companion copy. */
  public boolean hasCompanion() {
    return companion != null;
  }

  /**
   * Withholds {@link EqualityOnCiphertext} when cells carry a companion: its randomized copy makes
   * equal values unequal stored bytes (ranges still work, they compare the blocks alone).
   */
  @Override
  public <C> Optional<C> capability(Class<C> type) {
    if (type == EqualityOnCiphertext.class && companion != null) {
      return Optional.empty();
    }
    return CryptoBox.super.capability(type);
  }

  /** Without a companion: the stored form under every key version, primary first. */
  @Override
  public List<byte[]> encryptUnderEveryKey(byte[] plaintext, byte[] associatedData)
      throws GeneralSecurityException {
    if (companion != null) {
      throw new IllegalStateException("an OPE column with a companion stores equal values as unequal bytes");
    }
    List<byte[]> out = new ArrayList<>();
    for (OpeKey key : keys.all()) {
      out.add(blocksOf(key, plaintext));
    }
    return out;
  }

  @Override
  public byte[] encrypt(byte[] plaintext, byte[] associatedData) throws GeneralSecurityException {
    byte[] blocks = blocksOf(keys.primary(), plaintext);
    if (companion == null) {
      return blocks;
    }
    byte[] copy = companion.encrypt(plaintext, associatedData);
    return ByteBuffer.allocate(blocks.length + copy.length + COMPANION_LENGTH_BYTES)
        .put(blocks).put(copy).putInt(copy.length).array();
  }

  @Override
  public byte[] decrypt(byte[] ciphertext, byte[] associatedData) throws GeneralSecurityException {
    OpeKey key = keys.forCiphertext(ciphertext);
    if (companion == null) {
      byte[] remembered = key.decrypted.get(ciphertext, ciphertext.length);
      if (remembered != null) {
        return remembered;
      }
      byte[] plaintext = decryptBlocks(key, ciphertext, ciphertext.length);
      key.decrypted.put(ciphertext, ciphertext.length, plaintext);
      return plaintext;
    }
    if (ciphertext.length < header + BLOCK + COMPANION_LENGTH_BYTES) {
      throw new GeneralSecurityException("ciphertext truncated: " + ciphertext.length + " bytes");
    }
    int copyLength = ByteBuffer.wrap(ciphertext, ciphertext.length - COMPANION_LENGTH_BYTES, 4).getInt();
    int blocksEnd = ciphertext.length - COMPANION_LENGTH_BYTES - copyLength;
    if (copyLength < 0 || blocksEnd < header + BLOCK) {
      throw new GeneralSecurityException("malformed OPE companion length " + copyLength);
    }
    byte[] plaintext =
        companion.decrypt(Arrays.copyOfRange(ciphertext, blocksEnd, blocksEnd + copyLength), associatedData);
    byte[] expected = blocksOf(key, plaintext);
    if (!Arrays.equals(expected, 0, expected.length, ciphertext, 0, blocksEnd)) {
      throw new GeneralSecurityException(
          "the order-preserving part does not match the authenticated companion: the cell was altered");
    }
    return plaintext;
  }

  /**
   * The ciphertext prefix that every stored value {@code >= value} is at least (unsigned byte
   * order), and every smaller value is below: the operand of GREATER_OR_EQUAL and LESS.
   */
  public byte[] lowerBound(byte[] value) throws GeneralSecurityException {
    return blocks(keys.primary(), OrderKeys.of(encoding, value));
  }

  /**
   * The bytes that every stored value {@code > value} is at least, and every value {@code <=
   * value} is below, companion or not: the operand of GREATER and LESS_OR_EQUAL. For the largest
   * value of a type, a bound above every ciphertext.
   */
  public byte[] upperBoundExclusive(byte[] value) throws GeneralSecurityException {
    long[] next = OrderKeys.successorKeys(encoding, value);
    if (next == null) {
      return top(keys.primary());
    }
    return blocks(keys.primary(), next);
  }

  /**
   * Per key version (primary first), the bounds of {@code value} and of the version's whole range.
   * After a rotation, a range search is the union over versions of [bound, bound) within each
   * version's [versionStart, versionEnd).
   */
  @Override
  public List<RangeBounds> rangeBounds(byte[] value) {
    List<RangeBounds> out = new ArrayList<>();
    long[] keysOfValue = OrderKeys.of(encoding, value);
    long[] next = OrderKeys.successorKeys(encoding, value);
    for (OpeKey key : keys.all()) {
      byte[] prefix = key.header.clone();
      byte[] top = top(key);
      out.add(new RangeBounds(prefix, blocks(key, keysOfValue), next == null ? top : blocks(key, next), top));
    }
    return out;
  }

  /** Above every ciphertext of {@code key}: its prefix, then more 0xff bytes than any block. */
  private byte[] top(OpeKey key) {
    byte[] top = new byte[header + BLOCK + 1];
    writePrefix(top, key);
    Arrays.fill(top, header, top.length, (byte) 0xff);
    return top;
  }

  private byte[] blocks(OpeKey key, long[] orderKeys) {
    byte[] out = new byte[header + orderKeys.length * BLOCK];
    writePrefix(out, key);
    key.worker().encrypt(orderKeys, out, header);
    return out;
  }

  /** The blocks of {@code plaintext} under {@code key}, from the key's memo when it has them. */
  private byte[] blocksOf(OpeKey key, byte[] plaintext) throws GeneralSecurityException {
    byte[] blocks = key.encrypted.get(plaintext, plaintext.length);
    if (blocks == null) {
      blocks = blocks(key, OrderKeys.of(encoding, plaintext));
      key.encrypted.put(plaintext, plaintext.length, blocks);
    }
    return blocks;
  }

  private byte[] decryptBlocks(OpeKey key, byte[] c, int end) throws GeneralSecurityException {
    int body = end - header;
    if (body <= 0 || body % BLOCK != 0) {
      throw new GeneralSecurityException("OPE ciphertext of " + end + " bytes is not a whole number of blocks");
    }
    int n = body / BLOCK;
    if (encoding != Encoding.BYTES && n != 1) {
      throw new GeneralSecurityException("an OPE " + encoding + " ciphertext has one block, found " + n);
    }
    long[] orderKeys = new long[n];
    OpeKey.Worker worker = key.worker();
    worker.keyForChunk(0, 0);
    for (int j = 0; j < n; j++) {
      if (j > 0) {
        if (OrderKeys.isLastChunk(orderKeys[j - 1])) {
          throw new GeneralSecurityException("OPE string continues after its last chunk");
        }
        worker.keyForChunk(j, orderKeys[j - 1]);
      }
      orderKeys[j] = worker.function.decrypt(c, header + j * BLOCK);
    }
    return OrderKeys.value(encoding, orderKeys, n);
  }

  private static void writePrefix(byte[] out, OpeKey key) {
    System.arraycopy(key.header, 0, out, 0, key.header.length);
  }

  /**
   * One key version: its three AES-128 keys (tree coins, bit coins, chunk chaining: bytes 0-15,
   * 16-31 and 32-47 of the key) as JCE key objects, and a per-thread keyed function.
   */
  static final class OpeKey {
    /** The key header in front of this key's blocks. */
    final byte[] header;
    private final SecretKeySpec treeKey;
    private final SecretKeySpec bitKey;
    private final SecretKeySpec chainKey;
    private final ThreadLocal<Worker> workers;
    /** Remembered results: plaintext to blocks, and whole ciphertext (no companion) to plaintext. */
    final DeterministicMemo encrypted;
    final DeterministicMemo decrypted;

    OpeKey(VersionedKey key, StoredFormat format, int memoEntries) throws GeneralSecurityException {
      this.encrypted = new DeterministicMemo(memoEntries);
      this.decrypted = new DeterministicMemo(memoEntries);
      this.header = format.header(key.keyId());
      // Each SecretKeySpec copies its 16 bytes straight from the temporary, which withCopy wipes:
      // no loose copy of the key is left behind.
      SecretKeySpec[] parts = key.key().withCopy(SecretKeyAccess.insecure(), raw -> new SecretKeySpec[] {
          new SecretKeySpec(raw, 0, 16, "AES"),
          new SecretKeySpec(raw, 16, 16, "AES"),
          new SecretKeySpec(raw, 32, 16, "AES")});
      this.treeKey = parts[0];
      this.bitKey = parts[1];
      this.chainKey = parts[2];
      this.workers = ThreadLocal.withInitial(() -> new Worker(treeKey, bitKey, chainKey));
    }

    Worker worker() {
      return workers.get();
    }

    /**
     * A thread's function, keyed once; chunk {@code j} of a string selects the tweak
     * T_j = AES_chain(T_{j-1} xor (k_{j-1}, j)), a CBC-MAC over the order keys of its prefix, so the
     * same prefix gives the same function and any other prefix an independent one.
     */
    static final class Worker {
      final OrderPreservingFunction function = new OrderPreservingFunction();
      private final Cipher chain;
      private final byte[] block = new byte[BLOCK];
      private long tweakHi;
      private long tweakLo;
      /**
       * The order keys and blocks of the last value this thread encrypted: a chunk's block depends
       * only on the chunks up to it, so the leading chunks a value shares with the last one (row
       * keys written in order, say) are copied rather than walked again.
       */
      private long[] lastKeys = new long[0];
      private byte[] lastBlocks = new byte[0];

      Worker(SecretKey treeKey, SecretKey bitKey, SecretKey chainKey) {
        function.init(treeKey, bitKey);
        try {
          chain = Cipher.getInstance("AES/ECB/NoPadding");
          chain.init(Cipher.ENCRYPT_MODE, chainKey);
        } catch (GeneralSecurityException e) {
          throw new IllegalStateException("AES is not available", e);
        }
      }

      /** Writes the blocks of {@code orderKeys} into {@code out} from {@code offset}. */
      void encrypt(long[] orderKeys, byte[] out, int offset) {
        int shared = 0;
        while (shared < orderKeys.length && shared < lastKeys.length && orderKeys[shared] == lastKeys[shared]) {
          shared++;
        }
        System.arraycopy(lastBlocks, 0, out, offset, shared * BLOCK);
        if (shared == orderKeys.length) {
          return; // the same value again
        }
        keyForChunk(0, 0);
        for (int j = 1; j <= shared; j++) {
          keyForChunk(j, orderKeys[j - 1]); // one AES block each: the tweak chain up to the first new chunk
        }
        for (int j = shared; j < orderKeys.length; j++) {
          if (j > shared) {
            keyForChunk(j, orderKeys[j - 1]);
          }
          function.encrypt(orderKeys[j], out, offset + j * BLOCK);
        }
        lastKeys = orderKeys.clone();
        lastBlocks = Arrays.copyOfRange(out, offset, offset + orderKeys.length * BLOCK);
      }

      /** Selects the function of chunk {@code j}, given the order key of chunk {@code j - 1}. */
      void keyForChunk(int j, long previousKey) {
        if (j == 0) {
          tweakHi = 0;
          tweakLo = 0;
        } else {
          OrderPreservingFunction.writeLong(block, 0, tweakHi ^ previousKey);
          OrderPreservingFunction.writeLong(block, 8, tweakLo ^ j);
          try {
            chain.update(block, 0, BLOCK, block, 0);
          } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES failed", e);
          }
          tweakHi = OrderPreservingFunction.readLong(block, 0);
          tweakLo = OrderPreservingFunction.readLong(block, 8);
        }
        function.tweak(tweakHi, tweakLo);
      }
    }
  }
}
