package dev.cryptoworker.benchmarks;

import dev.cryptoworker.cryptobox.BoxKind;
import dev.cryptoworker.cryptobox.std.RandomizedBox;
import dev.cryptoworker.keys.KeyProvider;
import dev.cryptoworker.keys.KeyScope;
import dev.cryptoworker.sharing.SecretSharing;
import dev.cryptoworker.sharing.SecretSharings;
import dev.cryptoworker.sharing.SharingKind;
import dev.cryptoworker.sharing.SharingParameters;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Secret sharing, single thread: split (encode) and join (decode from the first n - r shares, the
 * systematic ones where the scheme has them) of one value, with k data shares, r = z = 2 (n = k + 4;
 * for AES_RS and AONT_RS, n = k + 2 and z does not apply). Shor's thesis, k = 8, r = z = 2: Secure
 * RAID encode 1,890 MB/s and decode about 4,200 in C++, 128 and 298 MB/s in its Java port; AES + RS
 * encode 2,160 MB/s (C++).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(1)
@State(Scope.Thread)
public class SecretSharingBenchmark {
  @Param({"SECURE_RAID", "PACKED_SHAMIR", "SHAMIR", "AONT_RS", "AES_RS"})
  public String scheme;

  @Param({"2", "4", "8"})
  public int k;

  @Param({"4096", "1048576"})
  public int size;

  private SecretSharing sharing;
  private byte[] value;
  private Map<Integer, byte[]> threshold;

  @Setup(Level.Trial)
  public void setUp() throws GeneralSecurityException {
    SharingKind kind = SharingKind.valueOf(scheme);
    boolean computational = kind == SharingKind.AES_RS || kind == SharingKind.AONT_RS;
    SharingParameters p = computational ? new SharingParameters(k + 2, 2, 0) : new SharingParameters(k + 4, 2, 2);
    RandomizedBox box = null;
    if (kind == SharingKind.AES_RS) {
      byte[] master = new byte[32];
      new SecureRandom().nextBytes(master);
      box = RandomizedBox.create(KeyProvider.fromMasterKey(master)
          .keyRing(KeyScope.column("bench", "f", "x", BoxKind.STD), RandomizedBox.KEY_LENGTH_BYTES));
    }
    sharing = SecretSharings.create(kind, p, box);
    value = new byte[size];
    new SecureRandom().nextBytes(value);
    byte[][] shares = sharing.split(value, null);
    threshold = new HashMap<>();
    for (int i = 0; i < sharing.threshold(); i++) {
      threshold.put(i, shares[i]);
    }
    // The JIT compiles the JDK's AES-GCM and AES-CTR intrinsics, and these loops, only after many
    // calls: at 1 MiB per call JMH's warm-up iterations make too few (GCM stays at 80 MB/s for the
    // first ~600 calls), so warm up on 700 calls (20,000 for small values) of this size first.
    int calls = (int) Math.min(20_000, Math.max(700, (512L << 20) / size));
    for (int i = 0; i < calls; i++) {
      sharing.split(value, null);
      sharing.join(threshold, null);
    }
  }

  @Benchmark
  public byte[][] split() throws GeneralSecurityException {
    return sharing.split(value, null);
  }

  @Benchmark
  public byte[] join() throws GeneralSecurityException {
    return sharing.join(threshold, null).value();
  }
}
