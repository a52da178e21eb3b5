package dev.cryptoworker.client.plugin;

import dev.cryptoworker.cryptobox.BoxContext;
import dev.cryptoworker.cryptobox.BoxKind;
import dev.cryptoworker.cryptobox.BoxProvider;
import dev.cryptoworker.cryptobox.BoxRules;
import dev.cryptoworker.cryptobox.BoxTraits;
import dev.cryptoworker.cryptobox.CryptoBox;
import dev.cryptoworker.cryptobox.std.RandomizedBoxProvider;
import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;
import java.util.Arrays;

/**
 * A box kind this repository does not ship, plugged in as a module would: STD over values padded
 * to 32-byte blocks, so stored lengths tell only the block count. Registered by one line in the
 * test resources' {@code META-INF/services/dev.cryptoworker.cryptobox.BoxProvider}.
 */
public final class PaddedBoxProvider implements BoxProvider {
  public static final BoxKind PADDED = BoxKind.of("PADDED");
  static final int BLOCK = 32;

  private final BoxProvider std = new RandomizedBoxProvider();

  @Override
  public BoxKind kind() {
    return PADDED;
  }

  @Override
  public BoxTraits traits() {
    return BoxTraits.keyed(false);
  }

  @Override
  public BoxRules rules() {
    return use -> "the value's length in 32-byte blocks; integrity as STD";
  }

  @Override
  public CryptoBox create(BoxContext context) throws GeneralSecurityException {
    return new PaddedBox(std.create(context));
  }

  private record PaddedBox(CryptoBox std) implements CryptoBox {
    @Override
    public BoxKind kind() {
      return PADDED;
    }

    @Override
    public byte[] encrypt(byte[] plaintext, byte[] associatedData) throws GeneralSecurityException {
      int blocks = (Integer.BYTES + plaintext.length + BLOCK - 1) / BLOCK;
      ByteBuffer padded = ByteBuffer.allocate(blocks * BLOCK).putInt(plaintext.length).put(plaintext);
      return std.encrypt(padded.array(), associatedData);
    }

    @Override
    public byte[] decrypt(byte[] ciphertext, byte[] associatedData) throws GeneralSecurityException {
      ByteBuffer padded = ByteBuffer.wrap(std.decrypt(ciphertext, associatedData));
      int length = padded.remaining() >= Integer.BYTES ? padded.getInt() : -1;
      if (length < 0 || length > padded.remaining()) {
        throw new GeneralSecurityException("PADDED: the padded value's length field is out of range");
      }
      return Arrays.copyOfRange(padded.array(), Integer.BYTES, Integer.BYTES + length);
    }
  }
}
