package dev.cryptoworker.cryptobox;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ServiceProvidersTest {
  /** A service no META-INF/services file of the class path names. */
  public interface Plugin {}

  public static final class LatePlugin implements Plugin {}

  @Test
  void findsProvidersOnlyTheContextLoaderSeesOncePerClass(@TempDir Path jar) throws Exception {
    Path services = jar.resolve("META-INF/services/" + Plugin.class.getName());
    Files.createDirectories(services.getParent());
    Files.writeString(services, LatePlugin.class.getName() + "\n");
    ClassLoader own = ServiceProvidersTest.class.getClassLoader();
    try (URLClassLoader executorJars = new URLClassLoader(new URL[] {jar.toUri().toURL()}, own)) {
      assertEquals(List.of(), ServiceProviders.load(Plugin.class, own, null), "the class path names no provider");
      List<Plugin> found = ServiceProviders.load(Plugin.class, own, executorJars);
      assertEquals(List.of(LatePlugin.class), found.stream().map(Object::getClass).toList());
      // The same provider class seen through two loaders is one provider.
      assertEquals(1, ServiceProviders.load(Plugin.class, executorJars, executorJars).size());
      Thread.currentThread().setContextClassLoader(executorJars);
      try {
        assertEquals(1, ServiceProviders.load(Plugin.class, ServiceProvidersTest.class).size());
      } finally {
        Thread.currentThread().setContextClassLoader(own);
      }
    }
  }
}
