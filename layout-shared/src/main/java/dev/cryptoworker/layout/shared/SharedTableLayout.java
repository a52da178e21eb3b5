package dev.cryptoworker.layout.shared;

import dev.cryptoworker.schema.TableLayout;
import dev.cryptoworker.sharing.SharingKind;
import dev.cryptoworker.sharing.SharingParameters;
import java.util.List;
import java.util.Objects;

/**
 * The SHARED layout's settings ({@code layout: { type: SHARED, ... }}): each value split into
 * {@code parameters.n()} shares by {@code scheme}, share i stored on {@code clusters.get(i)}.
 */
public record SharedTableLayout(SharingKind scheme, SharingParameters parameters, List<String> clusters)
    implements TableLayout {
  /** The layout's name in schemas. */
  public static final String TYPE = "SHARED";

  public SharedTableLayout {
    Objects.requireNonNull(scheme, "scheme");
    Objects.requireNonNull(parameters, "parameters");
    clusters = List.copyOf(clusters);
  }

  @Override
  public String type() {
    return TYPE;
  }
}
