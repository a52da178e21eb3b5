package dev.cryptoworker.region;

import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * Which rows a scan selects through the encrypted search index ({@link SearchIndexCells}): an AND
 * of clauses, each an OR of terms; a term is one column's index cells and the tokens that reach
 * one value's entries. The region walks the entries of the clause with the fewest, then keeps the
 * rows whose current index cell of every clause is reached by that clause's tokens. Tokens are
 * opaque here (the region server parses them).
 *
 * <p>Encoding: {@code version (1) || clauses (2) || per clause: terms (2) || per term: family ||
 * indexQualifier || tokens (4) || each token}, byte strings with a 4-byte length.
 */
public record SearchRequest(List<List<Term>> clauses) implements RegionRequest {
  private static final byte VERSION = 1;
  private static final int MAX_PART = 1 << 16;
  private static final int MAX_TOKENS = 1 << 16;

  /** One column's index cells ({@code family}, {@code indexQualifier}) and tokens for one value. */
  public record Term(byte[] family, byte[] indexQualifier, List<byte[]> tokens) {
    public Term {
      tokens = List.copyOf(tokens);
    }
  }

  public SearchRequest {
    clauses = clauses.stream().map(List::copyOf).toList();
  }

  @Override
  public Kind kind() {
    return Kind.SEARCH;
  }

  @Override
  public byte[] toBytes() {
    int length = 3;
    for (List<Term> clause : clauses) {
      length += 2;
      for (Term t : clause) {
        length += 12 + t.family.length + t.indexQualifier.length;
        for (byte[] token : t.tokens) {
          length += 4 + token.length;
        }
      }
    }
    ByteBuffer b = ByteBuffer.allocate(length).put(VERSION).putShort((short) clauses.size());
    for (List<Term> clause : clauses) {
      b.putShort((short) clause.size());
      for (Term t : clause) {
        b.putInt(t.family.length).put(t.family).putInt(t.indexQualifier.length).put(t.indexQualifier);
        b.putInt(t.tokens.size());
        for (byte[] token : t.tokens) {
          b.putInt(token.length).put(token);
        }
      }
    }
    return b.array();
  }

  /**
   * Parses a request.
   *
   * @throws IllegalArgumentException if malformed
   */
  public static SearchRequest parse(byte[] bytes) {
    try {
      ByteBuffer b = ByteBuffer.wrap(bytes);
      if (b.get() != VERSION) {
        throw new IllegalArgumentException("unsupported search request version");
      }
      int clauseCount = b.getShort() & 0xffff;
      if (clauseCount == 0) {
        throw new IllegalArgumentException("a search request needs at least one clause");
      }
      List<List<Term>> clauses = new ArrayList<>();
      for (int i = 0; i < clauseCount; i++) {
        int termCount = b.getShort() & 0xffff;
        if (termCount == 0) {
          throw new IllegalArgumentException("a search clause needs at least one term");
        }
        List<Term> clause = new ArrayList<>();
        for (int j = 0; j < termCount; j++) {
          byte[] family = part(b, 1);
          byte[] qualifier = part(b, 1);
          int tokenCount = b.getInt();
          if (tokenCount < 0 || tokenCount > MAX_TOKENS) {
            throw new IllegalArgumentException("bad token count " + tokenCount + " in search request");
          }
          List<byte[]> tokens = new ArrayList<>();
          for (int k = 0; k < tokenCount; k++) {
            tokens.add(part(b, 1));
          }
          clause.add(new Term(family, qualifier, tokens));
        }
        clauses.add(clause);
      }
      if (b.hasRemaining()) {
        throw new IllegalArgumentException("trailing bytes after search request");
      }
      return new SearchRequest(clauses);
    } catch (BufferUnderflowException e) {
      throw new IllegalArgumentException("search request truncated");
    }
  }

  private static byte[] part(ByteBuffer b, int minimum) {
    int n = b.getInt();
    if (n < minimum || n > MAX_PART || n > b.remaining()) {
      throw new IllegalArgumentException("bad length " + n + " in search request");
    }
    byte[] out = new byte[n];
    b.get(out);
    return out;
  }
}
