package dev.cryptoworker.cryptobox.ashe;

import dev.cryptoworker.cryptobox.AdditiveAggregation;
import dev.cryptoworker.cryptobox.BoxKind;
import dev.cryptoworker.cryptobox.CryptoBox;
import dev.cryptoworker.cryptobox.IdentifierSource;
import dev.cryptoworker.cryptobox.KeyIdPrefix;
import dev.cryptoworker.cryptobox.KeyRing;
import dev.cryptoworker.cryptobox.KeyedPrimitives;
import dev.cryptoworker.cryptobox.SecretKeyAccess;
import dev.cryptoworker.cryptobox.VersionedKey;
import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import javax.crypto.Cipher;
import javax.crypto.spec.SecretKeySpec;

/**
 * ASHE (Seabed, OSDI 2016): additively homomorphic symmetric encryption over Z_2^64.
 *
 * <pre>
 * Enc(m, (n, i)) = (m - F(n, i) + F(n, i - 1)) mod 2^64, with a PRF input (n, i) never used twice
 * Dec(c, S) = (c + sum over nonces n, runs [a, b] of S_n of (F(n, b) - F(n, a - 1))) mod 2^64
 * </pre>
 *
 * where F is AES-256 as a PRF on the block {@code n (8) || i / 2 (8)}, one block giving F(n, 2j)
 * and F(n, 2j + 1). A sum of values whose identifiers form k runs (within their nonces) decrypts
 * with 2k PRF calls.
 *
 * <p>Identifiers come from the client's {@link IdentifierSource}; the nonce n is the box's own: a
 * random non-zero 64-bit number drawn from a CSPRNG when the box first writes, and again whenever
 * the source hands out an identifier not above the last one written under the current nonce (its
 * counter went back: restored, lost, or lowered by the server). So within a nonce identifiers
 * strictly increase, and the PRF input never repeats whatever the counter does, except with
 * probability 2^-64 per pair of nonces drawn over overlapping identifiers. Cells written before
 * nonces existed are nonce 0, which is exactly the block they were encrypted with.
 *
 * <p><b>Security:</b> IND-CPA as long as PRF inputs never repeat under a key. <b>Leaks:</b> which
 * rows a sum covers (the identifier sets) and how many values; which values one box wrote (its
 * nonce); nothing about the values. <b>Not authenticated:</b> the server can add, drop or alter
 * values of a sum undetected.
 */
public final class AsheBox implements CryptoBox, AdditiveAggregation {
  /** AES-256 PRF key. */
  public static final int KEY_LENGTH_BYTES = 32;

  private final KeyedPrimitives<Prf> prfs;
  private final Leases leases;
  private final boolean intValues;

  private AsheBox(KeyedPrimitives<Prf> prfs, IdentifierSource ids, boolean intValues) {
    this.prfs = prfs;
    this.leases = new Leases(ids);
    this.intValues = intValues;
  }

  /**
   * A box writing under the primary key with identifiers from {@code ids}.
   *
   * @param intValues whether values are 4-byte ints (else 8-byte longs); sums are 64-bit either way
   */
  public static AsheBox create(KeyRing keys, IdentifierSource ids, boolean intValues) throws GeneralSecurityException {
    Objects.requireNonNull(ids, "ids");
    return new AsheBox(KeyedPrimitives.create(keys, "ASHE", KEY_LENGTH_BYTES, 16, Prf::new), ids, intValues);
  }

  @Override
  public BoxKind kind() {
    return BoxKind.ASHE;
  }

  /** Encrypts an 8-byte long (or 4-byte int) value; {@code associatedData} is not used. */
  @Override
  public byte[] encrypt(byte[] plaintext, byte[] associatedData) throws GeneralSecurityException {
    return encryptNumber(toLong(plaintext));
  }

  /** Encrypts a 64-bit value under a fresh PRF input, whatever the column's value width. */
  @Override
  public byte[] encryptNumber(long m) throws GeneralSecurityException {
    PrfInput input = leases.next();
    return encrypt(m, input.nonce(), input.id()).toBytes();
  }

  /** Decrypts one stored value as a 64-bit number, whatever the column's value width. */
  @Override
  public long decryptNumber(byte[] stored) throws GeneralSecurityException {
    AsheCell cell;
    try {
      cell = AsheCell.parse(stored);
    } catch (IllegalArgumentException e) {
      throw new GeneralSecurityException(e.getMessage());
    }
    Prf f = prfFor(cell.keyId());
    return cell.ciphertext() + f.eval(cell.nonce(), cell.id()) - f.eval(cell.nonce(), cell.id() - 1);
  }

  /** The value width: 4-byte ints or 8-byte longs. */
  public boolean intValues() {
    return intValues;
  }

  /**
   * Enc(m, (nonce, id)) under the primary key. Not public: a PRF input must never repeat under a
   * key, so only the box's {@link Leases} choose them (tests write legacy cells with nonce 0).
   */
  AsheCell encrypt(long m, long nonce, long id) {
    Prf f = prfs.primary();
    return new AsheCell(f.keyId, m - f.eval(nonce, id) + f.eval(nonce, id - 1), nonce, id);
  }

  @Override
  public byte[] decrypt(byte[] ciphertext, byte[] associatedData) throws GeneralSecurityException {
    long m = decryptNumber(ciphertext);
    if (intValues) {
      if (m != (int) m) {
        throw new GeneralSecurityException("decrypted ASHE value is not an int");
      }
      return ByteBuffer.allocate(4).putInt((int) m).array();
    }
    return ByteBuffer.allocate(8).putLong(m).array();
  }

  @Override
  public RegionAddition regionAddition() {
    return RegionAddition.ASHE;
  }

  /**
   * Merges region partials ({@link AsheSum#toBytes()}) per key version and decrypts each total: two
   * PRF calls per run of consecutive identifiers of a nonce.
   *
   * @throws GeneralSecurityException if a partial is malformed, two regions report the same
   *     PRF input, or a key version is unknown
   */
  @Override
  public Sum decryptSum(List<byte[]> regionPartials) throws GeneralSecurityException {
    Map<Integer, AsheSum> byKey = new HashMap<>();
    try {
      for (byte[] partial : regionPartials) {
        AsheSum s = AsheSum.parse(partial);
        AsheSum merged = byKey.putIfAbsent(s.keyId(), s);
        if (merged != null) {
          merged.add(s);
        }
      }
    } catch (IllegalArgumentException e) {
      throw new GeneralSecurityException("malformed ASHE partial sum: " + e.getMessage(), e);
    }
    long value = 0;
    long count = 0;
    for (AsheSum s : byKey.values()) {
      value += decrypt(s);
      count += s.count();
    }
    return new Sum(value, count);
  }

  /** Decrypts a homomorphic sum. */
  public long decrypt(AsheSum sum) throws GeneralSecurityException {
    Prf f = prfFor(sum.keyId());
    long m = sum.ciphertext();
    for (Map.Entry<Long, IdSet> e : sum.ids().byNonce().entrySet()) {
      m += f.telescope(e.getKey(), e.getValue());
    }
    return m;
  }

  private Prf prfFor(int keyId) throws GeneralSecurityException {
    byte[] probe = ByteBuffer.allocate(AsheCell.LEGACY_LENGTH).put(KeyIdPrefix.FORMAT).putInt(keyId).array();
    return prfs.forCiphertext(probe);
  }

  private long toLong(byte[] plaintext) {
    if (intValues) {
      if (plaintext.length != 4) {
        throw new IllegalArgumentException("an int must be 4 bytes, got " + plaintext.length);
      }
      return ByteBuffer.wrap(plaintext).getInt();
    }
    if (plaintext.length != 8) {
      throw new IllegalArgumentException("a long must be 8 bytes, got " + plaintext.length);
    }
    return ByteBuffer.wrap(plaintext).getLong();
  }

  /**
   * The PRF inputs of new values: the source's identifiers under the box's lease nonce, drawn anew
   * whenever an identifier does not exceed the last one under the current nonce. Thread-safe.
   */
  private static final class Leases {
    private static final SecureRandom RANDOM = new SecureRandom();
    private final IdentifierSource ids;
    private long nonce; // 0: none drawn yet
    private long lastId;

    Leases(IdentifierSource ids) {
      this.ids = ids;
    }

    /** An input this box never used, nor (but with probability 2^-64) another box. */
    synchronized PrfInput next() throws GeneralSecurityException {
      long id;
      try {
        id = ids.nextId();
      } catch (IOException e) {
        throw new GeneralSecurityException("cannot allocate an ASHE identifier: " + e.getMessage(), e);
      }
      if (id < 1) {
        throw new GeneralSecurityException("the identifier source handed out " + id + ", not a positive identifier");
      }
      if (nonce == 0 || id <= lastId) {
        do {
          nonce = RANDOM.nextLong();
        } while (nonce == 0);
      }
      lastId = id;
      return new PrfInput(nonce, id);
    }
  }

  /** The PRF input of one value: its lease nonce and identifier. */
  private record PrfInput(long nonce, long id) {}

  /**
   * F under one key version: AES-256 on the block {@code nonce || index}, two 64-bit outputs per
   * block, with a small per-thread window of blocks so runs of consecutive identifiers cost a
   * fraction of an AES call.
   */
  static final class Prf {
    private static final int WINDOW_BLOCKS = 32;
    private static final int BATCH_RUNS = 512;
    private static final VarHandle LONGS =
        MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);
    final int keyId;
    /** The JCE key object keeps its own copy of the key; the temporary one is wiped. */
    private final SecretKeySpec key;
    private final ThreadLocal<Window> windows;

    Prf(VersionedKey k) throws GeneralSecurityException {
      this.keyId = k.keyId();
      this.key = k.key().withCopy(SecretKeyAccess.insecure(), raw -> new SecretKeySpec(raw, "AES"));
      this.windows = ThreadLocal.withInitial(Window::new);
    }

    long eval(long nonce, long i) {
      return windows.get().eval(nonce, i);
    }

    /**
     * The sum over the runs {@code [a, b]} of {@code ids} of F(nonce, b) - F(nonce, a - 1), with
     * the blocks of many runs in one AES call: the runs of a group's sum are usually far apart, and
     * one call per run (a window each) cost a call's fixed price per run.
     */
    long telescope(long nonce, IdSet ids) {
      return windows.get().telescope(nonce, ids);
    }

    private final class Window {
      private final Cipher aes;
      private final byte[] in = new byte[16 * WINDOW_BLOCKS];
      private final byte[] out = new byte[16 * WINDOW_BLOCKS];
      /** Two blocks per run, {@link #BATCH_RUNS} runs per AES call; allocated by the first sum. */
      private byte[] runsIn;
      private byte[] runsOut;
      private final long[] values = new long[2 * WINDOW_BLOCKS];
      private long nonce;
      private long firstBlock = -1;

      Window() {
        try {
          aes = Cipher.getInstance("AES/ECB/NoPadding");
          aes.init(Cipher.ENCRYPT_MODE, key);
        } catch (GeneralSecurityException e) {
          throw new IllegalStateException("AES is not available", e);
        }
      }

      long eval(long n, long i) {
        long block = i >>> 1;
        long first = block - Math.floorMod(block, WINDOW_BLOCKS);
        if (first != firstBlock || n != nonce) {
          for (int j = 0; j < WINDOW_BLOCKS; j++) {
            LONGS.set(in, 16 * j, n); // legacy cells: nonce 0, the zero high half they were made with
            LONGS.set(in, 16 * j + 8, first + j);
          }
          try {
            aes.update(in, 0, in.length, out, 0);
          } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES failed", e);
          }
          for (int j = 0; j < values.length; j++) {
            values[j] = (long) LONGS.get(out, 8 * j);
          }
          firstBlock = first;
          nonce = n;
        }
        return values[(int) (block - first) * 2 + (int) (i & 1)];
      }

      long telescope(long n, IdSet ids) {
        if (runsIn == null) {
          runsIn = new byte[32 * BATCH_RUNS];
          runsOut = new byte[32 * BATCH_RUNS];
        }
        long m = 0;
        int runs = ids.runCount();
        for (int from = 0; from < runs; from += BATCH_RUNS) {
          int count = Math.min(BATCH_RUNS, runs - from);
          for (int r = 0; r < count; r++) {
            LONGS.set(runsIn, 32 * r, n);
            LONGS.set(runsIn, 32 * r + 8, (ids.runStart(from + r) - 1) >>> 1);
            LONGS.set(runsIn, 32 * r + 16, n);
            LONGS.set(runsIn, 32 * r + 24, ids.runEnd(from + r) >>> 1);
          }
          try {
            aes.update(runsIn, 0, 32 * count, runsOut, 0);
          } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES failed", e);
          }
          for (int r = 0; r < count; r++) {
            long before = ids.runStart(from + r) - 1;
            long end = ids.runEnd(from + r);
            m += (long) LONGS.get(runsOut, 32 * r + 16 + 8 * (int) (end & 1))
                - (long) LONGS.get(runsOut, 32 * r + 8 * (int) (before & 1));
          }
        }
        return m;
      }
    }
  }
}
