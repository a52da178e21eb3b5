package dev.cryptoworker.cryptobox.ashe;

import dev.cryptoworker.cryptobox.expansion.FamilyExpansion.CellValue;
import dev.cryptoworker.cryptobox.expansion.FamilyStore;
import dev.cryptoworker.cryptobox.expansion.Recount;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Re-counts the enhanced SPLASHE dimensions' shared token counts from their stored tokens: how many
 * rows show each infrequent value's token, pads included, which is what padding balances.
 */
final class TokenRecount implements Recount {
  private final FamilyStore store;
  private final Map<ByteBuffer, SplayedDimension> byToken = new LinkedHashMap<>();
  private final Map<SplayedDimension, Map<String, Long>> counted = new HashMap<>();

  TokenRecount(FamilyStore store, List<SplayedDimension> enhanced) {
    this.store = store;
    for (SplayedDimension d : enhanced) {
      byToken.put(ByteBuffer.wrap(d.tokenQualifier()), d);
      counted.put(d, new HashMap<>());
    }
  }

  @Override
  public List<byte[]> qualifiers() {
    List<byte[]> out = new ArrayList<>();
    byToken.keySet().forEach(q -> out.add(q.array().clone()));
    return out;
  }

  @Override
  public void add(byte[] row, CellValue stored) throws IOException, GeneralSecurityException {
    SplayedDimension d = byToken.get(ByteBuffer.wrap(stored.qualifier()));
    if (d != null) {
      counted.get(d).merge(d.tokenValue(store, row, stored.value()), 1L, Long::sum);
    }
  }

  @Override
  public long finish() throws IOException {
    long moved = 0;
    for (Map.Entry<SplayedDimension, Map<String, Long>> e : counted.entrySet()) {
      moved += e.getKey().recount(e.getValue());
    }
    return moved;
  }
}
