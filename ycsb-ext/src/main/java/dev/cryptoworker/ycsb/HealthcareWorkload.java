package dev.cryptoworker.ycsb;

import dev.cryptoworker.synthetic.AppointmentGenerator;
import dev.cryptoworker.synthetic.PatientGenerator;
import java.time.Duration;
import java.time.LocalDateTime;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import java.util.SplittableRandom;
import java.util.Vector;
import org.apache.hadoop.hbase.CompareOperator;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.filter.BinaryComparator;
import org.apache.hadoop.hbase.filter.FilterList;
import org.apache.hadoop.hbase.filter.SingleColumnValueFilter;
import org.apache.hadoop.hbase.util.Bytes;
import site.ycsb.ByteIterator;
import site.ycsb.DB;
import site.ycsb.StringByteIterator;
import site.ycsb.WorkloadException;
import site.ycsb.generator.DiscreteGenerator;
import site.ycsb.workloads.CoreWorkload;

/**
 * YCSB's core workload over the reference healthcare tables, with realistic seeded records
 * (Patients or Appointments; the same seed gives the same data on both sides) and two extra
 * operations:
 *
 * <ul>
 *   <li>QEF ({@code qefproportion}): a Scan with SingleColumnValueFilter EQUAL on {@code qef.column}
 *       with a value that exists (the value of a record drawn by the request distribution);
 *   <li>QRF ({@code qrfproportion}): a Scan with GREATER_OR_EQUAL and LESS on {@code qrf.column}
 *       over {@code qrf.window.days} days starting at a date uniform in 2015-2020.
 * </ul>
 *
 * <p>Both load column families on demand: other families are read only for matching rows.
 *
 * <p>Properties: {@code healthcare.records} ({@code patients} or {@code appointments}),
 * {@code healthcare.seed}, {@code healthcare.physicians}, plus YCSB's usual ones. Keys are the
 * records' ids ({@code P0000042}, {@code A0000042}).
 */
public class HealthcareWorkload extends CoreWorkload {
  private String records;
  private long seed;
  private int physicians;
  private DiscreteGenerator chooser;
  private byte[][] qefColumn;
  private byte[][] qrfColumn;
  private int windowDays;
  private final SplittableRandom random = new SplittableRandom();

  @Override
  public void init(Properties p) throws WorkloadException {
    super.init(p);
    records = p.getProperty("healthcare.records", "patients");
    if (!records.equals("patients") && !records.equals("appointments")) {
      throw new WorkloadException("healthcare.records must be patients or appointments, got " + records);
    }
    seed = Long.parseLong(p.getProperty("healthcare.seed", "1"));
    physicians = Integer.parseInt(p.getProperty("healthcare.physicians", "200"));
    windowDays = Integer.parseInt(p.getProperty("qrf.window.days", "30"));
    qefColumn = column(p.getProperty("qef.column", defaultQefColumn(records)));
    qrfColumn = column(p.getProperty("qrf.column", "appointment:date"));
    chooser = new DiscreteGenerator();
    String[][] ops = {{"READ", "readproportion", "0.95"}, {"UPDATE", "updateproportion", "0.05"},
        {"INSERT", "insertproportion", "0"}, {"SCAN", "scanproportion", "0"},
        {"READMODIFYWRITE", "readmodifywriteproportion", "0"}, {"QEF", "qefproportion", "0"},
        {"QRF", "qrfproportion", "0"}};
    for (String[] op : ops) {
      double share = Double.parseDouble(p.getProperty(op[1], op[2]));
      if (share > 0) {
        chooser.addValue(share, op[0]);
      }
    }
  }

  /**
   * The column QEF filters on unless {@code qef.column} says otherwise: {@code family:qualifier} of
   * the reference schema's equality-searched column for {@code records}.
   */
  public static String defaultQefColumn(String records) {
    return records.equals("patients") ? "identification:mainId" : "physician:physicianId";
  }

  private static byte[][] column(String spec) {
    int colon = spec.indexOf(':');
    return new byte[][] {Bytes.toBytes(spec.substring(0, colon)), Bytes.toBytes(spec.substring(colon + 1))};
  }

  @Override
  protected String buildKeyName(long keynum) {
    return records.equals("patients") ? PatientGenerator.patientId(keynum) : AppointmentGenerator.appointmentId(keynum);
  }

  /** The full record of {@code keynum}, as YCSB fields {@code family:qualifier}. */
  Map<String, Map<String, String>> record(long keynum) {
    return records.equals("patients")
        ? new PatientGenerator(seed).patient(keynum).cells()
        : new AppointmentGenerator(seed, physicians).appointment(keynum).cells();
  }

  /**
   * Record {@code keynum} as the row the load phase inserts, byte for byte (for loads that bypass
   * YCSB, such as bulk loads).
   */
  public Put recordPut(long keynum) {
    Put put = new Put(Bytes.toBytes(buildKeyName(keynum)));
    record(keynum).forEach((family, cells) -> cells.forEach((q, v) ->
        put.addColumn(Bytes.toBytes(family), Bytes.toBytes(q), new StringByteIterator(v).toArray())));
    return put;
  }

  /** The row key of record {@code keynum}. */
  public String rowKey(long keynum) {
    return buildKeyName(keynum);
  }

  private HashMap<String, ByteIterator> values(long keynum) {
    HashMap<String, ByteIterator> out = new HashMap<>();
    record(keynum).forEach((family, cells) -> cells.forEach((q, v) -> out.put(family + ":" + q, new StringByteIterator(v))));
    return out;
  }

  @Override
  public boolean doInsert(DB db, Object threadstate) {
    long keynum = keysequence.nextValue().longValue();
    return db.insert(table, buildKeyName(keynum), values(keynum)).isOk();
  }

  private long existingKey() {
    long keynum;
    do {
      keynum = keychooser.nextValue().longValue();
    } while (keynum > transactioninsertkeysequence.lastValue());
    return keynum;
  }

  @Override
  public boolean doTransaction(DB db, Object threadstate) {
    switch (chooser.nextValue()) {
      case "READ" -> db.read(table, buildKeyName(existingKey()), null, new HashMap<>());
      case "UPDATE" -> doTransactionUpdate(db);
      case "INSERT" -> doTransactionInsert(db);
      case "SCAN" -> doTransactionScan(db);
      case "READMODIFYWRITE" -> doTransactionReadModifyWrite(db);
      case "QEF" -> qef(db);
      default -> qrf(db);
    }
    return true;
  }

  @Override
  public void doTransactionUpdate(DB db) {
    long keynum = existingKey();
    db.update(table, buildKeyName(keynum), values(keynum));
  }

  @Override
  public void doTransactionInsert(DB db) {
    long keynum = transactioninsertkeysequence.nextValue();
    try {
      db.insert(table, buildKeyName(keynum), values(keynum));
    } finally {
      transactioninsertkeysequence.acknowledge(keynum);
    }
  }

  /** One operation, counted and timed once by an {@link ObservedDb} (see there). */
  @Override
  public void doTransactionReadModifyWrite(DB db) {
    long keynum = existingKey();
    ObservedDb.readModifyWrite(db, table, buildKeyName(keynum), values(keynum));
  }

  /**
   * A scan for a column-value filter: the region server reads the filter's family for every row
   * and the others only for matching rows (HBase's essential column families), as a tuned
   * deployment would; the same on both sides.
   */
  private static Scan filterScan() {
    return new Scan().setCaching(1000).setLoadColumnFamiliesOnDemand(true);
  }

  /** An equality filter on a value that exists. */
  void qef(DB db) {
    String value = record(existingKey()).get(Bytes.toString(qefColumn[0])).get(Bytes.toString(qefColumn[1]));
    SingleColumnValueFilter f = new SingleColumnValueFilter(qefColumn[0], qefColumn[1], CompareOperator.EQUAL,
        new BinaryComparator(Bytes.toBytes(value)));
    f.setFilterIfMissing(true);
    ((FilterScans) db).filterScan(table, "QEF", filterScan().setFilter(f), new Vector<>());
  }

  /** A date-range filter: {@code qrf.window.days} days from a start uniform in 2015-2020. */
  void qrf(DB db) {
    long span = Duration.between(AppointmentGenerator.FIRST, AppointmentGenerator.END).toDays() - windowDays;
    LocalDateTime from = AppointmentGenerator.FIRST.plusDays(random.nextLong(span));
    Scan scan = filterScan().setFilter(qrfFilter(from, from.plusDays(windowDays)));
    ((FilterScans) db).filterScan(table, "QRF", scan, new Vector<>());
  }

  FilterList qrfFilter(LocalDateTime from, LocalDateTime to) {
    SingleColumnValueFilter lo = new SingleColumnValueFilter(qrfColumn[0], qrfColumn[1], CompareOperator.GREATER_OR_EQUAL,
        new BinaryComparator(Bytes.toBytes(from.format(AppointmentGenerator.DATE))));
    SingleColumnValueFilter hi = new SingleColumnValueFilter(qrfColumn[0], qrfColumn[1], CompareOperator.LESS,
        new BinaryComparator(Bytes.toBytes(to.format(AppointmentGenerator.DATE))));
    lo.setFilterIfMissing(true);
    hi.setFilterIfMissing(true);
    return new FilterList(lo, hi);
  }
}
