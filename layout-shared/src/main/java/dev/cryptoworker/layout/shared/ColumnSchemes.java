package dev.cryptoworker.layout.shared;

import dev.cryptoworker.cryptobox.PlainBox;
import dev.cryptoworker.sharing.SecretSharing;
import dev.cryptoworker.sharing.SecretSharings;
import dev.cryptoworker.sharing.SharingKind;
import java.util.HashSet;
import java.util.Set;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * Which scheme splits each column of a SHARED table: the table's, or SHAMIR_P127 for its summed
 * columns ({@link SharedTableLayout#summed()}). Summed columns live in families that store
 * qualifiers as they are, so a stored cell's qualifier names its column.
 */
final class ColumnSchemes {
  private final SecretSharing table;
  private final SecretSharing numbers;
  private final Set<String> summed;

  ColumnSchemes(SharedTableLayout spec) {
    // AES_RS disperses the column's STD ciphertext (AES-GCM under the key provider's key, bound to the cell).
    this.table = SecretSharings.create(spec.scheme(), spec.parameters(),
        spec.scheme() == SharingKind.AES_RS ? PlainBox.get() : null);
    this.numbers = spec.summed().isEmpty() ? null
        : SecretSharings.create(SharingKind.SHAMIR_P127, spec.parameters(), null);
    this.summed = new HashSet<>(spec.summed());
  }

  /** The scheme of the column {@code family:storedQualifier}. */
  SecretSharing of(byte[] family, byte[] storedQualifier) {
    return numbers != null && summed.contains(Bytes.toString(family) + ":" + Bytes.toString(storedQualifier))
        ? numbers : table;
  }

  /** The table's scheme (of every column not summed). */
  SecretSharing table() {
    return table;
  }

  /** The most shares any column needs to decode. */
  int threshold() {
    return numbers == null ? table.threshold() : Math.max(table.threshold(), numbers.threshold());
  }
}
