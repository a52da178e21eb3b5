package dev.cryptoworker.testing;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.Tag;

/**
 * Marks a test that starts HBase clusters of its own instead of using {@link SharedHBaseCluster}'s.
 * The full suite runs these; the quick loop ({@code -Pquick}) leaves them out.
 */
@Target({ElementType.TYPE, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
@Tag(OwnClusters.TAG)
public @interface OwnClusters {
  /** The JUnit tag, for {@code -DexcludedGroups} and {@code -Dgroups}. */
  String TAG = "clusters";
}
