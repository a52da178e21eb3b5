package dev.cryptoworker.sharing;

/**
 * Picks the {@link XorKernel} once per JVM: the Vector API one when the JVM was started with
 * {@code --add-modules jdk.incubator.vector} and the module secret-sharing-vector is on the class
 * path, else the scalar one. The vector class is loaded by name only after the module check, so a
 * JVM without the incubator module never loads a class that refers to it. {@code
 * -Dcryptoworker.sharing.vector=false} keeps the scalar kernel anyway.
 */
final class XorKernelChoice {
  static final String PROPERTY = "cryptoworker.sharing.vector";
  static final String VECTOR_MODULE = "jdk.incubator.vector";
  static final String VECTOR_KERNEL = "dev.cryptoworker.sharing.VectorXorKernel";

  static final XorKernel SELECTED = select(ModuleLayer.boot().findModule(VECTOR_MODULE).isPresent(),
      Boolean.parseBoolean(System.getProperty(PROPERTY, "true")));

  private XorKernelChoice() {}

  /** The vector kernel if the incubator module is loaded, vectors are allowed and the class is there; else scalar. */
  static XorKernel select(boolean vectorModuleLoaded, boolean vectorAllowed) {
    if (!vectorModuleLoaded || !vectorAllowed) {
      return ScalarXorKernel.INSTANCE;
    }
    try {
      return (XorKernel) Class.forName(VECTOR_KERNEL).getDeclaredConstructor().newInstance();
    } catch (ClassNotFoundException e) {
      return ScalarXorKernel.INSTANCE; // the module is loaded but secret-sharing-vector is not on the class path
    } catch (ReflectiveOperationException | LinkageError e) {
      System.getLogger(XorKernelChoice.class.getName())
          .log(System.Logger.Level.WARNING, "Vector API kernel unusable, using the scalar one", e);
      return ScalarXorKernel.INSTANCE;
    }
  }
}
