package dev.cryptoworker.sharing;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The Vector API kernel against the scalar one (which XorScheduleTest checks against the
 * definition): byte-identical outputs for every schedule shape, on the same random inputs. Runs
 * with --add-modules jdk.incubator.vector (this module's surefire argLine).
 */
class VectorXorKernelTest {
  @Test
  void withTheIncubatorModuleTheVectorKernelRunsUnlessTurnedOff() {
    assertInstanceOf(VectorXorKernel.class, XorKernelChoice.SELECTED);
    assertInstanceOf(VectorXorKernel.class, XorKernelChoice.select(true, true));
    assertSame(ScalarXorKernel.INSTANCE, XorKernelChoice.select(true, false));
    assertSame(ScalarXorKernel.INSTANCE, XorKernelChoice.select(false, true));
  }

  @Test
  void vectorAndScalarKernelsGiveTheSameBytes() {
    SplittableRandom random = new SplittableRandom(19);
    List<XorScheduleShapes.Shape> shapes = new ArrayList<>(XorScheduleShapes.schemeMatrices());
    shapes.addAll(XorScheduleShapes.randomMatrices(random));
    VectorXorKernel vector = new VectorXorKernel();
    for (XorScheduleShapes.Shape shape : shapes) {
      int[][] c = shape.coefficients();
      XorSchedule scalarSchedule = XorSchedule.of(c, ScalarXorKernel.INSTANCE);
      XorSchedule vectorSchedule = XorSchedule.of(c, vector);
      for (int chunk : XorScheduleShapes.CHUNKS) {
        XorScheduleShapes.Chunks sources = XorScheduleShapes.sources(c[0].length, chunk, random);
        XorScheduleShapes.Chunks expected = XorScheduleShapes.outputs(c.length, chunk, random);
        XorScheduleShapes.Chunks actual = XorScheduleShapes.outputs(c.length, chunk, random);
        scalarSchedule.run(sources.arrays(), sources.offsets(), expected.arrays(), expected.offsets(), chunk);
        vectorSchedule.run(sources.arrays(), sources.offsets(), actual.arrays(), actual.offsets(), chunk);
        for (int o = 0; o < c.length; o++) {
          // Only the outputs' chunks: the bytes around them were random and differ.
          int e = expected.offsets()[o];
          int a = actual.offsets()[o];
          assertArrayEquals(Arrays.copyOfRange(expected.arrays()[o], e, e + chunk),
              Arrays.copyOfRange(actual.arrays()[o], a, a + chunk), shape.name() + ", chunk " + chunk + ", output " + o);
        }
      }
    }
  }
}
