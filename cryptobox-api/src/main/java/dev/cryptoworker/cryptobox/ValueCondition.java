package dev.cryptoworker.cryptobox;

import java.util.Objects;

/**
 * A condition on one column's plaintext values, as the client hands it to boxes: what a scan's
 * filter asks of the column, without HBase's types. A box that answers it on the servers says so
 * ({@link IndexedSearch#searchIndexes}); the client then checks each returned row with {@link
 * IndexedSearch#satisfies}.
 *
 * @param operator how values are compared with {@code operand}
 * @param operand the plaintext operand; secret, so never put in messages or logs
 */
public record ValueCondition(Operator operator, byte[] operand) {
  /** How a value is compared with the operand. */
  public enum Operator {
    /** The value equals the operand byte for byte (HBase's {@code EQUAL} with a {@code BinaryComparator}). */
    EQUAL,
    /** The value starts with the operand (HBase's {@code EQUAL} with a {@code BinaryPrefixComparator}). */
    STARTS_WITH
  }

  public ValueCondition {
    Objects.requireNonNull(operator, "operator");
    operand = Objects.requireNonNull(operand, "operand").clone();
  }

  /** A copy of the operand. */
  @Override
  public byte[] operand() {
    return operand.clone();
  }

  /** The condition without its operand, which is secret. */
  @Override
  public String toString() {
    return "ValueCondition[" + operator + "]";
  }
}
