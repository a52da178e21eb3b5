package dev.cryptoworker.client;

import dev.cryptoworker.cryptobox.BoxKind;
import dev.cryptoworker.schema.ColumnPolicy;
import dev.cryptoworker.schema.FamilySchema;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Naming of SPLASHE's stored columns: dimension {@code d} with values v1..vk is stored as ASHE 0/1
 * indicators {@code d NUL v}, and a measure {@code s} it splays as {@code s} (the total) plus
 * {@code s NUL v} (the value where the row's dimension is v, else 0). Every row that has the
 * dimension stores all k indicators and all k splayed cells, whatever its value.
 */
final class SplayedColumns {
  static final byte SEPARATOR = 0;

  private SplayedColumns() {}

  static byte[] qualifier(String base, String value) {
    byte[] b = base.getBytes(StandardCharsets.UTF_8);
    byte[] v = value.getBytes(StandardCharsets.UTF_8);
    byte[] out = Arrays.copyOf(b, b.length + 1 + v.length);
    out[b.length] = SEPARATOR;
    System.arraycopy(v, 0, out, b.length + 1, v.length);
    return out;
  }

  /** The base column of a stored splayed qualifier, or null if it is not one. */
  static String base(byte[] qualifier) {
    for (int i = 0; i < qualifier.length; i++) {
      if (qualifier[i] == SEPARATOR) {
        return new String(qualifier, 0, i, StandardCharsets.UTF_8);
      }
    }
    return null;
  }

  /** The value part of a stored splayed qualifier. */
  static String value(byte[] qualifier) {
    for (int i = 0; i < qualifier.length; i++) {
      if (qualifier[i] == SEPARATOR) {
        return new String(qualifier, i + 1, qualifier.length - i - 1, StandardCharsets.UTF_8);
      }
    }
    throw new IllegalArgumentException("not a splayed qualifier");
  }

  /** Whether {@code qualifier} names a SPLASHE dimension of {@code family}. */
  static boolean isDimension(FamilySchema family, String qualifier) {
    return family.isListed(qualifier) && family.policyFor(qualifier).box() == BoxKind.SPLASHE;
  }

  /** The dimension policy splaying {@code measure}, or null. */
  static ColumnPolicy dimensionOf(FamilySchema family, String measure) {
    return family.splayedBy(measure).map(family::policyFor).orElse(null);
  }
}
