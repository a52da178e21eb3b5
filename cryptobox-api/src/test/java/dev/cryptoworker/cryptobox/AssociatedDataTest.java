package dev.cryptoworker.cryptobox;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

class AssociatedDataTest {
  @Test
  void encodesPurposeAndPartsWithLengthPrefixes() {
    assertArrayEquals(
        new byte[] {0, 0, 0, 3, 'r', 'o', 'w', 0, 0, 0, 2, 't', '1', 0, 0, 0, 0},
        AssociatedData.of("row", "t1".getBytes(), new byte[0]));
  }

  @Test
  void splittingPartsDifferentlyNeverCollides() {
    byte[] a = AssociatedData.of("value", "ab".getBytes(), "c".getBytes());
    byte[] b = AssociatedData.of("value", "a".getBytes(), "bc".getBytes());
    byte[] c = AssociatedData.of("valu", "eab".getBytes(), "c".getBytes());
    assertFalse(Arrays.equals(a, b));
    assertFalse(Arrays.equals(a, c));
  }
}
