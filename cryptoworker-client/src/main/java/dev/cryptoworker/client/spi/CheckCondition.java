package dev.cryptoworker.client.spi;

import dev.cryptoworker.client.cell.CellLayout;
import java.io.IOException;
import org.apache.hadoop.hbase.CompareOperator;
import org.apache.hadoop.hbase.client.CheckAndMutate;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * HBase's {@code checkAndMutate} condition evaluated on the client, over a logical row a layout
 * decoded: for layouts whose servers cannot compare what they store (packs, shares).
 */
public final class CheckCondition {
  private CheckCondition() {}

  /** Whether {@code cam}'s condition holds on {@code row} as it is ({@code row} null: absent). */
  public static boolean holds(CheckAndMutate cam, Result row) throws IOException {
    if (cam.hasFilter()) {
      return row != null && new ClientSideFilter(CellLayout.copyOf(cam.getFilter())).apply(row) != null;
    }
    byte[] actual = row == null ? null : row.getValue(cam.getFamily(), cam.getQualifier());
    byte[] expected = cam.getValue();
    CompareOperator op = cam.getCompareOp();
    if (expected == null || expected.length == 0) {
      boolean absent = actual == null || actual.length == 0;
      return op == CompareOperator.EQUAL ? absent : op == CompareOperator.NOT_EQUAL && !absent;
    }
    if (actual == null) {
      return false;
    }
    int c = Bytes.compareTo(expected, actual); // as HBase: the expected value on the left
    return switch (op) {
      case LESS -> c < 0;
      case LESS_OR_EQUAL -> c <= 0;
      case EQUAL -> c == 0;
      case NOT_EQUAL -> c != 0;
      case GREATER_OR_EQUAL -> c >= 0;
      case GREATER -> c > 0;
      default -> false;
    };
  }
}
