package dev.cryptoworker.client;

import static org.apache.hadoop.hbase.util.Bytes.toBytes;

import dev.cryptoworker.testing.OwnClusters;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * CELL tables (the default layout) keep a put made right after a delete when the cluster's clock
 * runs ahead of the client's: HBase stamps both the delete marker and the put.
 */
@OwnClusters
class CellClockSkewTest {
  @Test
  void aPutRightAfterADeleteIsKeptWithTheClusterClockAhead(@TempDir Path dir) throws Exception {
    DeleteThenPut.onClusterAhead(dir, SecureFixture.schema("skew", String.join("\n",
        "table: TABLE",
        "rowKey: { box: DET }",
        "families:",
        "  f:",
        "    default: { box: STD }",
        "")), toBytes("f"), toBytes("row-1"));
  }
}
