package dev.cryptoworker.client.spi;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The services layouts keep per connection ({@link LayoutContext#connectionService}), one per type,
 * closed in reverse order of creation when the connection closes. Thread-safe.
 */
public final class ConnectionServices implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ConnectionServices.class);

  private final Map<Class<?>, AutoCloseable> services = new LinkedHashMap<>();
  private boolean closed;

  synchronized <S extends AutoCloseable> S get(Class<S> type, Supplier<S> create) {
    if (closed) {
      throw new IllegalStateException("the SecureConnection is closed");
    }
    AutoCloseable service = services.get(type);
    if (service == null) {
      service = create.get();
      services.put(type, service);
    }
    return type.cast(service);
  }

  /** Closes every service; a failure is logged, and the others are still closed. */
  @Override
  public void close() {
    List<AutoCloseable> toClose;
    synchronized (this) {
      closed = true;
      toClose = new ArrayList<>(services.values());
      services.clear();
    }
    for (int i = toClose.size() - 1; i >= 0; i--) {
      try {
        toClose.get(i).close();
      } catch (Exception e) {
        LOG.warn("closing a layout's connection service {} failed: {}", toClose.get(i).getClass().getName(),
            e.toString());
      }
    }
  }
}
