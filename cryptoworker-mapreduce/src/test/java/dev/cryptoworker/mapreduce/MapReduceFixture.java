package dev.cryptoworker.mapreduce;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import dev.cryptoworker.keys.KeyProvider;
import dev.cryptoworker.schema.TableSchema;
import dev.cryptoworker.testing.PlaintextSearch;
import dev.cryptoworker.testing.SharedHBaseCluster;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.NavigableMap;
import java.util.TreeMap;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;

/** Test helpers: unique schemas, keys, raw reads and the plaintext audit. */
final class MapReduceFixture {
  private MapReduceFixture() {}

  static KeyProvider randomKeys() {
    byte[] key = new byte[32];
    new SecureRandom().nextBytes(key);
    return KeyProvider.fromMasterKey(key);
  }

  /** {@code yaml} (table {@code TABLE}) under a unique table name. */
  static TableSchema schema(String prefix, String yaml) {
    return TableSchema.parse(yaml.replace("table: TABLE",
        "table: " + SharedHBaseCluster.uniqueTableName(prefix).getNameAsString()), prefix);
  }

  static String rowKey(int i) {
    return String.format("p%06d", i);
  }

  /** Every raw (stored) row of {@code table}, by stored key. */
  static NavigableMap<byte[], Result> rawRows(Connection hbase, TableName table) throws IOException {
    NavigableMap<byte[], Result> out = new TreeMap<>(Bytes.BYTES_COMPARATOR);
    try (Table raw = hbase.getTable(table); ResultScanner s = raw.getScanner(new Scan())) {
      for (Result r : s) {
        out.put(r.getRow(), r);
      }
    }
    return out;
  }

  /** {@code actual} holds exactly {@code expected}'s cells (families, qualifiers, values). */
  static void assertSameCells(Put expected, Result actual) {
    assertNotNull(actual, "row " + Bytes.toString(expected.getRow()) + " missing");
    assertArrayEquals(expected.getRow(), actual.getRow());
    List<String> want = new ArrayList<>();
    for (List<Cell> cells : expected.getFamilyCellMap().values()) {
      for (Cell c : cells) {
        want.add(describe(c));
      }
    }
    List<String> got = new ArrayList<>();
    for (Cell c : actual.rawCells()) {
      got.add(describe(c));
    }
    want.sort(null);
    got.sort(null);
    assertEquals(want, got, "row " + Bytes.toString(expected.getRow()));
  }

  private static String describe(Cell c) {
    return Bytes.toStringBinary(CellUtil.cloneFamily(c)) + ":" + Bytes.toStringBinary(CellUtil.cloneQualifier(c))
        + "=" + Bytes.toStringBinary(CellUtil.cloneValue(c));
  }

  /**
   * No {@code needle} appears in any stored row key, qualifier or value of {@code table}, except in
   * the values of qualifiers named in {@code plainQualifiers}.
   */
  static void assertNoPlaintext(Connection hbase, TableName table, Collection<String> needles,
      Collection<String> plainQualifiers) throws IOException {
    int cells = 0;
    PlaintextSearch search = new PlaintextSearch(needles.stream().filter(n -> n.length() >= 4).toList());
    for (Result r : rawRows(hbase, table).values()) {
      for (Cell c : r.rawCells()) {
        cells++;
        String qualifier = Bytes.toString(CellUtil.cloneQualifier(c));
        List<byte[]> parts = new ArrayList<>(List.of(CellUtil.cloneRow(c), CellUtil.cloneQualifier(c)));
        if (!plainQualifiers.contains(qualifier)) {
          parts.add(CellUtil.cloneValue(c));
        }
        for (byte[] part : parts) {
          List<String> found = search.foundIn(part);
          if (!found.isEmpty()) {
            throw new AssertionError("plaintext '" + found.get(0) + "' stored in table " + table);
          }
        }
      }
    }
    if (cells == 0) {
      throw new AssertionError("table " + table + " stores no cell: nothing was audited");
    }
  }

  /**
   * The needles {@code bytes} show: as they are, or inside a run of Base64 (how configurations and
   * splits carry serialized objects, HBase's scans among them), decoded from each of its four
   * alignments.
   */
  static List<String> plaintextIn(byte[] bytes, Collection<String> needles) {
    String text = new String(bytes, StandardCharsets.ISO_8859_1);
    List<String> texts = new ArrayList<>(List.of(text));
    java.util.regex.Matcher run = java.util.regex.Pattern.compile("[A-Za-z0-9+/]{16,}").matcher(text);
    while (run.find()) {
      for (int from = 0; from < 4; from++) {
        String part = run.group().substring(from);
        try {
          texts.add(new String(java.util.Base64.getDecoder().decode(part.substring(0, part.length() / 4 * 4)),
              StandardCharsets.ISO_8859_1));
        } catch (IllegalArgumentException e) {
          // not Base64 from this alignment
        }
      }
    }
    return needles.stream().filter(n -> texts.stream().anyMatch(t -> t.contains(n))).toList();
  }

  /**
   * Runs {@code job} to completion; if it fails, the assertion says why. Hadoop's local runner
   * keeps no task diagnostics: it logs a failed job's exception (WARN, on standard error), so that
   * log, captured while the job runs, goes into the message.
   */
  static void assertCompletes(org.apache.hadoop.mapreduce.Job job) throws Exception {
    PrintStream stderr = System.err;
    ByteArrayOutputStream log = new ByteArrayOutputStream();
    System.setErr(new PrintStream(new OutputStream() {
      @Override
      public void write(int b) {
        stderr.write(b);
        log.write(b);
      }

      @Override
      public void write(byte[] b, int off, int len) {
        stderr.write(b, off, len);
        log.write(b, off, len);
      }
    }, true, StandardCharsets.UTF_8));
    boolean succeeded;
    try {
      succeeded = job.waitForCompletion(false);
    } finally {
      System.setErr(stderr);
    }
    if (succeeded) {
      return;
    }
    StringBuilder why = new StringBuilder("the job ended ").append(job.getStatus().getState())
        .append(": ").append(job.getStatus().getFailureInfo());
    for (org.apache.hadoop.mapreduce.TaskCompletionEvent e : job.getTaskCompletionEvents(0, 100)) {
      if (e.getStatus() != org.apache.hadoop.mapreduce.TaskCompletionEvent.Status.SUCCEEDED) {
        for (String d : job.getTaskDiagnostics(e.getTaskAttemptId())) {
          why.append("; ").append(e.getTaskAttemptId()).append(": ").append(d);
        }
      }
    }
    throw new AssertionError(why.append("; logged while it ran:\n").append(log.toString(StandardCharsets.UTF_8))
        .toString());
  }
}
