package dev.cryptoworker.benchmarks.macro;

import dev.cryptoworker.cryptobox.BoxKind;
import dev.cryptoworker.cryptobox.CryptoBox;
import dev.cryptoworker.cryptobox.std.RandomizedBox;
import dev.cryptoworker.keys.KeyProvider;
import dev.cryptoworker.keys.KeyScope;
import dev.cryptoworker.packs.PackCodec;
import dev.cryptoworker.packs.PackCompression;
import dev.cryptoworker.packs.PackDictionaries;
import dev.cryptoworker.packs.PackDictionary;
import dev.cryptoworker.packs.PackPadding;
import dev.cryptoworker.packs.PackRows;
import dev.cryptoworker.synthetic.Patient;
import dev.cryptoworker.synthetic.PatientGenerator;
import io.trino.tpch.TpchColumn;
import io.trino.tpch.TpchEntity;
import io.trino.tpch.TpchTable;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.IntStream;

/**
 * Compression of packs against rows per pack (MiniCrypt's observation), on two realistic data sets
 * that ship in packages: TPC-H {@code orders} (io.trino.tpch) and the synthetic patients: per
 * compression (ZSTD, LZ4, DEFLATE) with and without a trained dictionary, the ratio of serialized
 * row bytes to stored pack bytes (compressed, encrypted: every pack pays AES-GCM's 29 bytes and a
 * header), beside the whole data set sealed as one pack. Dictionaries are trained on rows that are
 * not measured. No HBase; one thread.
 *
 * <p>Options: {@code --rows=N} measured rows per data set (20,000), {@code --training=N} rows the
 * dictionaries are trained on (20,000, before the measured ones), {@code --out=dir}. Run with
 * {@code ./mvnw -q -DskipTests -pl benchmarks -am package exec:exec@pack-compression}.
 */
public final class PackCompressionBenchmark {
  private static final int[] ROWS_PER_PACK = {1, 2, 5, 10, 20, 50, 100, 200};
  private static final byte[] F = "f".getBytes(StandardCharsets.UTF_8);

  /** One way of compressing. */
  private record Variant(String name, PackCompression compression, boolean dictionary) {}

  private static final List<Variant> VARIANTS = List.of(
      new Variant("ZSTD", PackCompression.ZSTD, false),
      new Variant("ZSTD + dictionary", PackCompression.ZSTD, true),
      new Variant("LZ4", PackCompression.LZ4, false),
      new Variant("DEFLATE", PackCompression.DEFLATE, false),
      new Variant("DEFLATE + dictionary", PackCompression.DEFLATE, true));

  private final PrintStream out = System.out;

  public static void main(String[] args) throws Exception {
    int rows = 20_000;
    int training = 20_000;
    Path outDir = null;
    for (String a : args) {
      String[] kv = a.replaceFirst("^--", "").split("=", 2);
      switch (kv[0]) {
        case "rows" -> rows = Integer.parseInt(kv[1]);
        case "training" -> training = Integer.parseInt(kv[1]);
        case "out" -> outDir = Path.of(kv[1]);
        default -> throw new IllegalArgumentException("unknown option " + a + " (options: --rows, --training, --out)");
      }
    }
    if (rows < 400 || training < 100) {
      throw new IllegalArgumentException("--rows must be at least 400 and --training at least 100");
    }
    new PackCompressionBenchmark().run(rows, training, outDir == null ? RunDirectories.newRunDirectory() : outDir,
        String.join(" ", args));
  }

  /** {@code count} rows of TPC-H orders (scale factor 1), one column per field. */
  static List<PackRows> orders(int count) {
    TpchTable<TpchEntity> orders = cast(TpchTable.ORDERS);
    List<TpchColumn<TpchEntity>> columns = orders.getColumns();
    List<PackRows> out = new ArrayList<>(count);
    Iterator<TpchEntity> it = orders.createGenerator(1.0, 1, 1).iterator();
    while (out.size() < count && it.hasNext()) {
      TpchEntity e = it.next();
      String[] fields = e.toLine().split("\\|");
      PackRows row = new PackRows();
      byte[] key = String.format(Locale.ROOT, "order-%010d", e.getRowNumber()).getBytes(StandardCharsets.UTF_8);
      for (int c = 0; c < columns.size() && c < fields.length; c++) {
        row.put(key, F, columns.get(c).getColumnName().getBytes(StandardCharsets.UTF_8),
            fields[c].getBytes(StandardCharsets.UTF_8));
      }
      out.add(row);
    }
    return out;
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private static TpchTable<TpchEntity> cast(TpchTable table) {
    return table;
  }

  /** {@code count} synthetic patients, every family and column. */
  static List<PackRows> patients(int count) {
    PatientGenerator generator = new PatientGenerator(42);
    List<PackRows> out = new ArrayList<>(count);
    for (long i = 0; i < count; i++) {
      Patient p = generator.patient(i);
      PackRows row = new PackRows();
      p.cells().forEach((family, columns) -> columns.forEach((q, v) -> row.put(p.rowKey(),
          family.getBytes(StandardCharsets.UTF_8), q.getBytes(StandardCharsets.UTF_8),
          v.getBytes(StandardCharsets.UTF_8))));
      out.add(row);
    }
    return out;
  }

  private static PackRows merge(List<PackRows> rows, int from, int to) {
    PackRows pack = new PackRows();
    for (int i = from; i < to; i++) {
      PackRows r = rows.get(i);
      for (byte[] k : r.keys()) {
        r.row(k).forEach((f, cols) -> cols.forEach((q, v) -> pack.put(k, f, q, v)));
      }
    }
    return pack;
  }

  /** Serialized bytes over sealed bytes for packs of {@code perPack} consecutive rows. */
  private static double ratio(PackCodec codec, PackDictionary dictionary, List<PackRows> rows, int perPack)
      throws GeneralSecurityException {
    long plain = 0;
    long stored = 0;
    for (int from = 0; from < rows.size(); from += perPack) {
      PackRows pack = merge(rows, from, Math.min(rows.size(), from + perPack));
      plain += PackDictionaries.sampleOf(pack).length;
      stored += codec.seal(pack.keys().first(), pack, dictionary).length;
    }
    return (double) plain / stored;
  }

  /** A way to pad packs, named for the table. */
  private record Padding(String name, PackPadding padding) {}

  private static final List<Padding> PADDINGS = List.of(
      new Padding("powers of 2 from 1 KiB", PackPadding.tiers(IntStream.rangeClosed(10, 24).map(e -> 1 << e).boxed()
          .toList())),
      new Padding("128 B-4 KiB by powers of 2 then 4 KiB steps (APPEND entries' default)",
          PackPadding.tiers(PackCodec.DEFAULT_ENTRY_PADDING_TIERS)),
      new Padding("Padmé (the default)", PackPadding.padme()));

  /** Per padding and rows per pack: percent more stored bytes than the same packs unpadded. */
  private void paddingCost(StringBuilder md, StringBuilder csv, String dataset, CryptoBox box, Variant v,
      PackDictionary dictionary, List<PackRows> measured, double[] unpadded) throws GeneralSecurityException {
    md.append(String.format(Locale.ROOT, "### Padding cost, %s, %s%n%n| rows per pack |", dataset, v.name()));
    for (Padding p : PADDINGS) {
      md.append(' ').append(p.name()).append(" |");
    }
    md.append("\n|---:|").append("---:|".repeat(PADDINGS.size())).append('\n');
    for (int i = 0; i < ROWS_PER_PACK.length; i++) {
      md.append("| ").append(ROWS_PER_PACK[i]).append(" |");
      for (Padding p : PADDINGS) {
        PackCodec padded = PackCodec.builder("bench", box).compression(v.compression()).padding(p.padding()).build();
        double ratio = ratio(padded, dictionary, measured, ROWS_PER_PACK[i]);
        md.append(String.format(Locale.ROOT, " +%.1f%% |", 100 * (unpadded[i] / ratio - 1)));
        csv.append(String.format(Locale.ROOT, "%s,%s padded (%s),%d,%.3f%n", dataset, v.name(), p.name(),
            ROWS_PER_PACK[i], ratio));
      }
      md.append('\n');
    }
    md.append('\n');
  }

  private void run(int rows, int trainingRows, Path outDir, String args) throws Exception {
    byte[] master = new byte[32];
    new SecureRandom().nextBytes(master);
    CryptoBox box = RandomizedBox.create(KeyProvider.fromMasterKey(master)
        .keyRing(KeyScope.layout("bench", "pack", BoxKind.STD), RandomizedBox.KEY_LENGTH_BYTES));
    Map<String, List<PackRows>> datasets = new LinkedHashMap<>();
    datasets.put("TPC-H orders", orders(trainingRows + rows));
    datasets.put("patients (synthetic)", patients(trainingRows + rows));
    StringBuilder md = new StringBuilder("# Pack compression against rows per pack, one run\n\n");
    StringBuilder csv = new StringBuilder("dataset,variant,rows_per_pack,ratio\n");
    for (Map.Entry<String, List<PackRows>> d : datasets.entrySet()) {
      List<PackRows> training = d.getValue().subList(0, trainingRows);
      List<PackRows> measured = d.getValue().subList(trainingRows, d.getValue().size());
      List<byte[]> samples = new ArrayList<>();
      for (PackRows r : training) {
        samples.add(PackDictionaries.sampleOf(r));
      }
      long rowBytes = measured.stream().mapToLong(r -> PackDictionaries.sampleOf(r).length).sum();
      md.append(String.format(Locale.ROOT, "## %s (%,d rows, %.0f bytes per serialized row)%n%n", d.getKey(),
          measured.size(), (double) rowBytes / measured.size()));
      md.append("| rows per pack |");
      for (Variant v : VARIANTS) {
        md.append(' ').append(v.name()).append(" |");
      }
      md.append("\n|---:|").append("---:|".repeat(VARIANTS.size())).append('\n');
      Map<Variant, double[]> ratios = new LinkedHashMap<>();
      Map<Variant, Double> whole = new LinkedHashMap<>();
      Map<Variant, PackDictionary> dictionaries = new LinkedHashMap<>();
      for (Variant v : VARIANTS) {
        PackCodec codec = PackCodec.builder("bench", box).compression(v.compression()).padding(PackPadding.none()).build();
        PackDictionary dictionary = v.dictionary()
            ? PackDictionaries.train(v.compression(), 1, samples, v.compression() == PackCompression.ZSTD ? 64 << 10
                : 32 << 10) : null;
        dictionaries.put(v, dictionary);
        double[] r = new double[ROWS_PER_PACK.length];
        for (int i = 0; i < ROWS_PER_PACK.length; i++) {
          r[i] = ratio(codec, dictionary, measured, ROWS_PER_PACK[i]);
          csv.append(String.format(Locale.ROOT, "%s,%s,%d,%.3f%n", d.getKey(), v.name(), ROWS_PER_PACK[i], r[i]));
        }
        ratios.put(v, r);
        whole.put(v, ratio(codec, null, measured, measured.size()));
        csv.append(String.format(Locale.ROOT, "%s,%s,all,%.3f%n", d.getKey(), v.name(), whole.get(v)));
        out.printf(Locale.ROOT, "%s, %s: 1 row %.2fx, 10 rows %.2fx, 50 rows %.2fx, whole %.2fx%n", d.getKey(),
            v.name(), r[0], r[3], r[5], whole.get(v));
      }
      for (int i = 0; i < ROWS_PER_PACK.length; i++) {
        md.append("| ").append(ROWS_PER_PACK[i]).append(" |");
        for (Variant v : VARIANTS) {
          double base = whole.get(new Variant(v.name().replace(" + dictionary", ""), v.compression(), false));
          md.append(String.format(Locale.ROOT, " %.2fx (%.0f%%) |", ratios.get(v)[i], 100 * ratios.get(v)[i] / base));
        }
        md.append('\n');
      }
      md.append("| whole data set, one pack |");
      for (Variant v : VARIANTS) {
        md.append(String.format(Locale.ROOT, " %.2fx |", whole.get(v)));
      }
      md.append("\n\n");
      for (Variant v : VARIANTS) {
        if (v.compression() == PackCompression.ZSTD) {
          paddingCost(md, csv, d.getKey(), box, v, dictionaries.get(v), measured, ratios.get(v));
        }
      }
    }
    md.append(String.format(Locale.ROOT, "Ratio: serialized row bytes over stored pack bytes (compressed, padded"
        + " to no tier, AES-GCM: 29 bytes and a 5-9 byte header per pack). In brackets: percent of the same"
        + " compression's whole-data-set ratio without a dictionary (all measured rows sealed as one pack; with a"
        + " dictionary the whole set is compressed without it). Dictionaries: trained on the %,d rows before the"
        + " measured ones, each row one sample (zstd: 64 KiB by ZDICT; DEFLATE: the last 32 KiB of samples). TPC-H"
        + " orders from io.trino.tpch at scale factor 1 (row key, 9 fields); patients from synthetic-data (the"
        + " reference schema's families and fields). %s. Arguments: %s%n", trainingRows, RunInfo.describe(),
        args.isEmpty() ? "(defaults)" : args));
    ResultFiles.write(outDir, "pack-compression", md, csv, out);
  }
}
