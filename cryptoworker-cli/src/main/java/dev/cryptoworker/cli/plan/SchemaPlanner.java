package dev.cryptoworker.cli.plan;

import dev.cryptoworker.cryptobox.BoxKind;
import dev.cryptoworker.cryptobox.BoxTraits;
import dev.cryptoworker.cryptobox.BoxUse;
import dev.cryptoworker.schema.ColumnPolicy;
import dev.cryptoworker.schema.FamilySchema;
import dev.cryptoworker.schema.PlaintextSchema;
import dev.cryptoworker.schema.TableSchema;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Seabed's planner: from a plaintext schema and sample queries, the schema that gives each column
 * the kind that leaks least among those answering every sample query's demands on it on the
 * servers ({@link BoxChoice}); columns no query asks anything of get the kind of lowest rank (STD).
 *
 * <p>Four rules span columns, so the plan is redone until they hold: a query whose demands on a
 * column no kind answers together with the column's other demands is unservable, and its demands
 * are dropped; one column per aggregate may answer through splayed sums (SPLASHE), the first in the
 * query; a measure is splayed by one column, the first listed; and a family holding splayed columns
 * holds no indexed ones (SSE), which get their next choice (DET) instead.
 */
public final class SchemaPlanner {
  private final PlaintextSchema schema;

  public SchemaPlanner(PlaintextSchema schema) {
    this.schema = schema;
  }

  /**
   * The plan for {@code queries}.
   *
   * @throws InvalidQueryException if a query is malformed or names an unknown table or column
   */
  public SchemaPlan plan(List<SampleQuery> queries) {
    SqlQueryReader reader = new SqlQueryReader(schema);
    List<QueryReading> readings = queries.stream().map(reader::read).toList();
    Map<SampleQuery, String> unservable = new LinkedHashMap<>();
    for (QueryReading r : readings) {
      if (r.unservable() != null) {
        unservable.put(r.query(), r.unservable());
      }
    }
    Set<ColumnQuery> unsplayed = new HashSet<>();
    Map<ColumnRef, Map<BoxKind, String>> excluded = new HashMap<>();
    while (true) {
      Map<ColumnRef, List<Demand>> demands = demands(readings, unservable, unsplayed);
      Map<ColumnRef, BoxChoice> choices = choose(demands, excluded);
      if (!unservable(choices, unservable) && !unsplay(choices, unsplayed) && !separate(choices, excluded)) {
        return build(choices, queries, unservable);
      }
    }
  }

  /** A column's demands in one query. */
  private record ColumnQuery(ColumnRef column, SampleQuery query) {}

  /** Every column's demands (the row key first, then columns in schema order), without those of unservable queries. */
  private Map<ColumnRef, List<Demand>> demands(List<QueryReading> readings, Map<SampleQuery, String> unservable,
      Set<ColumnQuery> unsplayed) {
    Map<ColumnRef, List<Demand>> demands = new LinkedHashMap<>();
    demands.put(ColumnRef.ROW_KEY, new ArrayList<>());
    for (FamilySchema family : schema.table().families().values()) {
      for (String qualifier : family.columns().keySet()) {
        demands.put(new ColumnRef(family.name(), qualifier), new ArrayList<>());
      }
    }
    for (QueryReading r : readings) {
      if (!unservable.containsKey(r.query())) {
        for (Demand d : r.demands()) {
          demands.get(d.column()).add(unsplayed.contains(new ColumnQuery(d.column(), d.query())) ? d.withoutSplayed() : d);
        }
      }
    }
    return demands;
  }

  /**
   * Each column's choice, in two passes: splaying kinds check the kinds of the measures they
   * splay, which the first pass chooses.
   */
  private Map<ColumnRef, BoxChoice> choose(Map<ColumnRef, List<Demand>> demands,
      Map<ColumnRef, Map<BoxKind, String>> excluded) {
    Map<ColumnRef, BoxChoice> first = choose(demands, Map.of(), excluded);
    return choose(demands, first, excluded);
  }

  private Map<ColumnRef, BoxChoice> choose(Map<ColumnRef, List<Demand>> demands, Map<ColumnRef, BoxChoice> before,
      Map<ColumnRef, Map<BoxKind, String>> excluded) {
    Map<ColumnRef, BoxChoice> choices = new LinkedHashMap<>();
    for (Map.Entry<ColumnRef, List<Demand>> e : demands.entrySet()) {
      ColumnRef column = e.getKey();
      if (column.isRowKey()) {
        choices.put(column, BoxChoice.choose(BoxUse.Place.ROW_KEY, schema.table().rowKeyPolicy().type(), e.getValue(),
            Optional.empty(), Map.of(), Map.of(), false, Map.of()));
        continue;
      }
      FamilySchema family = schema.table().family(column.family()).orElseThrow();
      Map<String, BoxKind> kinds = new LinkedHashMap<>();
      for (String qualifier : family.columns().keySet()) {
        BoxChoice earlier = before.get(new ColumnRef(family.name(), qualifier));
        kinds.put(qualifier, earlier == null ? family.columns().get(qualifier).box() : earlier.kind());
      }
      choices.put(column, BoxChoice.choose(BoxUse.Place.COLUMN, family.columns().get(column.qualifier()).type(),
          e.getValue(), schema.declaredValues(column.family(), column.qualifier()),
          schema.declaredRows(column.family(), column.qualifier()).orElse(Map.of()), kinds, family.protectQualifiers(),
          excluded.getOrDefault(column, Map.of())));
    }
    return choices;
  }

  /** Marks unservable the queries of demands no choice answers; whether it marked any. */
  private static boolean unservable(Map<ColumnRef, BoxChoice> choices, Map<SampleQuery, String> unservable) {
    boolean marked = false;
    for (Map.Entry<ColumnRef, BoxChoice> e : choices.entrySet()) {
      BoxChoice choice = e.getValue();
      for (Demand d : choice.unserved()) {
        if (unservable.containsKey(d.query())) {
          continue;
        }
        List<String> others = choice.served().stream().filter(s -> !s.query().equals(d.query()))
            .map(s -> s.what() + " (" + s.query().where() + ")").distinct().toList();
        unservable.put(d.query(), e.getKey() + ": no installed box answers its " + d.what() + " on the servers"
            + (others.isEmpty() ? " for a column of this type" : " together with its " + String.join(", ", others)
                + ", which " + choice.kind() + " answers"));
        marked = true;
      }
    }
    return marked;
  }

  /**
   * Keeps splayed answers to one column per query and one column per measure, the first; whether
   * it took any away.
   */
  private static boolean unsplay(Map<ColumnRef, BoxChoice> choices, Set<ColumnQuery> unsplayed) {
    Set<SampleQuery> splayedQueries = new HashSet<>();
    Map<String, ColumnRef> splayedMeasures = new LinkedHashMap<>();
    boolean changed = false;
    for (Map.Entry<ColumnRef, BoxChoice> e : choices.entrySet()) {
      ColumnRef column = e.getKey();
      BoxChoice choice = e.getValue();
      for (String measure : choice.splayedMeasures()) {
        ColumnRef owner = splayedMeasures.putIfAbsent(column.family() + ":" + measure, column);
        if (owner != null && !owner.equals(column)) {
          for (Demand d : choice.served()) {
            changed |= unsplayed.add(new ColumnQuery(column, d.query()));
          }
        }
      }
      for (Demand d : choice.served()) {
        if (d.onlySplayed(choice.operations()) && !splayedQueries.add(d.query())) {
          changed |= unsplayed.add(new ColumnQuery(column, d.query()));
        }
      }
    }
    return changed;
  }

  /**
   * Keeps kinds whose values take several cells (SPLASHE) and kinds that keep a search index (SSE)
   * out of one family, as the client requires (their stored cells do not compose): the indexed
   * columns of such a family are planned again without their kind; whether any was.
   */
  private static boolean separate(Map<ColumnRef, BoxChoice> choices, Map<ColumnRef, Map<BoxKind, String>> excluded) {
    Map<String, List<BoxChoice>> splaying = new LinkedHashMap<>();
    Map<String, List<ColumnRef>> indexed = new LinkedHashMap<>();
    for (Map.Entry<ColumnRef, BoxChoice> e : choices.entrySet()) {
      BoxTraits traits = e.getValue().provider().traits();
      if (e.getKey().isRowKey()) {
        continue;
      }
      if (traits.severalCellsPerValue()) {
        splaying.computeIfAbsent(e.getKey().family(), f -> new ArrayList<>()).add(e.getValue());
      }
      if (traits.searchIndex()) {
        indexed.computeIfAbsent(e.getKey().family(), f -> new ArrayList<>()).add(e.getKey());
      }
    }
    boolean changed = false;
    for (Map.Entry<String, List<ColumnRef>> family : indexed.entrySet()) {
      List<BoxChoice> splays = splaying.get(family.getKey());
      if (splays == null) {
        continue;
      }
      for (ColumnRef column : family.getValue()) {
        BoxKind kind = choices.get(column).kind();
        changed |= excluded.computeIfAbsent(column, c -> new LinkedHashMap<>()).putIfAbsent(kind, "not " + kind
            + ": family " + family.getKey() + " holds " + splays.get(0).kind() + " columns, whose cells a "
            + kind + " index cannot share; list this column in another family for " + kind) == null;
      }
    }
    return changed;
  }

  private SchemaPlan build(Map<ColumnRef, BoxChoice> choices, List<SampleQuery> queries,
      Map<SampleQuery, String> unservable) {
    TableSchema input = schema.table();
    Map<String, List<String>> notes = new LinkedHashMap<>();
    TableSchema.Builder table = input.toBuilder();
    BoxChoice rowKey = choices.get(ColumnRef.ROW_KEY);
    table.rowKey(rowKey.policy(input.rowKeyPolicy().type()));
    notes.put(ColumnRef.ROW_KEY.yamlPath(), List.of(rowKey.note()));
    for (FamilySchema family : input.families().values()) {
      ColumnPolicy given = family.defaultPolicy();
      BoxChoice defaults = BoxChoice.choose(BoxUse.Place.FAMILY_DEFAULT, given.type(), List.of(), Optional.empty(),
          Map.of(), Map.of(), family.protectQualifiers(), Map.of());
      FamilySchema.Builder planned = FamilySchema.builder(family.name()).defaultPolicy(defaults.policy(given.type()))
          .protectQualifiers(family.protectQualifiers());
      notes.put("families." + family.name() + ".default", List.of(defaults.note()));
      for (Map.Entry<String, ColumnPolicy> c : family.columns().entrySet()) {
        ColumnRef column = new ColumnRef(family.name(), c.getKey());
        BoxChoice choice = choices.get(column);
        planned.column(c.getKey(), choice.policy(c.getValue().type()));
        notes.put(column.yamlPath(), List.of(choice.note()));
      }
      table.family(planned.build());
    }
    List<Unservable> named = new ArrayList<>();
    for (SampleQuery q : queries) {
      if (unservable.containsKey(q)) {
        named.add(new Unservable(q, unservable.get(q)));
      }
    }
    return new SchemaPlan(table.build(), notes, named);
  }
}
