package dev.cryptoworker.cryptobox;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.ServiceLoader;
import java.util.Set;

/**
 * Providers of a service ({@link ServiceLoader}) seen from two class loaders: the one that loaded
 * the owner of the registry, and the current thread's context class loader. The second is where
 * plug-ins added at run time live: a Spark executor loads an application's jars in a child loader
 * that the classes on its own class path cannot see.
 */
public final class ServiceProviders {
  private ServiceProviders() {}

  /** Providers of {@code service} seen by {@code owner}'s loader, then by the context loader; one per class. */
  public static <T> List<T> load(Class<T> service, Class<?> owner) {
    return load(service, owner.getClassLoader(), Thread.currentThread().getContextClassLoader());
  }

  /** Providers of {@code service} seen by each of {@code loaders} (nulls skipped), one per class. */
  static <T> List<T> load(Class<T> service, ClassLoader... loaders) {
    List<T> out = new ArrayList<>();
    Set<Class<?>> seen = new LinkedHashSet<>();
    for (ClassLoader loader : loaders) {
      if (loader == null) {
        continue;
      }
      for (T provider : ServiceLoader.load(service, loader)) {
        if (seen.add(provider.getClass())) {
          out.add(provider);
        }
      }
    }
    return out;
  }
}
