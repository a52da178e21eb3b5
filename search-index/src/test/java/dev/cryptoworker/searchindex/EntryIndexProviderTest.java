package dev.cryptoworker.searchindex;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.cryptoworker.searchindex.spi.SearchIndexProvider;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import org.junit.jupiter.api.Test;

class EntryIndexProviderTest {
  @Test
  void theClientFindsThisModulesIndexThroughServiceLoader() {
    assertEquals(List.of(EntryIndexProvider.class),
        ServiceLoader.load(SearchIndexProvider.class).stream().map(ServiceLoader.Provider::type).toList());
  }

  @Test
  void anUnavailableIndexRefusesWritesNamingTheTable() {
    IOException e = assertThrows(IOException.class, () -> new EntryIndexProvider().unavailable("notes").takeAhead(Map.of()));
    assertEquals("table notes: no counter table configured for searchable columns", e.getMessage());
  }
}
