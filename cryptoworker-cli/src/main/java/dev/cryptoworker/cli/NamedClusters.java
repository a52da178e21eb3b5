package dev.cryptoworker.cli;

import dev.cryptoworker.client.SecureConnection;
import dev.cryptoworker.schema.TableSchema;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import picocli.CommandLine.Option;

/**
 * The clusters a schema names besides the default one (a SHARED table's {@code clusters}, a CELL
 * table's {@code cluster}), each by name, as the schema names them.
 */
final class NamedClusters {
  @Option(names = "--cluster-zookeeper", paramLabel = "NAME=HOST:PORT",
      description = "A cluster the schema names (layout clusters), by its ZooKeeper quorum; once per cluster."
          + " The HBase given by --embedded, --zookeeper or --hbase-site is the cluster 'default'.")
  Map<String, String> zookeepers = new LinkedHashMap<>();

  @Option(names = "--cluster-hbase-site", paramLabel = "NAME=FILE",
      description = "A cluster the schema names, by its client configuration (hbase-site.xml); once per cluster.")
  Map<String, Path> sites = new LinkedHashMap<>();

  /** Each cluster given, by name, checked: never {@code default}, no name twice. */
  Map<String, ClusterOptions.Address> addresses() {
    Map<String, ClusterOptions.Address> out = new LinkedHashMap<>();
    zookeepers.forEach((name, quorum) -> out.put(checkName(name, out), ClusterOptions.Address.zookeeper(
        "--cluster-zookeeper " + name, quorum)));
    sites.forEach((name, file) -> out.put(checkName(name, out), ClusterOptions.Address.site(
        "--cluster-hbase-site " + name, file)));
    return out;
  }

  private static String checkName(String name, Map<String, ?> given) {
    if (name.equals(SecureConnection.DEFAULT_CLUSTER)) {
      throw new IllegalArgumentException("cluster '" + name + "' is the one --embedded, --zookeeper or --hbase-site"
          + " gives; name the others only");
    }
    if (given.containsKey(name)) {
      throw new IllegalArgumentException("cluster '" + name + "' is given twice");
    }
    return name;
  }

  /**
   * Refuses {@code command} unless every cluster the schemas name is given, naming the missing ones
   * and the options that give them.
   */
  void requireClustersOf(String command, List<TableSchema> schemas) {
    Set<String> missing = new LinkedHashSet<>();
    List<String> tables = new ArrayList<>();
    for (TableSchema schema : schemas) {
      for (String cluster : schema.layout().clusters()) {
        if (!cluster.equals(SecureConnection.DEFAULT_CLUSTER) && !zookeepers.containsKey(cluster)
            && !sites.containsKey(cluster)) {
          missing.add(cluster);
          tables.add(schema.tableName());
        }
      }
    }
    if (!missing.isEmpty()) {
      throw new IllegalArgumentException(command + " of table " + String.join(", ", new LinkedHashSet<>(tables))
          + ": its schema stores it on clusters " + missing + ", which were not given; name each with"
          + " --cluster-zookeeper NAME=HOST:PORT or --cluster-hbase-site NAME=FILE");
    }
  }
}
