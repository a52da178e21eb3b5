package dev.cryptoworker.region;

import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Adds to many counters of one family and qualifier in one region write: each {@link Take} adds
 * its amount to the 8-byte counter in its row, and a counter that does not exist yet starts at the
 * take's initial value (plus the amount) instead of 0. The region applies every take whose row it
 * holds in one batch (one write-ahead-log sync), each atomically as HBase's Increment, and answers
 * with one row per take: the counter's value after the take, in the cell ({@code family}, {@link
 * #ANSWER_QUALIFIER}), a qualifier stored counters never have, so that stored rows returned by a
 * region without the observer are never mistaken for answers.
 *
 * <p>A request with {@code packedAnswer} (version 2) is answered instead with one cell per region
 * ({@link #packAnswer}): the position of each take the region holds in the request and the
 * counter's value after it, which saves the client a cell, a row copy and a map lookup per take.
 * Regions that predate version 2 refuse it.
 *
 * <p>Encoding: {@code version (1 or 2) || family || qualifier || takes (4) || per take: row ||
 * amount (8) || has initial (1) || initial (8)}, byte strings with a 4-byte length.
 */
public record CounterTakeRequest(byte[] family, byte[] qualifier, List<Take> takes, boolean packedAnswer)
    implements RegionRequest {
  /** The qualifier of answer cells. */
  public static final byte[] ANSWER_QUALIFIER = {0, 't', 'a', 'k', 'e', 'n'};
  /** The most takes one request carries. */
  public static final int MAX_TAKES = 1 << 20;
  private static final byte VERSION = 1;
  private static final byte PACKED_VERSION = 2;
  private static final int MAX_PART = 1 << 16;

  /**
   * One counter's take.
   *
   * @param row the counter's row
   * @param amount what to add, at least 1
   * @param initial what a counter that does not exist yet starts from, or null to start from 0
   */
  public record Take(byte[] row, long amount, Long initial) {
    public Take {
      if (row.length == 0 || row.length > MAX_PART) {
        throw new IllegalArgumentException("a counter row has 1 to " + MAX_PART + " bytes, got " + row.length);
      }
      if (amount < 1) {
        throw new IllegalArgumentException("a take adds at least 1, got " + amount);
      }
    }
  }

  /** A request answered with one cell per take (version 1, which every observer version reads). */
  public CounterTakeRequest(byte[] family, byte[] qualifier, List<Take> takes) {
    this(family, qualifier, takes, false);
  }

  public CounterTakeRequest {
    takes = List.copyOf(takes);
    if (takes.isEmpty() || takes.size() > MAX_TAKES) {
      throw new IllegalArgumentException("a counter take request has 1 to " + MAX_TAKES + " takes, got " + takes.size());
    }
    if (family.length == 0 || qualifier.length == 0) {
      throw new IllegalArgumentException("a counter take request names a family and a qualifier");
    }
  }

  @Override
  public Kind kind() {
    return Kind.TAKE;
  }

  @Override
  public byte[] toBytes() {
    int length = 1 + 4 + family.length + 4 + qualifier.length + 4;
    for (Take t : takes) {
      length += 4 + t.row.length + 8 + 1 + 8;
    }
    ByteBuffer b = ByteBuffer.allocate(length).put(packedAnswer ? PACKED_VERSION : VERSION);
    b.putInt(family.length).put(family).putInt(qualifier.length).put(qualifier).putInt(takes.size());
    for (Take t : takes) {
      b.putInt(t.row.length).put(t.row).putLong(t.amount).put((byte) (t.initial == null ? 0 : 1))
          .putLong(t.initial == null ? 0 : t.initial);
    }
    return b.array();
  }

  /**
   * Parses a request.
   *
   * @throws IllegalArgumentException if malformed
   */
  public static CounterTakeRequest parse(byte[] bytes) {
    try {
      ByteBuffer b = ByteBuffer.wrap(bytes);
      byte version = b.get();
      if (version != VERSION && version != PACKED_VERSION) {
        throw new IllegalArgumentException("unsupported counter take request version " + version);
      }
      byte[] family = part(b);
      byte[] qualifier = part(b);
      int count = b.getInt();
      if (count < 1 || count > MAX_TAKES || count > b.remaining() / 21) {
        throw new IllegalArgumentException("bad take count " + count + " in counter take request");
      }
      List<Take> takes = new ArrayList<>(count);
      for (int i = 0; i < count; i++) {
        byte[] row = part(b);
        long amount = b.getLong();
        byte hasInitial = b.get();
        long initial = b.getLong();
        if (hasInitial != 0 && hasInitial != 1) {
          throw new IllegalArgumentException("bad initial-value flag " + hasInitial + " in counter take request");
        }
        takes.add(new Take(row, amount, hasInitial == 1 ? initial : null));
      }
      if (b.hasRemaining()) {
        throw new IllegalArgumentException("trailing bytes after counter take request");
      }
      return new CounterTakeRequest(family, qualifier, takes, version == PACKED_VERSION);
    } catch (BufferUnderflowException e) {
      throw new IllegalArgumentException("counter take request truncated");
    }
  }

  /**
   * A region's packed answer: {@code count (4) || per take: position in the request (4) || counter
   * value after the take (8)}.
   */
  public static byte[] packAnswer(int[] positions, long[] values) {
    if (positions.length != values.length) {
      throw new IllegalArgumentException("one value per answered take");
    }
    ByteBuffer b = ByteBuffer.allocate(4 + 12 * positions.length).putInt(positions.length);
    for (int i = 0; i < positions.length; i++) {
      b.putInt(positions[i]).putLong(values[i]);
    }
    return b.array();
  }

  /** Receives the takes of a packed answer. */
  public interface AnswerSink {
    void answered(int position, long value);
  }

  /**
   * Reads a packed answer to a request of {@code requested} takes.
   *
   * @throws IllegalArgumentException if malformed or a position is outside the request
   */
  public static void unpackAnswer(byte[] answer, int requested, AnswerSink sink) {
    ByteBuffer b = ByteBuffer.wrap(answer);
    if (answer.length < 4) {
      throw new IllegalArgumentException("a packed counter take answer of " + answer.length + " bytes");
    }
    int count = b.getInt();
    if (count < 0 || count > requested || b.remaining() != 12L * count) {
      throw new IllegalArgumentException("a packed counter take answer claims " + count + " takes in "
          + answer.length + " bytes, for a request of " + requested);
    }
    for (int i = 0; i < count; i++) {
      int position = b.getInt();
      if (position < 0 || position >= requested) {
        throw new IllegalArgumentException("a packed counter take answer names take " + position
            + " of a request of " + requested);
      }
      sink.answered(position, b.getLong());
    }
  }

  private static byte[] part(ByteBuffer b) {
    int n = b.getInt();
    if (n < 1 || n > MAX_PART || n > b.remaining()) {
      throw new IllegalArgumentException("bad length " + n + " in counter take request");
    }
    byte[] out = new byte[n];
    b.get(out);
    return out;
  }

  /** Whether {@code qualifier} is {@link #ANSWER_QUALIFIER}. */
  public static boolean isAnswer(byte[] qualifier) {
    return Arrays.equals(qualifier, ANSWER_QUALIFIER);
  }
}
