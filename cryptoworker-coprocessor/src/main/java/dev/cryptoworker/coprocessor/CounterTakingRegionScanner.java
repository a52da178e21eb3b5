package dev.cryptoworker.coprocessor;

import dev.cryptoworker.region.CounterTakeRequest;
import dev.cryptoworker.region.CounterTakeRequest.Take;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellBuilderFactory;
import org.apache.hadoop.hbase.CellBuilderType;
import org.apache.hadoop.hbase.DoNotRetryIOException;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.client.Increment;
import org.apache.hadoop.hbase.client.Mutation;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.regionserver.OperationStatus;
import org.apache.hadoop.hbase.regionserver.Region;
import org.apache.hadoop.hbase.regionserver.RegionScanner;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * Answers a {@link CounterTakeRequest}: applies the takes whose rows this region holds as one batch
 * of Increments (one write-ahead-log sync, each row locked as an Increment locks it), then returns
 * one answer row per take, in row order. A counter created by its take starts from the take's
 * initial value ({@link RegionRequestObserver#postIncrementBeforeWAL}). Takes of rows outside the
 * region are left to the regions that hold them, which the same scan reaches next.
 */
final class CounterTakingRegionScanner extends AnsweringRegionScanner {
  /** The Increment attribute that carries a take's initial value to the observer. */
  static final String INITIAL_ATTRIBUTE = "cryptoworker.counter.initial";
  /** The mark the observer leaves on an Increment that created its counter from the initial value. */
  static final String CREATED_ATTRIBUTE = "cryptoworker.counter.created";
  static final byte[] CREATED = {1};

  private final List<Cell> answers;
  private int next;

  private CounterTakingRegionScanner(RegionScanner delegate, List<Cell> answers) {
    super("a counter take cannot reseek", delegate);
    this.answers = answers;
  }

  /** Applies {@code request}'s takes in {@code region}; the scanner then returns their answers. */
  static RegionScanner open(Region region, RegionScanner delegate, CounterTakeRequest request) throws IOException {
    RegionInfo info = region.getRegionInfo();
    List<Take> mine = new ArrayList<>();
    for (Take t : request.takes()) {
      if (info.containsRow(t.row())) {
        mine.add(t);
      }
    }
    mine.sort(Comparator.comparing(Take::row, Bytes.BYTES_COMPARATOR));
    for (int i = 1; i < mine.size(); i++) {
      if (Arrays.equals(mine.get(i - 1).row(), mine.get(i).row())) {
        throw new DoNotRetryIOException("refused counter take request: row " + Bytes.toStringBinary(mine.get(i).row())
            + " is taken from twice (one take per counter and request)");
      }
    }
    Mutation[] increments = new Mutation[mine.size()];
    for (int i = 0; i < mine.size(); i++) {
      Take t = mine.get(i);
      Increment inc = new Increment(t.row()).addColumn(request.family(), request.qualifier(), t.amount());
      if (t.initial() != null) {
        inc.setAttribute(INITIAL_ATTRIBUTE, Bytes.toBytes(t.initial()));
      }
      increments[i] = inc;
    }
    OperationStatus[] statuses = increments.length == 0 ? new OperationStatus[0] : region.batchMutate(increments);
    List<Cell> answers = new ArrayList<>(mine.size());
    for (int i = 0; i < mine.size(); i++) {
      OperationStatus s = statuses[i];
      byte[] row = mine.get(i).row();
      if (s.getOperationStatusCode() != HConstants.OperationStatusCode.SUCCESS || s.getResult() == null) {
        throw new IOException("region " + info.getRegionNameAsString() + ": the take from counter "
            + Bytes.toStringBinary(row) + " failed: " + s.getOperationStatusCode() + " " + s.getExceptionMsg());
      }
      Cell counter = s.getResult().getColumnLatestCell(request.family(), request.qualifier());
      if (counter == null || counter.getValueLength() != Bytes.SIZEOF_LONG) {
        throw new DoNotRetryIOException("region " + info.getRegionNameAsString() + ": counter "
            + Bytes.toStringBinary(row) + " does not hold an 8-byte count");
      }
      // HBase's result is the value before the observer started a created counter from its initial value.
      long value = Bytes.toLong(counter.getValueArray(), counter.getValueOffset())
          + (increments[i].getAttribute(CREATED_ATTRIBUTE) != null ? mine.get(i).initial() : 0);
      answers.add(CellBuilderFactory.create(CellBuilderType.DEEP_COPY).setRow(row).setFamily(request.family())
          .setQualifier(CounterTakeRequest.ANSWER_QUALIFIER).setTimestamp(counter.getTimestamp()).setType(Cell.Type.Put)
          .setValue(Bytes.toBytes(value)).build());
    }
    return new CounterTakingRegionScanner(delegate, answers);
  }

  @Override
  public boolean nextRaw(List<Cell> result) {
    if (next < answers.size()) {
      result.add(answers.get(next++));
    }
    return next < answers.size();
  }

  @Override
  public boolean isFilterDone() {
    return next >= answers.size();
  }
}
