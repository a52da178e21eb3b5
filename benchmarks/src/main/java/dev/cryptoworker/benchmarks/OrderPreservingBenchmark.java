package dev.cryptoworker.benchmarks;

import dev.cryptoworker.cryptobox.AssociatedData;
import dev.cryptoworker.cryptobox.BoxKind;
import dev.cryptoworker.cryptobox.std.RandomizedBox;
import dev.cryptoworker.cryptobox.ope.OrderPreservingBox;
import dev.cryptoworker.keys.KeyProvider;
import dev.cryptoworker.keys.KeyScope;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.SplittableRandom;
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
 * OPE encrypt and decrypt per value: a 64-bit long without and with the authenticated STD
 * companion (what the companion costs), a 14-byte date (dates need the companion), a 14-byte
 * string and a 256-byte string, all random; and runs of increasing longs and of the load
 * benchmark's 10-byte row keys, which share the upper part of their walks. Sample mode, so the
 * median (p0.50) is reported beside the mean.
 *
 * <p>SafeNoSQL's BCLO (OpenSSL + MPFR): 567 us to decode 14 bytes, 2.861 s for 256 bytes.
 */
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
@State(Scope.Thread)
public class OrderPreservingBenchmark {
  @Param({"long", "long+companion", "date14+companion", "string14", "string256", "long-increasing",
      "rowkey-increasing"})
  String value;

  private OrderPreservingBox box;
  private byte[][] plaintexts;
  private byte[][] ciphertexts;
  private byte[] associatedData;
  private int next;

  @Setup(Level.Trial)
  public void setUp() throws GeneralSecurityException {
    byte[] master = new byte[32];
    new SecureRandom().nextBytes(master);
    KeyProvider keys = KeyProvider.fromMasterKey(master);
    KeyScope scope = KeyScope.column("bench", "f", value, BoxKind.OPE);
    OrderPreservingBox.Encoding encoding =
        value.startsWith("long") ? OrderPreservingBox.Encoding.LONG
            : value.startsWith("date") ? OrderPreservingBox.Encoding.DATE : OrderPreservingBox.Encoding.BYTES;
    RandomizedBox companion =
        value.endsWith("+companion")
            ? RandomizedBox.create(keys.keyRing(KeyScope.column("bench", "f", "companion", BoxKind.STD), 32))
            : null;
    // No memo: this measures the function itself, not a remembered result for one of 1,024 values.
    box = OrderPreservingBox.create(keys.keyRing(scope, OrderPreservingBox.KEY_LENGTH_BYTES), encoding, companion, 0);
    associatedData = AssociatedData.of("value", "x".getBytes(StandardCharsets.UTF_8));
    SplittableRandom r = new SplittableRandom(42);
    plaintexts = new byte[1024][];
    ciphertexts = new byte[plaintexts.length][];
    for (int i = 0; i < plaintexts.length; i++) {
      plaintexts[i] = switch (value) {
        case "long", "long+companion" -> ByteBuffer.allocate(8).putLong(r.nextLong()).array();
        case "date14+companion" -> String.format("2%03d%02d%02d%02d%02d%02d", 15 + r.nextInt(6), 1 + r.nextInt(12),
            1 + r.nextInt(28), r.nextInt(24), r.nextInt(60), r.nextInt(60)).getBytes(StandardCharsets.UTF_8);
        case "string14" -> text(r, 14);
        // Runs of increasing values, as time-ordered row keys and timestamps arrive: 1,024 in a row.
        case "long-increasing" -> ByteBuffer.allocate(8).putLong((1L << 40) + i).array();
        case "rowkey-increasing" -> String.format("r%09d", 500_000 + i).getBytes(StandardCharsets.UTF_8);
        default -> text(r, 256);
      };
      ciphertexts[i] = box.encrypt(plaintexts[i], associatedData);
    }
  }

  private static byte[] text(SplittableRandom r, int n) {
    byte[] b = new byte[n];
    for (int i = 0; i < n; i++) {
      b[i] = (byte) ('a' + r.nextInt(26));
    }
    return b;
  }

  @Benchmark
  public byte[] encrypt() throws GeneralSecurityException {
    next = (next + 1) & (plaintexts.length - 1);
    return box.encrypt(plaintexts[next], associatedData);
  }

  @Benchmark
  public byte[] decrypt() throws GeneralSecurityException {
    next = (next + 1) & (plaintexts.length - 1);
    return box.decrypt(ciphertexts[next], associatedData);
  }
}
