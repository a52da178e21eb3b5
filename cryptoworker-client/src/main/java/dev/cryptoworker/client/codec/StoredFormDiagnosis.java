package dev.cryptoworker.client.codec;

import dev.cryptoworker.cryptobox.BoxKind;
import dev.cryptoworker.cryptobox.CryptoBox;
import dev.cryptoworker.cryptobox.StoredFormat;
import dev.cryptoworker.keys.KeyProvider;
import dev.cryptoworker.keys.KeyScope;
import dev.cryptoworker.schema.ColumnPolicy;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.function.Function;

/**
 * Explains a value that does not decrypt under its column's policy: tries the column's keys under
 * the other boxes (and the family default's keys), so that a schema changed under stored data
 * says what the cell was written as. Runs only on the failure path; never reports a value.
 */
final class StoredFormDiagnosis {
  private final String table;
  private final KeyProvider keys;
  private final BoxRegistry registry;
  private final StoredFormat format;

  StoredFormDiagnosis(String table, KeyProvider keys, BoxRegistry registry, StoredFormat format) {
    this.table = table;
    this.keys = keys;
    this.registry = registry;
    this.format = format;
  }

  /**
   * What the stored cell is, if another policy of the column reads it, or its key id otherwise.
   *
   * @param associatedData the associated data a box of a kind binds (with or without the row)
   * @param keyId the key id in the stored cell's header, as the table's codec reads it
   */
  String explain(String family, String column, ColumnPolicy expected, byte[] stored,
      Function<CryptoBox, byte[]> associatedData, OptionalInt keyId) {
    for (String scopeColumn : column.equals("*") ? List.of("*") : List.of(column, "*")) {
      for (BoxKind kind : registry.keyedKinds()) {
        if (kind == expected.box() && scopeColumn.equals(column)) {
          continue; // the policy that just failed
        }
        try {
          CryptoBox box = registry.create(new ColumnBoxContext(ColumnPolicy.of(kind, expected.type()),
              KeyScope.column(table, family, scopeColumn, kind), keys, format,
              scope -> () -> {
                throw new IllegalStateException("diagnosis never encrypts");
              }, Map.of(), registry));
          box.decrypt(stored, associatedData.apply(box));
          return "the stored cell was written as " + kind
              + (scopeColumn.equals(column) ? "" : " under the family default's keys")
              + ", but the schema says " + expected.box()
              + ": the schema no longer matches the stored data (migrate the column, or restore its policy)";
        } catch (Exception notThisOne) {
          // try the next candidate
        }
      }
    }
    return keyId.isPresent()
        ? (format == StoredFormat.V1
            ? "the stored cell carries key id " + Integer.toUnsignedString(keyId.getAsInt(), 16)
            // one header byte: a value in another form starts with it once in 256
            : "the stored cell's 1-byte header matches key id " + Integer.toUnsignedString(keyId.getAsInt(), 16)
                + " (or it is not in CryptoWorker's format and starts with that byte by chance)")
        : "the stored cell is not in CryptoWorker's format, or its header names no key of this keyset (written by"
            + " a plain client, or under another keyset?)";
  }
}
