package dev.cryptoworker.keys;

import com.google.crypto.tink.InsecureSecretKeyAccess;
import com.google.crypto.tink.KeyStatus;
import com.google.crypto.tink.KeysetHandle;
import com.google.crypto.tink.RegistryConfiguration;
import com.google.crypto.tink.prf.HkdfPrfKey;
import com.google.crypto.tink.prf.HkdfPrfParameters;
import com.google.crypto.tink.prf.Prf;
import com.google.crypto.tink.prf.PrfConfig;
import com.google.crypto.tink.prf.PrfSet;
import com.google.crypto.tink.subtle.Hkdf;
import com.google.crypto.tink.util.Bytes;
import com.google.crypto.tink.util.SecretBytes;
import dev.cryptoworker.cryptobox.KeyRing;
import dev.cryptoworker.cryptobox.SecretKeyAccess;
import dev.cryptoworker.cryptobox.SecretKeyBytes;
import dev.cryptoworker.cryptobox.VersionedKey;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** Derives column keys from the HKDF-PRF root keys of a Tink keyset. */
final class PrfSetKeyProvider implements KeyProvider {
  static final byte[] HKDF_SALT = "cryptoworker-hkdf-salt-v1".getBytes(StandardCharsets.UTF_8);

  static {
    try {
      // Tink 1.x needs its PRF key types registered before keysets of them can be built or parsed.
      PrfConfig.register();
    } catch (GeneralSecurityException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  /** Registers Tink's PRF key types (this class's initializer does it; calling this runs it). */
  static void registerKeyTypes() {}

  private final PrfSet prfs;
  /** Enabled key ids in keyset order (rotation appends), which PrfSet's map does not keep. */
  private final List<Integer> keysetOrder;
  /** Rings by their HKDF info: unambiguous, where a scope's toString() is not (a family may hold ", column="). */
  private final Map<ByteBuffer, KeyRing> cache = new ConcurrentHashMap<>();

  private PrfSetKeyProvider(PrfSet prfs, List<Integer> keysetOrder) {
    this.prfs = prfs;
    this.keysetOrder = List.copyOf(keysetOrder);
  }

  static HkdfPrfParameters rootKeyParameters() throws GeneralSecurityException {
    return HkdfPrfParameters.builder()
        .setKeySizeBytes(32)
        .setHashType(HkdfPrfParameters.HashType.SHA256)
        .setSalt(Bytes.copyFrom(HKDF_SALT))
        .build();
  }

  static KeyProvider fromMasterKey(byte[] key32) {
    if (key32 == null || key32.length != 32) {
      throw new IllegalArgumentException(
          "master key must be 32 bytes, got " + (key32 == null ? "null" : key32.length));
    }
    try {
      HkdfPrfKey root =
          HkdfPrfKey.builder()
              .setParameters(rootKeyParameters())
              .setKeyBytes(SecretBytes.copyFrom(key32, InsecureSecretKeyAccess.get()))
              .build();
      // The id is public (it is written into ciphertexts) and derived from the key, so the same
      // master key always gets the same id and a wrong master key is reported as "unknown key id".
      byte[] idBytes =
          Hkdf.computeHkdf(
              "HMACSHA256",
              key32,
              HKDF_SALT,
              "cryptoworker-master-key-id".getBytes(StandardCharsets.UTF_8),
              4);
      KeysetHandle handle =
          KeysetHandle.newBuilder()
              .addEntry(
                  KeysetHandle.importKey(root)
                      .withFixedId(ByteBuffer.wrap(idBytes).getInt())
                      .makePrimary())
              .build();
      return fromKeyset(handle);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("cannot build key provider from master key", e);
    }
  }

  static KeyProvider fromKeyset(KeysetHandle handle) throws GeneralSecurityException {
    List<Integer> order = new ArrayList<>();
    for (int i = 0; i < handle.size(); i++) {
      KeysetHandle.Entry entry = handle.getAt(i);
      if (entry.getStatus() != KeyStatus.ENABLED) {
        continue;
      }
      if (!(entry.getKey() instanceof HkdfPrfKey)) {
        throw new GeneralSecurityException(
            "keyset key " + Integer.toUnsignedString(entry.getId()) + " is a "
                + entry.getKey().getClass().getSimpleName()
                + "; CryptoWorker keysets hold HKDF-PRF keys only");
      }
      order.add(entry.getId());
    }
    return new PrfSetKeyProvider(handle.getPrimitive(RegistryConfiguration.get(), PrfSet.class), order);
  }

  @Override
  public KeyRing keyRing(KeyScope scope, int keyLengthBytes) throws GeneralSecurityException {
    if (keyLengthBytes < 16 || keyLengthBytes > 64) {
      throw new IllegalArgumentException("key length must be 16..64 bytes: " + keyLengthBytes);
    }
    ByteBuffer cacheKey = ByteBuffer.wrap(scope.derivationInfo(keyLengthBytes));
    KeyRing ring = cache.get(cacheKey);
    if (ring == null) {
      ring = derive(scope, keyLengthBytes);
      cache.putIfAbsent(cacheKey, ring);
    }
    return ring;
  }

  private KeyRing derive(KeyScope scope, int keyLengthBytes) throws GeneralSecurityException {
    byte[] info = scope.derivationInfo(keyLengthBytes);
    List<VersionedKey> keys = new ArrayList<>();
    VersionedKey primary = null;
    Map<Integer, Prf> byId = prfs.getPrfs();
    for (int id : keysetOrder) {
      byte[] material = byId.get(id).compute(info, keyLengthBytes);
      VersionedKey key =
          new VersionedKey(id, SecretKeyBytes.copyOf(material, SecretKeyAccess.insecure()));
      Arrays.fill(material, (byte) 0);
      keys.add(key);
      if (id == prfs.getPrimaryId()) {
        primary = key;
      }
    }
    if (primary == null) {
      throw new GeneralSecurityException("keyset has no enabled primary key");
    }
    return new KeyRing(primary, keys);
  }
}
