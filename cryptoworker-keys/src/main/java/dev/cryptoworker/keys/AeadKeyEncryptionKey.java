package dev.cryptoworker.keys;

import com.google.crypto.tink.Aead;
import java.util.Objects;

/** {@link KeyEncryptionKey#of}: an AEAD and where its key is. */
record AeadKeyEncryptionKey(Aead aead, String description) implements KeyEncryptionKey {
  AeadKeyEncryptionKey {
    Objects.requireNonNull(aead, "aead");
    Objects.requireNonNull(description, "description");
  }

  @Override
  public String toString() {
    return "KeyEncryptionKey[" + description + "]";
  }
}
