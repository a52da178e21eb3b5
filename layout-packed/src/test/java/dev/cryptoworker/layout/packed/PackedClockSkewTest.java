package dev.cryptoworker.layout.packed;

import static org.apache.hadoop.hbase.util.Bytes.toBytes;

import dev.cryptoworker.client.DeleteThenPut;
import dev.cryptoworker.client.SecureFixture;
import dev.cryptoworker.testing.OwnClusters;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * PACKED tables keep a put made right after a delete when the cluster's clock runs ahead of the
 * client's: a delete rewrites the row's pack, leaving no delete marker behind.
 */
@OwnClusters
class PackedClockSkewTest {
  @Test
  void aPutRightAfterADeleteIsKeptWithTheClusterClockAhead(@TempDir Path dir) throws Exception {
    DeleteThenPut.onClusterAhead(dir, SecureFixture.schema("packed", PackedLayoutTest.SCHEMA.replace("ROWBOX", "DET")),
        toBytes("f"), toBytes(PackedLayoutTest.key(1)));
  }
}
