package dev.cryptoworker.spark;

import org.apache.spark.sql.SparkSession;

/** One local Spark session per test JVM (two cores, no UI), shared by the test classes. */
final class LocalSpark {
  private static SparkSession session;

  private LocalSpark() {}

  static synchronized SparkSession session() {
    if (session == null) {
      session = SparkSession.builder().master("local[2]").appName("cryptoworker-spark-tests")
          .config("spark.ui.enabled", "false")
          .config("spark.driver.host", "127.0.0.1")
          .config("spark.driver.bindAddress", "127.0.0.1")
          .config("spark.sql.shuffle.partitions", "2")
          .getOrCreate();
      Runtime.getRuntime().addShutdownHook(new Thread(session::stop));
    }
    return session;
  }
}
