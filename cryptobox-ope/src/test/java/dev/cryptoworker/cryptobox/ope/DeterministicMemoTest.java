package dev.cryptoworker.cryptobox.ope;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cryptoworker.cryptobox.AssociatedData;
import dev.cryptoworker.cryptobox.KeyRing;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class DeterministicMemoTest {
  @Test
  void remembersOnlyExactInputsAndHandsOutCopies() {
    DeterministicMemo memo = new DeterministicMemo(64);
    byte[] input = {1, 2, 3, 4};
    memo.put(input, 3, new byte[] {9});
    assertArrayEquals(new byte[] {9}, memo.get(new byte[] {1, 2, 3}, 3));
    assertArrayEquals(new byte[] {9}, memo.get(new byte[] {1, 2, 3, 7}, 3), "only the given length counts");
    assertNull(memo.get(new byte[] {1, 2, 3, 4}, 4));
    assertNull(memo.get(new byte[] {1, 2}, 2));
    memo.get(input, 3)[0] = 0;
    input[0] = 5;
    assertArrayEquals(new byte[] {9}, memo.get(new byte[] {1, 2, 3}, 3), "callers cannot alter what is remembered");
  }

  @Test
  void isBoundedAndCollisionsOnlyEvict() {
    DeterministicMemo memo = new DeterministicMemo(16);
    for (int i = 0; i < 1000; i++) {
      memo.put(new byte[] {(byte) i, (byte) (i >> 8)}, 2, new byte[] {(byte) (i * 7)});
    }
    int hits = 0;
    for (int i = 0; i < 1000; i++) {
      byte[] out = memo.get(new byte[] {(byte) i, (byte) (i >> 8)}, 2);
      if (out != null) {
        hits++;
        assertEquals((byte) (i * 7), out[0], "a hit is always the value put for that input");
      }
    }
    assertTrue(hits > 0 && hits <= 16, "hits " + hits);
    assertNull(new DeterministicMemo(0).get(new byte[1], 1));
    assertThrows(IllegalArgumentException.class, () -> new DeterministicMemo(-1));
  }

  /** With and without the memo the box gives the same bytes, and still rejects altered ciphertexts. */
  @Test
  void boxResultsAreTheSameWithTheMemo() throws Exception {
    KeyRing keys = OrderPreservingBoxTest.ring(3, OrderPreservingBox.KEY_LENGTH_BYTES);
    OrderPreservingBox remembering = OrderPreservingBox.create(keys, OrderPreservingBox.Encoding.BYTES, null, 8);
    OrderPreservingBox computing = OrderPreservingBox.create(keys, OrderPreservingBox.Encoding.BYTES, null, 0);
    byte[] ad = AssociatedData.of("value", "t".getBytes(StandardCharsets.UTF_8));
    List<byte[]> values = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      values.add(("A" + (i % 12) + "-" + "x".repeat(i % 9)).getBytes(StandardCharsets.UTF_8));
    }
    for (int round = 0; round < 3; round++) {
      for (byte[] v : values) {
        byte[] c = remembering.encrypt(v, ad);
        assertArrayEquals(computing.encrypt(v, ad), c);
        assertArrayEquals(v, remembering.decrypt(c, ad));
        byte[] altered = c.clone();
        altered[altered.length - 1] ^= 1;
        assertThrows(GeneralSecurityException.class, () -> remembering.decrypt(altered, ad));
        assertNotNull(remembering.decrypt(c, ad));
      }
    }
  }
}
