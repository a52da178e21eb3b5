package dev.cryptoworker.benchmarks;

import dev.cryptoworker.cryptobox.BoxKind;
import dev.cryptoworker.cryptobox.ashe.AsheBox;
import dev.cryptoworker.cryptobox.ashe.AsheCell;
import dev.cryptoworker.cryptobox.ashe.AsheSum;
import dev.cryptoworker.keys.KeyProvider;
import dev.cryptoworker.keys.KeyScope;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Collections;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * ASHE per value: encrypt (consecutive identifiers, as a writer leasing blocks has), decrypt of
 * one stored value, and the server's homomorphic add (ciphertext addition plus identifier-set
 * union). Seabed: 12-24 ns per encrypt/decrypt, 47 ns per AES-CTR block, 1 ns plain addition.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
@State(Scope.Thread)
public class AsheBenchmark {
  private static final int BATCH = 1024;
  /** About one region's rows in the 1M-row Spark benchmark (8 regions). */
  private static final int REGION_ROWS = 1 << 17;

  private AsheBox box;
  private long nextId;
  private AsheCell[] cells;
  private byte[][] stored;
  private int next;
  /** A region's stored values, identifiers in an order unrelated to them (a scan of DET row keys). */
  private byte[][] shuffled;

  @Setup(Level.Trial)
  public void setUp() throws GeneralSecurityException {
    byte[] master = new byte[32];
    new SecureRandom().nextBytes(master);
    KeyProvider keys = KeyProvider.fromMasterKey(master);
    box = AsheBox.create(keys.keyRing(KeyScope.column("bench", "f", "x", BoxKind.ASHE), AsheBox.KEY_LENGTH_BYTES),
        () -> ++nextId, false);
    cells = new AsheCell[BATCH];
    stored = new byte[BATCH][];
    for (int i = 0; i < BATCH; i++) {
      stored[i] = box.encryptNumber(i * 37L - 5000);
      cells[i] = AsheCell.parse(stored[i]);
    }
    shuffled = new byte[REGION_ROWS][];
    for (int i = 0; i < REGION_ROWS; i++) {
      shuffled[i] = box.encryptNumber(i);
    }
    Collections.shuffle(Arrays.asList(shuffled), new Random(7));
  }

  @Benchmark
  public byte[] encrypt() throws GeneralSecurityException {
    return box.encryptNumber(42L);
  }

  @Benchmark
  public byte[] decryptStoredValue() throws GeneralSecurityException {
    next = (next + 1) & (BATCH - 1);
    return box.decrypt(stored[next], null);
  }

  /** The server's work per value: parse the cell, add mod 2^64, add the id to the run set. */
  @Benchmark
  @OperationsPerInvocation(BATCH)
  public AsheSum homomorphicAddPerValue() {
    AsheSum sum = new AsheSum(cells[0].keyId());
    for (byte[] s : stored) {
      sum.add(AsheCell.parse(s));
    }
    return sum;
  }

  /**
   * The server's work per value over a region whose scan meets identifiers out of their order, as
   * a region of DET row keys does: identifiers below the last run are held apart and sorted in once.
   */
  @Benchmark
  @OperationsPerInvocation(REGION_ROWS)
  public byte[] homomorphicAddPerValueInScanOrder() {
    AsheSum sum = new AsheSum(cells[0].keyId());
    for (byte[] s : shuffled) {
      sum.add(AsheCell.parse(s));
    }
    return sum.toBytes();
  }

  /** Decrypting a sum of 1024 consecutive values: two PRF calls whatever the count. */
  @Benchmark
  public long decryptSumOf1024() throws GeneralSecurityException {
    AsheSum sum = new AsheSum(cells[0].keyId());
    for (AsheCell c : cells) {
      sum.add(c);
    }
    return box.decrypt(sum);
  }
}
