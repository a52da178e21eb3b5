package dev.cryptoworker.cryptobox;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.security.GeneralSecurityException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class SecretKeyBytesTest {
  private static final SecretKeyAccess ACCESS = SecretKeyAccess.insecure();
  private static final byte[] KEY = {1, 2, 3, 4, 5, 6, 7, 8};

  @Test
  void rawBytesNeedTheAccessToken() {
    assertThrows(NullPointerException.class, () -> SecretKeyBytes.copyOf(KEY, null));
    SecretKeyBytes key = SecretKeyBytes.copyOf(KEY, ACCESS);
    assertThrows(NullPointerException.class, () -> key.copyBytes(null));
    assertThrows(NullPointerException.class, () -> key.withCopy(null, k -> k.length));
    assertSame(ACCESS, SecretKeyAccess.insecure());
  }

  @Test
  void copiesInAndOut() {
    byte[] source = KEY.clone();
    SecretKeyBytes key = SecretKeyBytes.copyOf(source, ACCESS);
    source[0] = 99;
    byte[] out = key.copyBytes(ACCESS);
    assertArrayEquals(KEY, out);
    out[1] = 99;
    assertArrayEquals(KEY, key.copyBytes(ACCESS));
    assertEquals(KEY.length, key.length());
    assertTrue(key.equalsKey(SecretKeyBytes.copyOf(KEY, ACCESS)));
    assertFalse(key.toString().contains("1, 2"), key.toString());
  }

  @Test
  void withCopyWipesItsTemporaryAfterUse() throws Exception {
    SecretKeyBytes key = SecretKeyBytes.copyOf(KEY, ACCESS);
    List<byte[]> seen = new ArrayList<>();
    byte[] kept = key.withCopy(ACCESS, k -> {
      seen.add(k);
      assertArrayEquals(KEY, k);
      return k.clone();
    });
    assertArrayEquals(KEY, kept, "the primitive's own copy survives");
    assertTrue(TestKeys.isWiped(seen.get(0)), "the temporary is zeroed");
    assertArrayEquals(KEY, key.copyBytes(ACCESS), "the key itself is untouched");
  }

  @Test
  void withCopyWipesItsTemporaryWhenTheUseFails() {
    SecretKeyBytes key = SecretKeyBytes.copyOf(KEY, ACCESS);
    List<byte[]> seen = new ArrayList<>();
    assertThrows(GeneralSecurityException.class, () -> key.withCopy(ACCESS, k -> {
      seen.add(k);
      throw new GeneralSecurityException("bad key");
    }));
    assertNotNull(seen.get(0));
    assertTrue(TestKeys.isWiped(seen.get(0)));
  }

  @Test
  void destroyZeroesTheKey() {
    SecretKeyBytes key = SecretKeyBytes.copyOf(KEY, ACCESS);
    key.destroy();
    assertTrue(TestKeys.isWiped(key.copyBytes(ACCESS)));
    assertEquals(KEY.length, key.length());
    assertTrue(key.equalsKey(SecretKeyBytes.copyOf(new byte[KEY.length], ACCESS)));
  }
}
