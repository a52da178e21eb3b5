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
 *   <li>{@link Mode#AS_BUILT}: the calls as the client makes them (an Increment of 0 to read, one
 *       Increment to add); only counted.
 *   <li>{@link Mode#READ_BY_GET}: the read is a Get, which writes nothing (no row lock, no WAL
 *       entry), so that the counter row's write work on the read can be told from its round trip.
 *   <li>{@link Mode#ONE_ROUND_TRIP}: the read is answered from the counts the last add returned,
 *       without a call, and the add is the same Increment inside one checkAndMutate that applies it
 *       only if the stored counts still equal those the plan read. That keeps the guarantee: a plan never builds
 *       on counts another writer has moved; such a writer makes the check fail, and a client would
 *       then read and plan again. One writer runs here, so a failed check is counted and fails the run.
 * </ul>
 *
 * The shared counts are the counter table's only {@code increment(Increment)} calls here (ASHE
 * identifier leases call {@code incrementColumnValue}, which passes through, as every other call).
 */
final class CounterTableControl {
  enum Mode { AS_BUILT, READ_BY_GET, ONE_ROUND_TRIP }

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
    if (!method.getName().equals("increment")) {
      return method.invoke(table, args);
    }
    Increment increment = (Increment) args[0];
    Map<ByteBuffer, Long> deltas = deltas(increment);
    boolean read = deltas.values().stream().allMatch(d -> d == 0);
    (read ? reads : adds).increment();
    return switch (mode) {
      case AS_BUILT -> counted(() -> table.increment(increment));
      case READ_BY_GET -> read ? readByGet(table, increment) : counted(() -> table.increment(increment));
      case ONE_ROUND_TRIP -> read ? readLast(table, increment) : addIfUnchanged(table, increment, deltas);
    };
  }

  private Result readByGet(Table table, Increment increment) throws IOException {
    Get get = new Get(increment.getRow());
    for (Cell c : cells(increment)) {
      get.addColumn(HBaseIdentifierSource.FAMILY, CellUtil.cloneQualifier(c));
    }
    Result got = counted(() -> table.get(get));
    // The first plan finds no counts yet; the Increment of 0 creates them.
    return got.size() == cells(increment).size() ? got : counted(() -> table.increment(increment));
  }

  private Result readLast(Table table, Increment increment) throws IOException {
    Map<ByteBuffer, Long> last = lastCounts.get(ByteBuffer.wrap(increment.getRow()));
    if (last == null) {
      return remember(increment.getRow(), counted(() -> table.increment(increment)));
    }
    return result(increment.getRow(), last);
  }

  private Result addIfUnchanged(Table table, Increment increment, Map<ByteBuffer, Long> deltas) throws IOException {
    byte[] row = increment.getRow();
    Map<ByteBuffer, Long> last = lastCounts.get(ByteBuffer.wrap(row));
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
