package dev.cryptoworker.client.codec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cryptoworker.client.CellDecodingException;
import dev.cryptoworker.client.SecureFixture;
import dev.cryptoworker.client.SecureTable;
import dev.cryptoworker.cryptobox.AssociatedData;
import dev.cryptoworker.cryptobox.BoxKind;
import dev.cryptoworker.cryptobox.CryptoBox;
import dev.cryptoworker.cryptobox.KeyIdPrefix;
import dev.cryptoworker.cryptobox.ashe.AsheBox;
import dev.cryptoworker.cryptobox.ashe.AsheCell;
import dev.cryptoworker.cryptobox.det.DeterministicBox;
import dev.cryptoworker.cryptobox.ope.OrderPreservingBox;
import dev.cryptoworker.cryptobox.std.RandomizedBox;
import dev.cryptoworker.keys.KeyProvider;
import dev.cryptoworker.keys.KeyScope;
import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * Random and mutated ciphertexts through the decoder of every box: the only outcome besides a
 * value is the documented GeneralSecurityException (which SecureTable reports as
 * CellDecodingException); no other exception, no hang, no huge allocation.
 */
class BoxDecoderFuzzTest {
  private static final int INPUTS_PER_BOX = 4000;

  @Test
  void everyDecoderFailsOnlyWithTheDocumentedException() throws Exception {
    KeyProvider keys = SecureFixture.randomKeys();
    AtomicLong ids = new AtomicLong();
    Map<String, CryptoBox> boxes = new LinkedHashMap<>();
    Map<String, byte[]> samples = new LinkedHashMap<>();
    boxes.put("STD", RandomizedBox.create(keys.keyRing(KeyScope.column("t", "f", "std", BoxKind.STD), 32)));
    samples.put("STD", "Maria Santos, Rua Augusta 12".getBytes());
    boxes.put("DET", DeterministicBox.create(keys.keyRing(KeyScope.column("t", "f", "det", BoxKind.DET), 64)));
    samples.put("DET", "PT-12345678".getBytes());
    boxes.put("OPE long", OrderPreservingBox.create(keys.keyRing(KeyScope.column("t", "f", "l", BoxKind.OPE), 48),
        OrderPreservingBox.Encoding.LONG, null));
    samples.put("OPE long", ByteBuffer.allocate(8).putLong(-42).array());
    boxes.put("OPE string", OrderPreservingBox.create(keys.keyRing(KeyScope.column("t", "f", "s", BoxKind.OPE), 48),
        OrderPreservingBox.Encoding.BYTES, null));
    samples.put("OPE string", "Silva Santos Sousa".getBytes());
    boxes.put("OPE date+companion", OrderPreservingBox.create(keys.keyRing(KeyScope.column("t", "f", "d", BoxKind.OPE), 48),
        OrderPreservingBox.Encoding.DATE, RandomizedBox.create(keys.keyRing(KeyScope.column("t", "f", "dc", BoxKind.STD), 32))));
    samples.put("OPE date+companion", "20190301101530".getBytes());
    boxes.put("ASHE", AsheBox.create(keys.keyRing(KeyScope.column("t", "f", "a", BoxKind.ASHE), 32), ids::incrementAndGet, false));
    samples.put("ASHE", ByteBuffer.allocate(8).putLong(1234).array());

    byte[] ad = AssociatedData.of("value", "t".getBytes(), "row".getBytes());
    SplittableRandom r = new SplittableRandom(2026);
    for (Map.Entry<String, CryptoBox> e : boxes.entrySet()) {
      CryptoBox box = e.getValue();
      byte[] valid = box.encrypt(samples.get(e.getKey()), ad);
      int[] rejected = new int[1];
      List<String> acceptedMalformed = new ArrayList<>();
      assertTimeoutPreemptively(Duration.ofSeconds(60), () -> {
        for (int i = 0; i < INPUTS_PER_BOX; i++) {
          byte[] input = mutate(r, valid, i);
          try {
            box.decrypt(input, ad);
            // ASHE is not authenticated: altered values decrypt (documented), but only well-formed ones.
            if ((input.length != AsheCell.LEASED_LENGTH && input.length != AsheCell.LEGACY_LENGTH)
                || input[0] != KeyIdPrefix.FORMAT) {
              acceptedMalformed.add(input.length + " bytes");
            }
          } catch (GeneralSecurityException expected) {
            rejected[0]++;
          }
        }
      }, e.getKey());
      if (e.getKey().equals("ASHE")) {
        assertEquals(List.of(), acceptedMalformed, "ASHE decoded inputs that are not ASHE cells");
        // Random bytes, truncations and extensions (3 of 5 mutations) are never 21 or 29 bytes with our format byte.
        assertTrue(rejected[0] >= INPUTS_PER_BOX * 0.55, "ASHE rejected only " + rejected[0]);
      } else {
        assertTrue(rejected[0] > INPUTS_PER_BOX * 0.95, e.getKey() + " rejected only " + rejected[0]);
      }
    }
  }

  /** Random bytes, truncations, extensions, bit flips and byte swaps of a valid ciphertext. */
  static byte[] mutate(SplittableRandom r, byte[] valid, int i) {
    switch (i % 5) {
      case 0: {
        byte[] b = new byte[r.nextInt(80)];
        r.nextBytes(b);
        if (b.length > 0 && r.nextBoolean()) {
          b[0] = 1; // looks like our format byte
        }
        return b;
      }
      case 1:
        return Arrays.copyOf(valid, r.nextInt(valid.length + 1));
      case 2: {
        byte[] b = Arrays.copyOf(valid, valid.length + 1 + r.nextInt(40));
        return b;
      }
      case 3: {
        byte[] b = valid.clone();
        int flips = 1 + r.nextInt(4);
        for (int k = 0; k < flips; k++) {
          int bit = r.nextInt(b.length * 8);
          b[bit / 8] ^= (byte) (1 << (bit % 8));
        }
        return b;
      }
      default: {
        byte[] b = valid.clone();
        int x = r.nextInt(b.length);
        int y = r.nextInt(b.length);
        byte t = b[x];
        b[x] = b[y];
        b[y] = t;
        b[r.nextInt(b.length)] = (byte) r.nextInt(256);
        return b;
      }
    }
  }
}
