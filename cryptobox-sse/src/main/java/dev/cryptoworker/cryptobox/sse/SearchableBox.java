package dev.cryptoworker.cryptobox.sse;

import com.google.crypto.tink.subtle.Hkdf;
import dev.cryptoworker.cryptobox.AssociatedData;
import dev.cryptoworker.cryptobox.BoxKind;
import dev.cryptoworker.cryptobox.CryptoBox;
import dev.cryptoworker.cryptobox.IndexedSearch;
import dev.cryptoworker.cryptobox.KeyRing;
import dev.cryptoworker.cryptobox.KeyedPrimitives;
import dev.cryptoworker.cryptobox.SecretKeyAccess;
import dev.cryptoworker.cryptobox.SecretKeyBytes;
import dev.cryptoworker.cryptobox.StoredFormat;
import dev.cryptoworker.cryptobox.ValueCondition;
import dev.cryptoworker.cryptobox.ValueIndex;
import dev.cryptoworker.cryptobox.VersionedKey;
import dev.cryptoworker.cryptobox.search.CounterTree;
import dev.cryptoworker.cryptobox.std.RandomizedBox;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * SSE: values stored randomized (STD's AES-256-GCM, XAES-256-GCM from stored format 5) and found through a per-value encrypted index
 * ({@link ValueIndex}: a masked counter and a {@link CounterTree} whose leaves key the entries).
 *
 * <p>Each key of the ring gives two independent subkeys, HKDF-SHA256 with distinct infos: the
 * value key, under which {@link RandomizedBox} encrypts (same key ids, so ciphertexts carry the
 * 5-byte key-id prefix; 33 bytes of overhead, 45 from format 5), and the index key, an HMAC-SHA256
 * key from which {@link #indexesOf} derives a value's counter name, counter mask and tree root (in
 * format 5 an HMAC-SHA512 key, from which it derives those and entry 0's key in one call).
 *
 * <p><b>Leaks:</b> at rest, the values' lengths and the number of index entries; per search, its
 * tokens, how many entries the value ever had, and which rows match; per insert, which counter
 * moved. See the module's README.
 */
public final class SearchableBox implements CryptoBox, IndexedSearch {
  /** Length of the keys this box takes from a {@link KeyRing}. */
  public static final int KEY_LENGTH_BYTES = 32;
  /** Length of a counter's name. */
  public static final int COUNTER_NAME_BYTES = 16;

  static final byte[] VALUE_KEY_INFO = "cryptoworker/sse/value".getBytes(StandardCharsets.UTF_8);
  static final byte[] INDEX_KEY_INFO = "cryptoworker/sse/index".getBytes(StandardCharsets.UTF_8);
  /** Format 5's index subkey, for the one HMAC-SHA512 per value. */
  static final byte[] WIDE_INDEX_KEY_INFO = "cryptoworker/sse/index-sha512".getBytes(StandardCharsets.UTF_8);
  private static final String HKDF_MAC = "HMACSHA256";
  private static final String INDEX_MAC = "HmacSHA256";
  private static final String WIDE_INDEX_MAC = "HmacSHA512";
  /** The ring's keys are uniformly random already, so HKDF needs no salt (RFC 5869, section 3.1). */
  private static final byte[] NO_SALT = new byte[0];
  private static final int SUBKEY_BYTES = 32;

  private final RandomizedBox values;
  private final KeyedPrimitives<IndexKey> indexKeys;
  private final CounterTree tree;

  private SearchableBox(KeyRing keys, CounterTree tree, boolean oneMac, boolean extendedNonces, boolean lanes,
      boolean logs) throws GeneralSecurityException {
    this.tree = Objects.requireNonNull(tree, "tree");
    // First, so that a key of the wrong length is refused in this box's name.
    this.indexKeys = KeyedPrimitives.create(keys, "SSE", KEY_LENGTH_BYTES, 0, key -> new IndexKey(key, oneMac, lanes, logs));
    this.values = valueBox(keys, extendedNonces);
  }

  /**
   * A box in the form of stored formats 1 to 4, using the primary key of {@code keys} for writes and
   * any of them for reads, whose index entries are keyed by the leaves of {@code tree} (the table's
   * {@link StoredFormat#counterTree()}).
   */
  public static SearchableBox create(KeyRing keys, CounterTree tree) throws GeneralSecurityException {
    return new SearchableBox(keys, tree, false, false, false, false);
  }

  /** A box in stored format {@code format}'s form. */
  public static SearchableBox create(KeyRing keys, StoredFormat format) throws GeneralSecurityException {
    return new SearchableBox(keys, format.counterTree(), format.oneMacSearchIndex(),
        format.extendedNoncesForSearchableValues(), format.writerLanes(), format.countLogs());
  }

  /** The STD box over the value subkeys, with the ring's key ids and primary. */
  private static RandomizedBox valueBox(KeyRing keys, boolean extendedNonces) throws GeneralSecurityException {
    List<VersionedKey> derived = new ArrayList<>();
    VersionedKey primary = null;
    for (VersionedKey key : keys.keys()) {
      VersionedKey valueKey = new VersionedKey(key.keyId(),
          withSubkey(key, VALUE_KEY_INFO, raw -> SecretKeyBytes.copyOf(raw, SecretKeyAccess.insecure())));
      derived.add(valueKey);
      if (key.keyId() == keys.primary().keyId()) {
        primary = valueKey;
      }
    }
    try {
      return RandomizedBox.createWithKeyIdPrefix(new KeyRing(primary, derived), extendedNonces);
    } finally {
      // The box's JCE keys hold their own copies, and this is the derived keys' only holder.
      for (VersionedKey valueKey : derived) {
        valueKey.key().destroy();
      }
    }
  }

  /** Applies {@code use} to {@code key}'s subkey for {@code info}, then wipes the subkey. */
  private static <T> T withSubkey(VersionedKey key, byte[] info, SecretKeyBytes.KeyUse<T> use)
      throws GeneralSecurityException {
    byte[] subkey = key.key().withCopy(SecretKeyAccess.insecure(),
        raw -> Hkdf.computeHkdf(HKDF_MAC, raw, NO_SALT, info, SUBKEY_BYTES));
    try {
      return use.apply(subkey);
    } finally {
      Arrays.fill(subkey, (byte) 0);
    }
  }

  @Override
  public BoxKind kind() {
    return BoxKind.SSE;
  }

  @Override
  public byte[] encrypt(byte[] plaintext, byte[] associatedData) throws GeneralSecurityException {
    return values.encrypt(plaintext, associatedData);
  }

  @Override
  public byte[] decrypt(byte[] ciphertext, byte[] associatedData) throws GeneralSecurityException {
    return values.decrypt(ciphertext, associatedData);
  }

  /**
   * The index of {@code plaintext} in one column under every key this box reads, primary first:
   * a search covers all, since entries written before a rotation keep their old keys.
   */
  public List<ValueIndex> indexesOf(byte[] plaintext, byte[] column) {
    Objects.requireNonNull(plaintext, "plaintext");
    Objects.requireNonNull(column, "column");
    List<ValueIndex> out = new ArrayList<>();
    for (IndexKey key : indexKeys.all()) {
      out.add(key.indexOf(plaintext, column, tree));
    }
    return out;
  }

  /** The primary key's index of {@code plaintext}, derived alone so that writes after a rotation do not pay for older keys. */
  @Override
  public ValueIndex writeIndex(byte[] plaintext, byte[] column) {
    Objects.requireNonNull(plaintext, "plaintext");
    Objects.requireNonNull(column, "column");
    return indexKeys.primary().indexOf(plaintext, column, tree);
  }

  /** Equality only: one value's entries under every key. */
  @Override
  public Optional<List<ValueIndex>> searchIndexes(ValueCondition condition, byte[] column) {
    return condition.operator() == ValueCondition.Operator.EQUAL
        ? Optional.of(indexesOf(condition.operand(), column))
        : Optional.empty();
  }

  @Override
  public boolean satisfies(ValueCondition condition, byte[] plaintext) {
    if (condition.operator() != ValueCondition.Operator.EQUAL) {
      throw new IllegalArgumentException("SSE answers equality only, not " + condition.operator());
    }
    return Arrays.equals(condition.operand(), plaintext);
  }

  /**
   * The index subkey of one key version: HMAC-SHA256 with one Mac per thread, or in format 5
   * HMAC-SHA512 under a subkey of its own.
   */
  private static final class IndexKey {
    private final int keyId;
    private final boolean oneMac;
    /** Format 6: indexes with writer lanes ({@link ValueIndex#lane}). */
    private final boolean lanes;
    /** Format 7: lane counts in count logs ({@link ValueIndex#hasCountLogs}). */
    private final boolean logs;
    private final ThreadLocal<Mac> macs;

    IndexKey(VersionedKey key, boolean oneMac, boolean lanes, boolean logs) throws GeneralSecurityException {
      this.keyId = key.keyId();
      this.oneMac = oneMac;
      this.lanes = lanes;
      this.logs = logs;
      String algorithm = oneMac ? WIDE_INDEX_MAC : INDEX_MAC;
      SecretKeySpec spec = withSubkey(key, oneMac ? WIDE_INDEX_KEY_INFO : INDEX_KEY_INFO,
          raw -> new SecretKeySpec(raw, algorithm));
      newMac(spec); // fails now, rather than on first use, if the JDK lacks the MAC
      this.macs = ThreadLocal.withInitial(() -> {
        try {
          return newMac(spec);
        } catch (GeneralSecurityException e) {
          throw new IllegalStateException("this JDK has no " + algorithm, e);
        }
      });
    }

    private static Mac newMac(SecretKeySpec spec) throws GeneralSecurityException {
      Mac mac = Mac.getInstance(spec.getAlgorithm());
      mac.init(spec);
      return mac;
    }

    ValueIndex indexOf(byte[] plaintext, byte[] column, CounterTree tree) {
      return oneMac ? fromOneMac(plaintext, column, tree) : fromThreeMacs(plaintext, column, tree);
    }

    /** Format 5: name (16) || mask (8) || root (16) || entry 0's key (16) of one HMAC-SHA512. */
    private ValueIndex fromOneMac(byte[] plaintext, byte[] column, CounterTree tree) {
      byte[] out = macs.get().doFinal(AssociatedData.of("sse-index", column, plaintext));
      byte[] root = Arrays.copyOfRange(out, 24, 40);
      byte[] first = Arrays.copyOfRange(out, 40, 56);
      try {
        return new ValueIndex(keyId, Arrays.copyOf(out, COUNTER_NAME_BYTES), ByteBuffer.wrap(out, 16, 8).getLong(),
            root, tree, first, lanes, logs);
      } finally {
        Arrays.fill(out, (byte) 0);
        Arrays.fill(root, (byte) 0);
        Arrays.fill(first, (byte) 0);
      }
    }

    private ValueIndex fromThreeMacs(byte[] plaintext, byte[] column, CounterTree tree) {
      Mac mac = macs.get();
      byte[] name = mac.doFinal(AssociatedData.of("sse-counter", column, plaintext));
      byte[] mask = mac.doFinal(AssociatedData.of("sse-counter-mask", column, plaintext));
      byte[] rootMac = mac.doFinal(AssociatedData.of("sse-root", column, plaintext));
      byte[] root = Arrays.copyOf(rootMac, CounterTree.SEED_BYTES);
      try {
        return new ValueIndex(keyId, Arrays.copyOf(name, COUNTER_NAME_BYTES), ByteBuffer.wrap(mask).getLong(), root,
            tree);
      } finally {
        Arrays.fill(rootMac, (byte) 0);
        Arrays.fill(root, (byte) 0);
      }
    }
  }
}
