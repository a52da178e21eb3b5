package dev.cryptoworker.packs;

import dev.cryptoworker.cryptobox.BoxKind;
import dev.cryptoworker.cryptobox.CryptoBox;
import dev.cryptoworker.cryptobox.RandomNonces;
import java.security.GeneralSecurityException;
import java.util.Arrays;

/**
 * Seals packs, entries and dictionaries with no nonce budget: a deterministic, nonce-misuse
 * resistant AEAD (AES-SIV, the DET box) over 16 fresh random bytes followed by the plaintext, so
 * equal inputs still seal differently (randomized SIV). A table's pack key seals on every write and
 * retry; AES-GCM with random 96-bit nonces must stay under 2^32 seals per key (at 5,000 seals a
 * second: 10 days), where AES-SIV's bound is the birthday bound of its 128-bit synthetic IV: 2^48
 * seals keep the adversary's advantage under 2^-32. A repeated random prefix (2^-128 per pair)
 * would only show that two seals hold equal bytes. The prefix also keeps every sealed plaintext
 * longer than the DET box's one-block form (values of at most 8 bytes), so SIV's full tag applies.
 *
 * <p>Stored form: the deterministic box's ciphertext (its key header first, as every box's). Units
 * sealed before (AES-GCM, the {@code legacy} box) still open: a unit that does not open in this
 * form is opened in that one. Clients of earlier versions cannot open units sealed in this form:
 * upgrade every client of a PACKED table before any writes with this version.
 */
public final class MisuseResistantSeal implements CryptoBox {
  static final int RANDOM_BYTES = 16;
  /** The birthday bound of SIV's 128-bit synthetic IV that keeps the advantage under 2^-32. */
  static final long SEAL_BUDGET = 1L << 48;

  private final CryptoBox deterministic;
  private final CryptoBox legacy;
  private final RandomNonces prefixes = RandomNonces.withBudget(SEAL_BUDGET, "the pack seal key");

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
    byte[] randomized = new byte[RANDOM_BYTES + plaintext.length];
    prefixes.fill(randomized, 0, RANDOM_BYTES);
    System.arraycopy(plaintext, 0, randomized, RANDOM_BYTES, plaintext.length);
    try {
      return deterministic.encrypt(randomized, associatedData);
    } finally {
      Arrays.fill(randomized, (byte) 0);
    }
  }

  @Override
  public byte[] decrypt(byte[] ciphertext, byte[] associatedData) throws GeneralSecurityException {
    byte[] randomized;
    try {
      randomized = deterministic.decrypt(ciphertext, associatedData);
    } catch (GeneralSecurityException notThisForm) {
      // sealed before misuse-resistant sealing, or altered: the legacy box decides
      return legacy.decrypt(ciphertext, associatedData);
    }
    if (randomized.length < RANDOM_BYTES) {
      throw new GeneralSecurityException("a sealed unit shorter than its random prefix");
    }
    return Arrays.copyOfRange(randomized, RANDOM_BYTES, randomized.length);
  }
}
