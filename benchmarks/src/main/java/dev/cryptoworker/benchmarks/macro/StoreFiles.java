package dev.cryptoworker.benchmarks.macro;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.hadoop.hbase.TableName;

/** Exact store file sizes of a table on an embedded HBase (region servers report whole MB). */
final class StoreFiles {
  private StoreFiles() {}

  /**
   * Bytes of the table's store files after a major compaction: per store ({@code
   * hbase/data/default/TABLE/REGION/FAMILY/}) its newest file, the one the compaction wrote (the
   * files it replaced wait there until a chore archives them).
   */
  static long bytesAfterMajorCompaction(Path clusterDir, TableName name) throws IOException {
    Path table = clusterDir.resolve("hbase").resolve("data").resolve("default").resolve(name.getNameAsString());
    Map<Path, File> newest = new HashMap<>();
    try (Stream<Path> files = Files.walk(table)) {
      files.filter(Files::isRegularFile)
          .filter(f -> table.relativize(f).getNameCount() == 3 && !f.getFileName().toString().startsWith("."))
          .map(Path::toFile)
          .forEach(f -> newest.merge(f.toPath().getParent(), f, (a, b) -> a.lastModified() >= b.lastModified() ? a : b));
    }
    return newest.values().stream().mapToLong(File::length).sum();
  }
}
