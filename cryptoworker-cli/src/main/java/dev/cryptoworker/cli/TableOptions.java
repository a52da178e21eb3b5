package dev.cryptoworker.cli;

import dev.cryptoworker.client.SecureConnection;
import dev.cryptoworker.keys.KeyEncryptionKey;
import dev.cryptoworker.keys.KeyProvider;
import dev.cryptoworker.schema.TableSchema;
import java.io.IOException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hbase.client.Connection;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** One protected table: its name, the schema files that describe it, and the keyset that reads it. */
final class TableOptions {
  @Option(names = "--table", required = true, paramLabel = "TABLE", description = "The table.")
  String table;

  @Option(names = "--schema", required = true, paramLabel = "FILE", arity = "1..*",
      description = "YAML schema file(s); one must describe --table.")
  List<Path> schemaFiles;

  @Mixin KeysetOptions keyset;

  /** The schema of {@code --table} among {@code --schema}'s files. */
  TableSchema schema() throws IOException {
    List<String> described = new ArrayList<>();
    for (Path file : schemaFiles) {
      TableSchema schema = TableSchema.load(file);
      if (schema.tableName().equals(table)) {
        return schema;
      }
      described.add(schema.tableName() + " (" + file + ")");
    }
    throw new IllegalArgumentException("no --schema file describes table " + table + "; they describe " + described);
  }

  KeyEncryptionKey kek(Map<String, String> environment) throws IOException, GeneralSecurityException {
    return keyset.keyEncryptionKey(environment);
  }

  /** A secure connection over {@code clusters} with the keyset's keys and the table's schema. */
  SecureConnection secure(Map<String, Connection> clusters, Map<String, String> environment)
      throws IOException, GeneralSecurityException {
    KeyProvider keys = KeyProvider.fromKeysetFile(keyset.keyset, kek(environment));
    return SecureConnection.wrap(clusters, keys, List.of(schema()));
  }
}
