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
 * @param ownBox if present, the part holds values of the logical column's type encrypted by a box of
 *     this kind of its own, under a key derived for the logical column and this part's kind, not by the
 *     logical column's box (enhanced SPLASHE's DET tokens of infrequent values)
 */
public record StoredPart(String logicalColumn, Optional<BoxKind> numbersKind, Optional<BoxKind> ownBox) {
  public StoredPart {
    Objects.requireNonNull(logicalColumn, "logicalColumn");
    Objects.requireNonNull(numbersKind, "numbersKind");
    Objects.requireNonNull(ownBox, "ownBox");
    if (numbersKind.isPresent() && ownBox.isPresent()) {
      throw new IllegalArgumentException("a part holds numbers or values under its own box, not both");
    }
  }

  /** A part under its logical column's box (numbers of {@code numbersKind}, if present). */
  public StoredPart(String logicalColumn, Optional<BoxKind> numbersKind) {
    this(logicalColumn, numbersKind, Optional.empty());
  }

  /** A part holding the logical column's values under a box of kind {@code kind} of its own. */
  public static StoredPart ownBox(String logicalColumn, BoxKind kind) {
    return new StoredPart(logicalColumn, Optional.empty(), Optional.of(kind));
  }
}
