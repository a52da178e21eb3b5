package dev.cryptoworker.cli.plan;

import static dev.cryptoworker.cryptobox.ServerOperation.EQUALITY;
import static dev.cryptoworker.cryptobox.ServerOperation.GROUP;
import static dev.cryptoworker.cryptobox.ServerOperation.INDEXED_EQUALITY;
import static dev.cryptoworker.cryptobox.ServerOperation.RANGE;
import static dev.cryptoworker.cryptobox.ServerOperation.ROW_LOOKUP;
import static dev.cryptoworker.cryptobox.ServerOperation.SPLAYED_EQUALITY;
import static dev.cryptoworker.cryptobox.ServerOperation.SPLAYED_GROUP;
import static dev.cryptoworker.cryptobox.ServerOperation.SUM;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cryptoworker.cryptobox.ServerOperation;
import dev.cryptoworker.schema.PlaintextSchema;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class SqlQueryReaderTest {
  private final SqlQueryReader reader;

  SqlQueryReaderTest() throws Exception {
    reader = new SqlQueryReader(PlaintextSchema.load(SchemaPlannerTest.DIR.resolve("ads-plaintext.yaml")));
  }

  private QueryReading read(String sql) {
    return reader.read(new SampleQuery("q.sql", 1, sql));
  }

  /** Each demand as {@code column: operations}, in the order read. */
  private Map<String, Set<ServerOperation>> demands(String sql) {
    QueryReading reading = read(sql);
    assertNull(reading.unservable(), sql);
    Map<String, Set<ServerOperation>> out = new LinkedHashMap<>();
    for (Demand d : reading.demands()) {
      out.put(d.column() + " " + d.what(), d.anyOf());
    }
    return out;
  }

  @Test
  void whereAConditionStandsDecidesWhatAnswersIt() {
    assertEquals(Map.of("a:campaign equality", Set.of(EQUALITY, INDEXED_EQUALITY)),
        demands("SELECT * FROM ads WHERE campaign = 'x'"));
    assertEquals(Map.of("a:campaign equality", Set.of(EQUALITY), "e:country equality", Set.of(EQUALITY)),
        demands("SELECT * FROM ads WHERE (campaign = 'x' OR country = 'FR')"), "an OR of two columns: no index");
    assertEquals(Map.of("e:country IN", Set.of(EQUALITY, INDEXED_EQUALITY)),
        demands("SELECT * FROM ads WHERE (country = 'FR' OR country = 'DE')"), "an OR on one column is an IN");
    assertEquals(Map.of("e:country inequality", Set.of(EQUALITY)), demands("SELECT * FROM ads WHERE country <> 'FR'"));
    assertEquals(Map.of("e:country equality", Set.of(EQUALITY)),
        demands("SELECT * FROM ads WHERE NOT (country = 'FR')"));
    assertEquals(Map.of("e:day range", Set.of(RANGE)), demands("SELECT * FROM ads WHERE day BETWEEN 1 AND ?"));
    assertEquals(Map.of("the row key row lookup", Set.of(ROW_LOOKUP)),
        demands("SELECT * FROM ads WHERE rowkey IN ('a', 'b')"));
  }

  @Test
  void aggregatesAddSumsAndSplayedAlternatives() {
    Map<String, Set<ServerOperation>> filtered =
        demands("SELECT SUM(revenue) / COUNT(revenue) FROM ads WHERE e.country = 'FR' AND day > 3");
    assertEquals(Set.of(SUM), filtered.get("e:revenue sum"));
    assertEquals(Set.of(EQUALITY, INDEXED_EQUALITY, SPLAYED_EQUALITY), filtered.get("e:country equality"));
    assertEquals(Set.of(RANGE), filtered.get("e:day range"));
    Map<String, Set<ServerOperation>> grouped =
        demands("SELECT device, AVG(clicks) FROM ads x WHERE x.country = 'FR' GROUP BY device");
    assertEquals(Set.of(GROUP, SPLAYED_GROUP), grouped.get("e:device group-by"));
    assertEquals(Set.of(EQUALITY, INDEXED_EQUALITY), grouped.get("e:country equality"),
        "a grouped aggregate takes no splayed condition");
    assertEquals(List.of("clicks"), read("SELECT device, AVG(clicks) FROM ads GROUP BY device").demands().get(1)
        .measures());
    assertEquals(Map.of("e:country equality", Set.of(EQUALITY, INDEXED_EQUALITY)),
        demands("SELECT COUNT(*) FROM ads WHERE country = 'FR'"), "a row count has no measure to splay");
  }

  @Test
  void namesWhatNoBoxAnswers() {
    Map<String, String> reasons = new LinkedHashMap<>();
    reasons.put("SELECT MAX(revenue) FROM ads", "MAX: no box returns an extreme");
    reasons.put("SELECT country, SUM(revenue) FROM ads GROUP BY country HAVING SUM(revenue) > 5", "HAVING");
    reasons.put("SELECT country, device, SUM(clicks) FROM ads GROUP BY country, device", "GROUP BY 2 columns");
    reasons.put("SELECT country, COUNT(*) FROM ads GROUP BY country", "a grouped count without a measure");
    reasons.put("SELECT * FROM ads WHERE rowkey = 'a' OR country = 'FR'", "a row-key condition under OR");
    reasons.put("SELECT * FROM ads WHERE clicks > impressions", "compares clicks with impressions");
    reasons.put("SELECT * FROM ads WHERE country IS NULL", "IS NULL");
    reasons.put("SELECT campaign FROM ads UNION SELECT campaign FROM ads", "a set operation");
    reasons.put("SELECT * FROM ads WHERE campaign IN (SELECT campaign FROM ads)", "IN with a subquery");
    reasons.put("SELECT COUNT(DISTINCT campaign) FROM ads", "COUNT(DISTINCT ...)");
    reasons.forEach((sql, reason) -> {
      String unservable = read(sql).unservable();
      assertTrue(unservable != null && unservable.startsWith(reason), sql + ": " + unservable);
    });
  }
}
