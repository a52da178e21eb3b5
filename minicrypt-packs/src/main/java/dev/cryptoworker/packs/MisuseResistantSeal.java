package dev.cryptoworker.packs;

import dev.cryptoworker.cryptobox.AssociatedData;
import dev.cryptoworker.cryptobox.BoxKind;
import dev.cryptoworker.cryptobox.CryptoBox;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Arrays;

/**
 * Seals packs, entries and dictionaries with no nonce budget: a deterministic, nonce-misuse
 * resistant AEAD (AES-SIV, the DET box) over the caller's associated data and 16 fresh random bytes
 * appended to the ciphertext, so equal inputs still seal differently. A table's pack key is sealed
 * with on every write and retry; AES-GCM with random 96-bit nonces must stay under 2^32 seals per
 * key (at 5,000 seals a second: 10 days), where AES-SIV's bound is the birthday bound of its
 * 128-bit synthetic IV: 2^48 seals keep the adversary's advantage under 2^-32. A repeated random
 * suffix (2^-128 per pair) would only show that two seals hold equal bytes.
 *
 * <p>Stored form: the deterministic box's ciphertext (key header first, as every box's), then the 16
 * random bytes. Units sealed before (AES-GCM, the {@code legacy} box) still open: a unit that does
 * not open in this form is opened in that one.
 */
public final class MisuseResistantSeal implements CryptoBox {
  static final int RANDOM_BYTES = 16;
  private static final ThreadLocal<SecureRandom> RANDOM = ThreadLocal.withInitial(SecureRandom::new);

  private final CryptoBox deterministic;
  private final CryptoBox legacy;

  private MisuseResistantSeal(CryptoBox deterministic, CryptoBox legacy) {
    this.deterministic = deterministic;
    this.legacy = legacy;
  }

  /**
   * Seals with {@code deterministic} (a DET box, under its own keys) and opens what {@code legacy}
   * sealed before.
   */
  public static MisuseResistantSeal of(CryptoBox deterministic, CryptoBox legacy) {
    return new MisuseResistantSeal(deterministic, legacy);
  }

  @Override
  public BoxKind kind() {
    return deterministic.kind();
  }

  @Override
  public byte[] encrypt(byte[] plaintext, byte[] associatedData) throws GeneralSecurityException {
    byte[] random = new byte[RANDOM_BYTES];
    RANDOM.get().nextBytes(random);
    byte[] sealed = deterministic.encrypt(plaintext, bound(associatedData, random));
    byte[] out = Arrays.copyOf(sealed, sealed.length + RANDOM_BYTES);
    System.arraycopy(random, 0, out, sealed.length, RANDOM_BYTES);
    return out;
  }

  @Override
  public byte[] decrypt(byte[] ciphertext, byte[] associatedData) throws GeneralSecurityException {
    if (ciphertext.length > RANDOM_BYTES) {
      int body = ciphertext.length - RANDOM_BYTES;
      try {
        return deterministic.decrypt(Arrays.copyOf(ciphertext, body),
            bound(associatedData, Arrays.copyOfRange(ciphertext, body, ciphertext.length)));
      } catch (GeneralSecurityException notThisForm) {
        // sealed before misuse-resistant sealing, or altered: the legacy box decides
      }
    }
    return legacy.decrypt(ciphertext, associatedData);
  }

  private static byte[] bound(byte[] associatedData, byte[] random) {
    return AssociatedData.of("cryptoworker-misuse-resistant-seal", associatedData == null ? new byte[0] : associatedData,
        random);
  }
}
