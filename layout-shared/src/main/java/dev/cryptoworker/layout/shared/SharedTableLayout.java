package dev.cryptoworker.layout.shared;

import dev.cryptoworker.schema.TableLayout;
import dev.cryptoworker.sharing.SharingKind;
import dev.cryptoworker.sharing.SharingParameters;
import java.util.List;
import java.util.Objects;

/**
 * The SHARED layout's settings ({@code layout: { type: SHARED, ... }}): each value split into
 * {@code parameters.n()} shares by {@code scheme}, share i stored on {@code clusters.get(i)}; the
 * columns {@code summed} ({@code family:qualifier}) are split by {@link SharingKind#SHAMIR_P127}
 * instead, with the same parameters, so that the region servers can sum them.
 */
public record SharedTableLayout(SharingKind scheme, SharingParameters parameters, List<String> clusters,
    List<String> summed) implements TableLayout {
  /** The layout's name in schemas. */
  public static final String TYPE = "SHARED";

  public SharedTableLayout {
    Objects.requireNonNull(scheme, "scheme");
    Objects.requireNonNull(parameters, "parameters");
    clusters = List.copyOf(clusters);
    summed = List.copyOf(summed);
  }

  /** Every column split by {@code scheme}. */
  public SharedTableLayout(SharingKind scheme, SharingParameters parameters, List<String> clusters) {
    this(scheme, parameters, clusters, List.of());
  }

  /** Whether the region servers can sum some column: the scheme, or the summed columns' one, adds shares. */
  boolean sumsShares() {
    return scheme.sumsShares() || !summed.isEmpty();
  }

  @Override
  public String type() {
    return TYPE;
  }
}
