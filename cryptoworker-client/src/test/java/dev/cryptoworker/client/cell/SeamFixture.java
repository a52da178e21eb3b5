package dev.cryptoworker.client.cell;

import dev.cryptoworker.client.SecureFixture;
import dev.cryptoworker.client.SecureTableOptions;
import dev.cryptoworker.client.codec.BoxRegistry;
import dev.cryptoworker.client.codec.SearchIndexes;
import dev.cryptoworker.client.codec.TableCodec;
import dev.cryptoworker.cryptobox.BoxKind;
import dev.cryptoworker.keys.KeyProvider;
import dev.cryptoworker.schema.ColumnPolicy;
import dev.cryptoworker.schema.TableSchema;
import dev.cryptoworker.schema.ValueType;

/** A codec over one schema with every box, for the fast tests of the seams (no HBase). */
final class SeamFixture {
  static final String SCHEMA = String.join("\n",
      "table: seams",
      "rowKey: { box: PLAIN }",
      "families:",
      "  f:",
      "    default: { box: STD }",
      "    columns:",
      "      det: { box: DET, type: string }",
      "      ope: { box: OPE, type: long }",
      "      opec: { box: OPE, type: date, companion: STD }",
      "      plain: { box: PLAIN }",
      "      amount: { box: ASHE, type: long }",
      "  q:",
      "    default: { box: STD }",
      "    protectQualifiers: true",
      "  s:",
      "    default: { box: PLAIN }",
      "    columns:",
      "      salary: { box: ASHE, type: long }",
      "      gender: { box: SPLASHE, values: [F, M], splays: [salary] }",
      "");

  final TableSchema schema;
  final KeyProvider keys = SecureFixture.randomKeys();
  final TableCodec codec;
  final FilterTranslator filters;
  final OperationEncoder encoder;
  final ScanPlanner planner;

  SeamFixture(String rowBox, SecureTableOptions options) {
    schema = TableSchema.parse(SCHEMA).toBuilder()
        .rowKey(ColumnPolicy.of(BoxKind.of(rowBox), rowBox.equals("OPE") ? ValueType.STRING : ValueType.BYTES))
        .build();
    long[] ids = {0};
    codec = new TableCodec(schema, keys, BoxRegistry.standard(), scope -> () -> ++ids[0],
        SearchIndexes.unavailable(schema.tableName()), SecureTableOptions.defaults().boxOptions());
    filters = new FilterTranslator(codec, options);
    encoder = new OperationEncoder(codec, filters);
    planner = new ScanPlanner(codec, encoder, filters);
  }

  SeamFixture(String rowBox) {
    this(rowBox, SecureTableOptions.defaults());
  }
}
