package dev.cryptoworker.sharing;

import dev.cryptoworker.cryptobox.CryptoBox;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.Map;
import javax.crypto.Cipher;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * The computational schemes: the value becomes a package that reveals nothing without all of it
 * (AONT-RS) or without a key (AES-RS), and the package is dispersed with systematic Reed-Solomon
 * (n, n - r): shares of 1/(n - r) of the package, the least storage for r losses.
 *
 * <ul>
 *   <li>AONT-RS (Resch and Plank): a fresh random AES-256 key K per value; package = AES-CTR_K(value
 *       || 16 zero bytes) || (K xor SHA-256(ciphertext)). Fewer than n - r shares miss part of the
 *       package and so the key. The zero canary detects a corrupted package on reading.
 *   <li>AES-RS: package = the authenticated box's ciphertext (AES-GCM under a key from the key
 *       provider, bound to the associated data).
 * </ul>
 */
final class EncryptedDispersal extends CodedSharing {
  private static final ThreadLocal<AesCtrRandom> KEYS = ThreadLocal.withInitial(AesCtrRandom::new);
  private static final int KEY = 32;
  private static final int CANARY = 16;
  private static final IvParameterSpec ZERO_IV = new IvParameterSpec(new byte[16]);

  /** Value to package and back. */
  private interface Transform {
    byte[] wrap(byte[] value, byte[] associatedData) throws GeneralSecurityException;

    byte[] unwrap(byte[] pack, byte[] associatedData) throws GeneralSecurityException;
  }

  private final Transform transform;

  private EncryptedDispersal(SharingKind kind, SharingParameters parameters, LinearCode code, Transform transform) {
    super(kind, parameters, code);
    this.transform = transform;
  }

  static EncryptedDispersal allOrNothing(SharingParameters parameters, LinearCode code) {
    return new EncryptedDispersal(SharingKind.AONT_RS, parameters, code, new Transform() {
      @Override
      public byte[] wrap(byte[] value, byte[] associatedData) throws GeneralSecurityException {
        byte[] key = new byte[KEY];
        KEYS.get().nextBytes(key, 0, KEY);
        byte[] pack = new byte[value.length + CANARY + KEY];
        System.arraycopy(value, 0, pack, 0, value.length);
        int body = value.length + CANARY;
        CounterModeSlices.update(ctr(key), pack, 0, body, pack, 0);
        byte[] hash = sha256(pack, body);
        for (int i = 0; i < KEY; i++) {
          pack[body + i] = (byte) (key[i] ^ hash[i]);
        }
        Arrays.fill(key, (byte) 0);
        return pack;
      }

      @Override
      public byte[] unwrap(byte[] pack, byte[] associatedData) throws GeneralSecurityException {
        int body = pack.length - KEY;
        if (body < CANARY) {
          throw new ShareDecodingException("AONT package of " + pack.length + " bytes is too short");
        }
        byte[] key = sha256(pack, body);
        for (int i = 0; i < KEY; i++) {
          key[i] ^= pack[body + i];
        }
        byte[] plain = new byte[body];
        CounterModeSlices.update(ctr(key), pack, 0, body, plain, 0);
        Arrays.fill(key, (byte) 0);
        for (int i = body - CANARY; i < body; i++) {
          if (plain[i] != 0) {
            throw new ShareDecodingException("AONT canary check failed: a share is corrupt (give more shares to"
                + " find which)");
          }
        }
        return Arrays.copyOf(plain, body - CANARY);
      }
    });
  }

  static EncryptedDispersal encrypted(SharingParameters parameters, LinearCode code, CryptoBox box) {
    return new EncryptedDispersal(SharingKind.AES_RS, parameters, code, new Transform() {
      @Override
      public byte[] wrap(byte[] value, byte[] associatedData) throws GeneralSecurityException {
        return box.encrypt(value, associatedData);
      }

      @Override
      public byte[] unwrap(byte[] pack, byte[] associatedData) throws GeneralSecurityException {
        try {
          return box.decrypt(pack, associatedData);
        } catch (GeneralSecurityException e) {
          throw new ShareDecodingException("the decoded ciphertext does not decrypt (" + e.getMessage()
              + "): a share is corrupt, or the key or associated data differ");
        }
      }
    });
  }

  private static Cipher ctr(byte[] key) throws GeneralSecurityException {
    Cipher c = Cipher.getInstance("AES/CTR/NoPadding");
    c.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(key, "AES"), ZERO_IV); // each key encrypts one package
    return c;
  }

  private static byte[] sha256(byte[] data, int length) throws GeneralSecurityException {
    MessageDigest d = MessageDigest.getInstance("SHA-256");
    d.update(data, 0, length);
    return d.digest();
  }

  @Override
  public byte[][] split(byte[] value, byte[] associatedData) throws GeneralSecurityException {
    return disperse(transform.wrap(value, associatedData));
  }

  @Override
  public Reconstruction join(Map<Integer, byte[]> shares, byte[] associatedData) throws ShareDecodingException {
    Reconstruction pack = gather(shares);
    try {
      return new Reconstruction(transform.unwrap(pack.value(), associatedData), pack.corruptShares());
    } catch (ShareDecodingException e) {
      throw e;
    } catch (GeneralSecurityException e) {
      throw new ShareDecodingException(kind() + ": " + e.getMessage());
    }
  }
}
