package dev.cryptoworker.cli.plan;

import dev.cryptoworker.schema.TableSchema;
import java.util.List;
import java.util.Map;

/**
 * A planned schema: the schema, one note per entry (what forced its kind, what it leaks), and the
 * sample queries no box answers on the servers.
 *
 * @param schema the planned schema
 * @param notes comment lines by YAML path ({@code rowKey}, {@code families.F.default}, {@code families.F.columns.Q})
 * @param unservable the queries no box answers on the servers, in file order
 */
public record SchemaPlan(TableSchema schema, Map<String, List<String>> notes, List<Unservable> unservable) {
  public SchemaPlan {
    notes = Map.copyOf(notes);
    unservable = List.copyOf(unservable);
  }

  /** The schema as YAML, each entry under its note, then the unservable queries as comments. */
  public String toYaml() {
    StringBuilder out = new StringBuilder(schema.toYaml(path -> notes.getOrDefault(path, List.of())));
    if (unservable.isEmpty()) {
      return out.append("# Every sample query is answered on the servers.\n").toString();
    }
    out.append("# Sample queries no box answers on the servers:\n");
    for (Unservable u : unservable) {
      out.append("#   ").append(u.query().where()).append(": ").append(u.query().oneLine().replace('\n', ' ')).append('\n');
      out.append("#     ").append(u.reason().replace('\n', ' ')).append('\n');
    }
    return out.toString();
  }
}
