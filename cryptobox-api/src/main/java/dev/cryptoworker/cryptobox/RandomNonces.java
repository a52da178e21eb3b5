package dev.cryptoworker.cryptobox;

import java.nio.charset.StandardCharsets;
import java.security.DrbgParameters;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Random nonces for one key, counted against that key's budget.
 *
 * <p>Bytes come from a DRBG per thread (the JDK's {@code DRBG}: NIST SP 800-90A Hash_DRBG with
 * SHA-256, seeded and reseeded from the system's entropy source), drawn {@value #DRAW_BYTES} bytes
 * at a time. Why not {@code new SecureRandom()} per thread: on Linux that is NativePRNG, whose
 * instances all read {@code /dev/urandom} under one process-wide lock, so threads encrypting at
 * once queue for it (measured here: 190-320 ns per 12-byte IV on one thread, and slower per IV on
 * two). A thread's own DRBG takes 35 ns per IV and shares nothing. The buffered bytes are nonces not
 * yet used: nonces are public and need only be unique, so holding them is no secret.
 *
 * <p>{@link #forKey} counts per key and process, however many boxes use the key; {@link
 * #withBudget} counts for one owner. Clients in other processes using the same key draw from the
 * same budget without this count seeing them: rotate keys well before any budget.
 *
 * <p>A thread's DRBG state is in the process's memory, so a VM snapshot restored twice (or cloned)
 * repeats its draws in each copy until the copy's next draw from the system. Java cannot tell that
 * it was restored (the JDK has no such event), so nothing here reseeds on restore; owners whose
 * nonces must differ between such copies take a prefix from {@link #fillFresh}, which reseeds
 * from the system on every draw.
 */
public final class RandomNonces {
  /** Bytes drawn from a thread's DRBG at once (100 AES-GCM IVs). */
  static final int DRAW_BYTES = 1_200;

  private static final ThreadLocal<Draws> DRAWS = ThreadLocal.withInitial(Draws::new);
  /** The process's count per key, by a one-way fingerprint of the key (keys are few: one per column and version). */
  private static final Map<String, AtomicLong> PER_KEY = new ConcurrentHashMap<>();
  private static final byte[] FINGERPRINT_DOMAIN = "cryptoworker nonce budget v1".getBytes(StandardCharsets.UTF_8);

  private final long budget;
  private final String owner;
  private final AtomicLong used;

  private RandomNonces(long budget, String owner, AtomicLong used) {
    if (budget < 1) {
      throw new IllegalArgumentException("a nonce budget must be at least 1, got " + budget);
    }
    this.budget = budget;
    this.owner = owner;
    this.used = used;
  }

  /**
   * Nonces counted for {@code owner} alone (named in messages: never key material), refused after
   * {@code budget} of them.
   */
  public static RandomNonces withBudget(long budget, String owner) {
    return new RandomNonces(budget, owner, new AtomicLong());
  }

  /**
   * Nonces for {@code key}, counted with every other use of the same key in this process and
   * refused after {@code budget} of them; {@code owner} names the key in messages.
   */
  public static RandomNonces forKey(SecretKeyBytes key, long budget, String owner) throws GeneralSecurityException {
    String fingerprint = key.withCopy(SecretKeyAccess.insecure(), raw -> {
      MessageDigest sha256 = MessageDigest.getInstance("SHA-256");
      sha256.update(FINGERPRINT_DOMAIN);
      return HexFormat.of().formatHex(sha256.digest(raw));
    });
    return new RandomNonces(budget, owner, PER_KEY.computeIfAbsent(fingerprint, f -> new AtomicLong()));
  }

  /**
   * Writes a fresh random nonce of {@code length} bytes into {@code out} at {@code offset}.
   *
   * @throws GeneralSecurityException once this key has drawn its budget
   */
  public void fill(byte[] out, int offset, int length) throws GeneralSecurityException {
    if (!tryFill(out, offset, length)) {
      throw new GeneralSecurityException(owner + " has used its budget of " + budget + " random nonces in this"
          + " process; beyond it two nonces repeat with too high a probability: rotate the key");
    }
  }

  /**
   * As {@link #fill}, but a spent budget returns false (and writes nothing), for owners that move
   * on to a new key or nonce prefix at the end of a budget rather than refuse.
   */
  public boolean tryFill(byte[] out, int offset, int length) {
    if (used.getAndIncrement() >= budget) {
      used.decrementAndGet(); // keep the count at the budget, however often it is refused
      return false;
    }
    DRAWS.get().take(out, offset, length);
    return true;
  }

  /**
   * Writes {@code length} random bytes into {@code out} at {@code offset} from a DRBG that reseeds
   * from the system's entropy source before this draw (prediction resistance, NIST SP 800-90A): a
   * copy of this process restored from a VM snapshot draws different bytes from the original as
   * soon as their systems' entropy differs, where the per-thread DRBGs of {@link #fill} repeat.
   * Slow (13 us a draw measured here, a read of the entropy source each): for prefixes drawn rarely.
   */
  public static void fillFresh(byte[] out, int offset, int length) {
    byte[] fresh = new byte[length];
    Fresh.DRBG.nextBytes(fresh, DrbgParameters.nextBytes(-1, true, null));
    System.arraycopy(fresh, 0, out, offset, length);
  }

  /** Nonces drawn so far under this count. */
  public long used() {
    return used.get();
  }

  /** The process's DRBG with prediction resistance, made on first use. */
  private static final class Fresh {
    static final SecureRandom DRBG;

    static {
      try {
        DRBG = SecureRandom.getInstance("DRBG",
            DrbgParameters.instantiation(256, DrbgParameters.Capability.PR_AND_RESEED, null));
      } catch (NoSuchAlgorithmException e) {
        throw new IllegalStateException("this JDK has no DRBG SecureRandom with prediction resistance", e);
      }
    }
  }

  /** One thread's DRBG and the unused rest of its last draw. */
  private static final class Draws {
    private final SecureRandom drbg;
    private final byte[] bytes = new byte[DRAW_BYTES];
    private int next = DRAW_BYTES;

    Draws() {
      try {
        drbg = SecureRandom.getInstance("DRBG");
      } catch (NoSuchAlgorithmException e) {
        throw new IllegalStateException("this JDK has no DRBG SecureRandom", e);
      }
    }

    void take(byte[] out, int offset, int length) {
      if (length > DRAW_BYTES) {
        byte[] fresh = new byte[length];
        drbg.nextBytes(fresh);
        System.arraycopy(fresh, 0, out, offset, length);
        return;
      }
      if (next + length > DRAW_BYTES) {
        drbg.nextBytes(bytes);
        next = 0;
      }
      System.arraycopy(bytes, next, out, offset, length);
      next += length;
    }
  }
}
