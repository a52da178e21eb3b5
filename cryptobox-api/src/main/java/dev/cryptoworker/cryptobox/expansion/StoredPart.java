package dev.cryptoworker.cryptobox.expansion;

import dev.cryptoworker.cryptobox.BoxKind;
import java.util.Objects;
import java.util.Optional;

/**
 * What a stored qualifier an expansion made is part of: a logical column, under whose keys it is
 * encrypted, and how its values are stored.
 *
 * @param logicalColumn the column whose keys (and box) encrypt the part
 * @param numbersKind if present, the part holds 64-bit numbers stored as this kind stores them (SPLASHE's
 *     0/1 indicators are ASHE numbers); if empty, it holds values of the logical column's own type
 */
public record StoredPart(String logicalColumn, Optional<BoxKind> numbersKind) {
  public StoredPart {
    Objects.requireNonNull(logicalColumn, "logicalColumn");
    Objects.requireNonNull(numbersKind, "numbersKind");
  }
}
