package dev.cryptoworker.client.codec;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cryptoworker.client.SecureFixture;
import dev.cryptoworker.schema.TableSchema;
import org.junit.jupiter.api.Test;

/**
 * {@link TableCodec#hasSearchIndex}: true exactly when a column's kind keeps a search index (SSE),
 * as a named column or a family's default, so writes to other tables skip the search for searchable
 * cells and writes to these do not.
 */
class SearchIndexPresenceTest {
  private static boolean indexed(String families) {
    TableSchema schema = TableSchema.parse("table: t\nrowKey: { box: DET }\nfamilies:\n" + families, "test");
    return new TableCodec(schema, SecureFixture.randomKeys()).hasSearchIndex();
  }

  @Test
  void onlyTablesWithAnSseColumnHaveASearchIndex() {
    assertFalse(indexed("  f:\n    default: { box: STD }\n    columns:\n      id: { box: DET, type: string }\n"
        + "      when: { box: OPE, type: long }\n      total: { box: ASHE, type: long }\n"));
    assertTrue(indexed("  f:\n    default: { box: STD }\n    columns:\n      tag: { box: SSE, type: string }\n"));
    assertTrue(indexed("  f:\n    default: { box: STD }\n  g:\n    default: { box: SSE, type: string }\n"));
  }
}
