package dev.cryptoworker.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cryptoworker.client.codec.BoxRegistry;
import dev.cryptoworker.client.codec.SearchIndexes;
import dev.cryptoworker.client.codec.TableCodec;
import dev.cryptoworker.cryptobox.BoxKind;
import dev.cryptoworker.cryptobox.BoxProvider;
import dev.cryptoworker.cryptobox.BoxProviders;
import dev.cryptoworker.cryptobox.PlainBoxProvider;
import dev.cryptoworker.schema.TableSchema;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A box the schema format knows but the registry lacks is refused when the codec is built. */
class UnsupportedBoxTest {
  @Test
  void aBoxNotInstalledIsRefusedWithTableColumnAndModule() {
    TableSchema schema = TableSchema.parse(
        "table: notes\nrowKey: { box: PLAIN }\nfamilies:\n  n:\n    default: { box: PLAIN }\n    columns:\n      words: { box: SSE }\n");
    BoxRegistry plainOnly = BoxRegistry.of(List.of(new PlainBoxProvider()));
    UnsupportedOperationException e = assertThrows(UnsupportedOperationException.class,
        () -> new TableCodec(schema, SecureFixture.randomKeys(), plainOnly, scope -> () -> 1,
            SearchIndexes.unavailable("notes"), Map.of()));
    assertTrue(e.getMessage().contains("table notes") && e.getMessage().contains("column n:words")
        && e.getMessage().contains("no box of kind SSE is installed (installed: PLAIN)"), e.getMessage());
  }

  @Test
  void everyKindOfThisVersionIsFoundThroughServiceLoader() {
    // One META-INF/services line per box module: no kind is wired into the client. The test
    // classes add two more, FOLDED and PADDED (PluggedBoxTest).
    assertEquals(List.of(BoxKind.PLAIN, BoxKind.STD, BoxKind.DET, BoxKind.OPE, BoxKind.ASHE, BoxKind.SSE,
        BoxKind.SPLASHE, BoxKind.of("FOLDED"), BoxKind.of("PADDED")), BoxProviders.installed().stream().map(BoxProvider::kind).toList());
  }

  @Test
  void splasheAndSseInOneFamilyAreRefusedNamingTheFamily() {
    TableSchema schema = TableSchema.parse("table: mixed\nrowKey: { box: DET }\nfamilies:\n  f:\n"
        + "    default: { box: STD }\n    columns:\n"
        + "      ward: { box: SPLASHE, values: [a, b], splays: [cost] }\n"
        + "      cost: { box: ASHE, type: long }\n"
        + "      tag:  { box: SSE, type: string }\n");
    UnsupportedOperationException e = assertThrows(UnsupportedOperationException.class,
        () -> new TableCodec(schema, SecureFixture.randomKeys()));
    assertTrue(e.getMessage().contains("table mixed, family f") && e.getMessage().contains("SPLASHE and SSE"),
        e.getMessage());
  }

  @Test
  void aSearchableColumnWithoutASearchIndexProviderIsRefusedWithTableColumnAndModule() {
    TableSchema schema = TableSchema.parse("table: notes\nrowKey: { box: PLAIN }\nfamilies:\n  n:\n"
        + "    default: { box: STD }\n    columns:\n      words: { box: SSE, type: string }\n");
    // A null index is what SearchIndexes gives when no provider is on the class path.
    UnsupportedOperationException e = assertThrows(UnsupportedOperationException.class,
        () -> new TableCodec(schema, SecureFixture.randomKeys(), BoxRegistry.standard(), scope -> () -> 1, null, Map.of()));
    assertEquals("table notes, column n:words: its box SSE keeps a search index, and no search-index provider is on"
        + " the class path: add the module dev.cryptoworker:cryptoworker-search-index", e.getMessage());
  }
}
