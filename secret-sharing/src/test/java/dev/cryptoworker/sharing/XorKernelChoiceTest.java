package dev.cryptoworker.sharing;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;

import org.junit.jupiter.api.Test;

/** Without the incubator module (this module's tests run without it) the scalar kernel runs. */
class XorKernelChoiceTest {
  @Test
  void withoutTheIncubatorModuleTheScalarKernelRuns() {
    assertFalse(ModuleLayer.boot().findModule(XorKernelChoice.VECTOR_MODULE).isPresent());
    assertSame(ScalarXorKernel.INSTANCE, XorKernelChoice.SELECTED);
    assertSame(ScalarXorKernel.INSTANCE, XorKernelChoice.select(false, true));
  }

  @Test
  void theModuleWithoutTheVectorJarOrWithVectorsTurnedOffGivesTheScalarKernel() {
    assertSame(ScalarXorKernel.INSTANCE, XorKernelChoice.select(true, true)); // secret-sharing-vector not on this class path
    assertSame(ScalarXorKernel.INSTANCE, XorKernelChoice.select(true, false));
  }
}
