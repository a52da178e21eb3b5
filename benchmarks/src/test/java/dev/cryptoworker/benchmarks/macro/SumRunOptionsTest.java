package dev.cryptoworker.benchmarks.macro;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Map;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;

class SumRunOptionsTest {
  private static final Map<String, String> OWN = Map.of("load", "put", "name", "sums");

  @Test
  void givenValuesReplaceDefaultsAndSplitsCutEqualRanges() throws Exception {
    SumRunOptions o = SumRunOptions.parse(new String[] {"--rows=1000", "--regions=4", "--load=bulk", "--out=x"},
        new int[] {200_000, 5, 8}, OWN);
    assertEquals(1000, o.rows());
    assertEquals(5, o.rounds(), "the default");
    assertEquals("bulk", o.option("load"));
    assertEquals("sums", o.name());
    assertEquals(Path.of("x"), o.outDir());
    assertEquals("--rows=1000 --regions=4 --load=bulk --out=x", o.args());
    assertArrayEquals(new byte[][] {Bytes.toBytes("r000000250"), Bytes.toBytes("r000000500"),
        Bytes.toBytes("r000000750")}, o.splits());
  }

  @Test
  void unknownOptionsAndNonPositiveCountsAreRefused() {
    IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class,
        () -> SumRunOptions.parse(new String[] {"--cluster=hdfs", "--out=x"}, new int[] {1, 1, 1}, OWN));
    assertTrue(unknown.getMessage().contains("unknown option --cluster=hdfs") && unknown.getMessage().contains("--load"),
        unknown.getMessage());
    assertThrows(IllegalArgumentException.class,
        () -> SumRunOptions.parse(new String[] {"--rounds=0", "--out=x"}, new int[] {1, 1, 1}, OWN));
  }
}
