package dev.cryptoworker.testing;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.Tag;

/**
 * Marks a test that injects a fault: it kills a server, a cluster, a client or a worker mid-operation.
 * The full suite runs these; the quick loop ({@code -Pquick}) leaves them out.
 */
@Target({ElementType.TYPE, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
@Tag(FaultInjection.TAG)
public @interface FaultInjection {
  /** The JUnit tag, for {@code -DexcludedGroups} and {@code -Dgroups}. */
  String TAG = "fault";
}
