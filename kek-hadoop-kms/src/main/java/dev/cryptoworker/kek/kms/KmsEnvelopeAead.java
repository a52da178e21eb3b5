package dev.cryptoworker.kek.kms;

import com.google.crypto.tink.Aead;
import com.google.crypto.tink.subtle.AesGcmJce;
import java.io.IOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.Arrays;
import org.apache.hadoop.crypto.key.KeyProvider.KeyVersion;
import org.apache.hadoop.crypto.key.KeyProviderCryptoExtension;
import org.apache.hadoop.crypto.key.KeyProviderCryptoExtension.EncryptedKeyVersion;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.security.authorize.AuthorizationException;

/**
 * Envelope encryption under a Hadoop KMS key: each {@link #encrypt} asks the KMS for a fresh data key
 * encrypted under the KMS key ({@code generateEncryptedKey}), has the KMS decrypt it ({@code
 * decryptEncryptedKey}), seals the plaintext with it in AES-GCM (Tink), and keeps only the encrypted
 * data key beside the ciphertext; {@link #decrypt} asks the KMS to decrypt that data key again. The
 * KMS key never leaves the KMS; a data key lives in this JVM for one call.
 *
 * <p>Layout: {@code 0x01}, then the KMS key version's name, the data key's IV and its encrypted
 * material (each a 2-byte length and the bytes), then Tink's AES-GCM ciphertext of the plaintext
 * under the data key with the caller's associated data.
 */
final class KmsEnvelopeAead implements Aead {
  private static final byte VERSION = 1;

  private final KeyProviderCryptoExtension kms;
  private final URI provider;
  private final String keyName;

  KmsEnvelopeAead(KeyProviderCryptoExtension kms, URI provider, String keyName) {
    this.kms = kms;
    this.provider = provider;
    this.keyName = keyName;
  }

  @Override
  public byte[] encrypt(byte[] plaintext, byte[] associatedData) throws GeneralSecurityException {
    EncryptedKeyVersion encrypted = call("generate a data key with", () -> kms.generateEncryptedKey(keyName));
    byte[] sealed = withDataKey(encrypted, dataKey -> dataKey.encrypt(plaintext, associatedData));
    byte[] version = encrypted.getEncryptionKeyVersionName().getBytes(StandardCharsets.UTF_8);
    byte[] iv = encrypted.getEncryptedKeyIv();
    byte[] material = encrypted.getEncryptedKeyVersion().getMaterial();
    ByteBuffer out = ByteBuffer.allocate(1 + 6 + version.length + iv.length + material.length + sealed.length);
    out.put(VERSION);
    for (byte[] field : new byte[][] {version, iv, material}) {
      out.putShort((short) field.length).put(field);
    }
    return out.put(sealed).array();
  }

  @Override
  public byte[] decrypt(byte[] ciphertext, byte[] associatedData) throws GeneralSecurityException {
    ByteBuffer in = ByteBuffer.wrap(ciphertext);
    if (!in.hasRemaining() || in.get() != VERSION) {
      throw new GeneralSecurityException("not a Hadoop KMS envelope of this version");
    }
    String version = new String(field(in), StandardCharsets.UTF_8);
    byte[] iv = field(in);
    byte[] material = field(in);
    byte[] sealed = Arrays.copyOfRange(ciphertext, in.position(), ciphertext.length);
    EncryptedKeyVersion encrypted = EncryptedKeyVersion.createForDecryption(keyName, version, iv, material);
    return withDataKey(encrypted, dataKey -> dataKey.decrypt(sealed, associatedData));
  }

  private static byte[] field(ByteBuffer in) throws GeneralSecurityException {
    if (in.remaining() < 2) {
      throw new GeneralSecurityException("Hadoop KMS envelope truncated");
    }
    int length = Short.toUnsignedInt(in.getShort());
    if (in.remaining() < length) {
      throw new GeneralSecurityException("Hadoop KMS envelope truncated");
    }
    byte[] field = new byte[length];
    in.get(field);
    return field;
  }

  private interface DataKeyUse {
    byte[] apply(Aead dataKey) throws GeneralSecurityException;
  }

  /** Has the KMS decrypt the data key, uses it once and wipes it. */
  private byte[] withDataKey(EncryptedKeyVersion encrypted, DataKeyUse use) throws GeneralSecurityException {
    KeyVersion plain = call("decrypt a data key with", () -> kms.decryptEncryptedKey(encrypted));
    byte[] key = plain.getMaterial();
    try {
      return use.apply(new AesGcmJce(key));
    } finally {
      Arrays.fill(key, (byte) 0);
    }
  }

  private interface KmsCall<T> {
    T call() throws IOException, GeneralSecurityException;
  }

  /** Runs one KMS call, turning its failures into messages naming the KMS, the key and the user. */
  private <T> T call(String what, KmsCall<T> call) throws GeneralSecurityException {
    try {
      return call.call();
    } catch (IOException | GeneralSecurityException | RuntimeException e) {
      String denied = denial(e);
      if (denied != null) {
        throw new GeneralSecurityException("Hadoop KMS " + provider + " refused user " + user() + " to " + what
            + " key " + keyName + ": " + denied, e);
      }
      throw new GeneralSecurityException("cannot " + what + " key " + keyName + " of Hadoop KMS " + provider
          + " as user " + user() + ": " + reasons(e), e);
    }
  }

  /**
   * The KMS's refusal among {@code e}'s causes, or null: an {@link AuthorizationException}, or the
   * IOException that Hadoop's key prefetch thread makes of one, which keeps only its text.
   */
  private static String denial(Throwable e) {
    String flattened = AuthorizationException.class.getName() + ": ";
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof AuthorizationException) {
        return t.getMessage();
      }
      if (t.getCause() == null && t.getMessage() != null && t.getMessage().startsWith(flattened)) {
        return t.getMessage().substring(flattened.length());
      }
    }
    return null;
  }

  /** The messages of {@code e}'s causes, leaving out wrappers that only repeat their cause. */
  private static String reasons(Throwable e) {
    StringBuilder s = new StringBuilder();
    for (Throwable t = e; t != null; t = t.getCause()) {
      boolean wrapper = t.getCause() != null && String.valueOf(t.getMessage()).equals(t.getCause().toString());
      if (!wrapper) {
        s.append(s.length() == 0 ? "" : "; ").append(t.getMessage() != null ? t.getMessage() : t.toString());
      }
    }
    return s.toString();
  }

  private static String user() {
    try {
      return UserGroupInformation.getCurrentUser().getShortUserName();
    } catch (IOException e) {
      return "(unknown)";
    }
  }
}
