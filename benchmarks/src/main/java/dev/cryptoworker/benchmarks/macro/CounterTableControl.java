package dev.cryptoworker.benchmarks.macro;

import dev.cryptoworker.client.codec.HBaseIdentifierSource;
import java.io.IOException;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellBuilderFactory;
import org.apache.hadoop.hbase.CellBuilderType;
import org.apache.hadoop.hbase.CellComparator;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.CompareOperator;
import org.apache.hadoop.hbase.client.CheckAndMutate;
import org.apache.hadoop.hbase.client.CheckAndMutateResult;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Increment;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.filter.FilterList;
import org.apache.hadoop.hbase.filter.SingleColumnValueFilter;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * A connection whose counter table ({@code cryptoworker_ids}) counts the shared-count calls an
 * enhanced SPLASHE plan makes, and, for the controls, makes them another way. The plan itself is
 * unchanged: it still reads the counts, chooses its pads from them, and adds its tokens, own rows'
 * and pads together.
 *
 * <ul>
 *   <li>{@link Mode#AS_BUILT}: the calls as the client makes them (a Get to read, one Increment to
 *       add); only counted. (Until the read was a Get, a control ran it so: the Increment of 0 it
 *       replaced is in splashe-counts.md at 265c8f8.)
 *   <li>{@link Mode#ONE_ROUND_TRIP}: the read is answered from the counts the last add returned,
 *       without a call, and the add is the same Increment inside one checkAndMutate that applies it
 *       only if the stored counts still equal those the plan read. A plan never builds on counts
 *       another writer has moved: such a writer makes the check fail, and a client would then read
 *       and plan again. One writer runs here, so a failed check fails the run.
 * </ul>
 *
 * The shared counts are the counter table's only {@code increment(Increment)} calls here (ASHE
 * identifier leases call {@code incrementColumnValue}, which passes through, as every other call).
 */
final class CounterTableControl {
  enum Mode { AS_BUILT, ONE_ROUND_TRIP }

  private final Mode mode;
  private final Map<ByteBuffer, Map<ByteBuffer, Long>> lastCounts = new ConcurrentHashMap<>();
  final LongAdder reads = new LongAdder();
  final LongAdder adds = new LongAdder();
  final LongAdder calls = new LongAdder();

  CounterTableControl(Mode mode) {
    this.mode = mode;
  }

  /** {@code connection} with its counter table's shared-count calls handled by this control. */
  Connection wrap(Connection connection) {
    return proxy(Connection.class, connection, (method, args) -> {
      Object result = method.invoke(connection, args);
      boolean counterTable = method.getName().equals("getTable") && HBaseIdentifierSource.TABLE.equals(args[0]);
      return counterTable ? proxy(Table.class, (Table) result, (m, a) -> call((Table) result, m, a)) : result;
    });
  }

  private Object call(Table table, Method method, Object[] args) throws Exception {
    if (method.getName().equals("get") && args.length == 1 && args[0] instanceof Get get) {
      reads.increment();
      return mode == Mode.ONE_ROUND_TRIP ? readLast(table, get) : counted(() -> table.get(get));
    }
    if (!method.getName().equals("increment")) {
      return method.invoke(table, args);
    }
    Increment increment = (Increment) args[0];
    adds.increment();
    return mode == Mode.ONE_ROUND_TRIP ? addIfUnchanged(table, increment, deltas(increment))
        : counted(() -> table.increment(increment));
  }

  private Result readLast(Table table, Get get) throws IOException {
    Map<ByteBuffer, Long> last = lastCounts.get(ByteBuffer.wrap(get.getRow()));
    return last == null ? remember(get.getRow(), counted(() -> table.get(get))) : result(get.getRow(), last);
  }

  private Result addIfUnchanged(Table table, Increment increment, Map<ByteBuffer, Long> deltas) throws IOException {
    byte[] row = increment.getRow();
    Map<ByteBuffer, Long> last = lastCounts.get(ByteBuffer.wrap(row));
    if (last == null || !last.keySet().containsAll(deltas.keySet())) {
      // No counts stored yet (the first plan): nothing to compare, the add creates them.
      return remember(row, counted(() -> table.increment(increment)));
    }
    FilterList unchanged = new FilterList(FilterList.Operator.MUST_PASS_ALL);
    for (ByteBuffer column : deltas.keySet()) {
      SingleColumnValueFilter equal = new SingleColumnValueFilter(HBaseIdentifierSource.FAMILY,
          Bytes.getBytes(column.duplicate()), CompareOperator.EQUAL, Bytes.toBytes(last.get(column)));
      equal.setFilterIfMissing(true);
      unchanged.addFilter(equal);
    }
    // The add stays an Increment (the cells' timestamps as the client's own adds give them), made conditional.
    CheckAndMutateResult done = counted(() -> table.checkAndMutate(CheckAndMutate.newBuilder(row)
        .ifMatches(unchanged).build(increment)));
    if (!done.isSuccess()) {
      throw new IllegalStateException("the shared counts moved between two plans of the only writer");
    }
    return remember(row, done.getResult());
  }

  private Result remember(byte[] row, Result counts) {
    Map<ByteBuffer, Long> values = new HashMap<>();
    for (Cell c : counts.rawCells()) {
      values.put(ByteBuffer.wrap(CellUtil.cloneQualifier(c)), Bytes.toLong(CellUtil.cloneValue(c)));
    }
    lastCounts.put(ByteBuffer.wrap(row), values);
    return counts;
  }

  private static Result result(byte[] row, Map<ByteBuffer, Long> counts) {
    List<Cell> cells = new ArrayList<>();
    counts.forEach((column, count) -> cells.add(CellBuilderFactory.create(CellBuilderType.DEEP_COPY).setRow(row)
        .setFamily(HBaseIdentifierSource.FAMILY).setQualifier(Bytes.getBytes(column.duplicate()))
        .setTimestamp(Long.MAX_VALUE).setType(Cell.Type.Put).setValue(Bytes.toBytes(count)).build()));
    cells.sort(CellComparator.getInstance());
    return Result.create(cells);
  }

  private static List<Cell> cells(Increment increment) {
    NavigableMap<byte[], List<Cell>> map = increment.getFamilyCellMap();
    return map.getOrDefault(HBaseIdentifierSource.FAMILY, List.of());
  }

  private static Map<ByteBuffer, Long> deltas(Increment increment) {
    Map<ByteBuffer, Long> out = new HashMap<>();
    for (Cell c : cells(increment)) {
      out.put(ByteBuffer.wrap(CellUtil.cloneQualifier(c)), Bytes.toLong(CellUtil.cloneValue(c)));
    }
    return out;
  }

  private interface Call<T> {
    T run() throws IOException;
  }

  /** One round trip to the counter table, counted. */
  private <T> T counted(Call<T> call) throws IOException {
    calls.increment();
    return call.run();
  }

  private interface Handler {
    Object handle(Method method, Object[] args) throws Exception;
  }

  private static <T> T proxy(Class<T> type, T target, Handler handler) {
    InvocationHandler h = (p, method, args) -> {
      try {
        return handler.handle(method, args == null ? new Object[0] : args);
      } catch (InvocationTargetException e) {
        throw e.getCause();
      }
    };
    return type.cast(Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type}, h));
  }
}
