package dev.cryptoworker.client;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cryptoworker.schema.TableSchema;
import org.junit.jupiter.api.Test;

/** A box the schema format knows but this version does not implement is refused when wrapping. */
class UnsupportedBoxTest {
  @Test
  void sseIsRefusedWithTableColumnAndReason() {
    TableSchema schema = TableSchema.parse(
        "table: notes\nrowKey: { box: DET }\nfamilies:\n  n:\n    default: { box: STD }\n    columns:\n      words: { box: SSE }\n");
    UnsupportedOperationException e = assertThrows(UnsupportedOperationException.class,
        () -> new TableCodec(schema, SecureFixture.randomKeys()));
    assertTrue(e.getMessage().contains("table notes") && e.getMessage().contains("column n:words")
        && e.getMessage().contains("SSE box is not implemented yet"), e.getMessage());
  }
}
