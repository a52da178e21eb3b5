package dev.cryptoworker.region;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class CountCellsFirstTest {
  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.US_ASCII);
  }

  @Test
  void cellsRoundTripFieldByField() {
    List<CountCellsFirst.CounterCell> cells = List.of(
        new CountCellsFirst.CounterCell(bytes("row-1"), bytes("c"), bytes("sse"), 1_700_000_000_000L, new byte[] {1, 2}),
        new CountCellsFirst.CounterCell(bytes("batch"), bytes("c"), CountLogCells.QUALIFIER, 0L, new byte[0]));
    List<CountCellsFirst.CounterCell> back = CountCellsFirst.decode(CountCellsFirst.encode(cells));
    assertEquals(cells.size(), back.size());
    for (int i = 0; i < cells.size(); i++) {
      assertArrayEquals(cells.get(i).row(), back.get(i).row());
      assertArrayEquals(cells.get(i).family(), back.get(i).family());
      assertArrayEquals(cells.get(i).qualifier(), back.get(i).qualifier());
      assertEquals(cells.get(i).timestamp(), back.get(i).timestamp());
      assertArrayEquals(cells.get(i).value(), back.get(i).value());
    }
  }

  @Test
  void malformedValuesAreRefusedByReason() {
    byte[] good = CountCellsFirst.encode(
        List.of(new CountCellsFirst.CounterCell(bytes("r"), bytes("c"), bytes("q"), 5L, bytes("v"))));
    assertTrue(assertThrows(IllegalArgumentException.class, () -> CountCellsFirst.decode(new byte[0]))
        .getMessage().contains("end early"));
    byte[] version = good.clone();
    version[0] = 9;
    assertTrue(assertThrows(IllegalArgumentException.class, () -> CountCellsFirst.decode(version))
        .getMessage().contains("unknown version 9"));
    assertTrue(assertThrows(IllegalArgumentException.class,
        () -> CountCellsFirst.decode(Arrays.copyOf(good, good.length - 1))).getMessage().contains("past its end"));
    assertTrue(assertThrows(IllegalArgumentException.class,
        () -> CountCellsFirst.decode(Arrays.copyOf(good, good.length + 1))).getMessage().contains("bytes after"));
    byte[] none = {1, 0, 0, 0, 0};
    assertTrue(assertThrows(IllegalArgumentException.class, () -> CountCellsFirst.decode(none))
        .getMessage().contains("not 0"));
    assertThrows(IllegalArgumentException.class, () -> CountCellsFirst.encode(List.of()));
    // a Put refuses these with a runtime exception, which a region observer must never throw
    byte[] emptyRow = CountCellsFirst.encode(
        List.of(new CountCellsFirst.CounterCell(new byte[0], bytes("c"), bytes("q"), 5L, bytes("v"))));
    assertTrue(assertThrows(IllegalArgumentException.class, () -> CountCellsFirst.decode(emptyRow))
        .getMessage().contains("empty row or family"));
    byte[] negative = CountCellsFirst.encode(
        List.of(new CountCellsFirst.CounterCell(bytes("r"), bytes("c"), bytes("q"), -1L, bytes("v"))));
    assertTrue(assertThrows(IllegalArgumentException.class, () -> CountCellsFirst.decode(negative))
        .getMessage().contains("timestamp is -1"));
  }
}
