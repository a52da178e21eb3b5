package dev.cryptoworker.cryptobox.ashe;

import dev.cryptoworker.cryptobox.BoxContext;
import dev.cryptoworker.cryptobox.BoxKind;
import dev.cryptoworker.cryptobox.BoxProvider;
import dev.cryptoworker.cryptobox.BoxRules;
import dev.cryptoworker.cryptobox.BoxTraits;
import dev.cryptoworker.cryptobox.BoxUse;
import dev.cryptoworker.cryptobox.CryptoBox;
import dev.cryptoworker.cryptobox.IdentifierSource;
import dev.cryptoworker.cryptobox.ServerOperation;
import dev.cryptoworker.cryptobox.expansion.FamilyExpansion;
import dev.cryptoworker.cryptobox.expansion.FamilyStore;
import java.security.GeneralSecurityException;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The ASHE kind ({@link AsheBox}): sums on region servers, identifiers leased from the client's
 * {@link IdentifierSource}. {@link #splashe()} is SPLASHE, whose dimension is stored as ASHE 0/1
 * indicators and whose measures are splayed per value.
 */
public final class AsheBoxProvider implements BoxProvider {
  private static final BoxRules ASHE_RULES = new BoxRules() {
    /** Above STD's 0: per aggregate, which rows it covers; no integrity. */
    @Override
    public int leakageRank() {
      return 10;
    }

    @Override
    public Set<ServerOperation> serverOperations(BoxUse use) {
      return Set.of(ServerOperation.SUM);
    }

    @Override
    public Optional<BoxUse.Refusal> refusal(BoxUse use) {
      return use.valueType().equals("long") || use.valueType().equals("int") ? Optional.empty()
          : Optional.of(BoxUse.Refusal.of("ASHE sums numbers: type must be long or int, got " + use.valueType()));
    }

    @Override
    public String leakage(BoxUse use) {
      return "nothing about values (IND-CPA while PRF inputs, a writer's random lease nonce and an identifier, never"
          + " repeat); which values one writer wrote, and in what order; per aggregate, which rows it covers"
          + " (identifier sets) and how many; no authentication: the server can drop, add or alter values of a sum"
          + " undetected";
    }
  };

  private final BoxKind kind;
  private final BoxTraits traits;

  /** ASHE (the no-argument constructor {@link java.util.ServiceLoader} calls). */
  public AsheBoxProvider() {
    this(BoxKind.ASHE, false);
  }

  private AsheBoxProvider(BoxKind kind, boolean severalCellsPerValue) {
    this.kind = kind;
    this.traits = new BoxTraits(BoxTraits.KeyHeader.KEY_ID_PREFIX, false, true, false, true, severalCellsPerValue);
  }

  /** SPLASHE. */
  public static final class Splashe implements BoxProvider {
    private static final String VALUES = "values";
    private static final String SPLAYS = "splays";
    private static final String FREQUENT = "frequent";
    private static final BoxRules RULES = new BoxRules() {
      @Override
      public Set<String> options() {
        return Set.of(VALUES, SPLAYS, FREQUENT);
      }

      /** Above ASHE's 10 (the value list, and which value a query asks), below SSE's 30 (no rows per value). */
      @Override
      public int leakageRank() {
        return 20;
      }

      @Override
      public Set<ServerOperation> serverOperations(BoxUse use) {
        return Set.of(ServerOperation.SPLAYED_EQUALITY, ServerOperation.SPLAYED_GROUP);
      }

      /**
       * Basic SPLASHE, or enhanced where the rows per value say it stores less ({@link
       * EnhancedSplasheChoice}).
       */
      @Override
      public Optional<Map<String, List<String>>> splayOptions(List<String> values, Map<String, Long> rowsPerValue,
          List<String> measures) {
        Map<String, List<String>> options = new HashMap<>();
        options.put(VALUES, List.copyOf(values));
        options.put(SPLAYS, List.copyOf(measures));
        EnhancedSplasheChoice.frequent(values, rowsPerValue, measures.size()).ifPresent(f -> options.put(FREQUENT, f));
        return Optional.of(Map.copyOf(options));
      }

      /** A dimension's values are its declared names, whatever type was given. */
      @Override
      public String valueType(BoxUse use) {
        return "string";
      }

      @Override
      public Optional<BoxUse.Refusal> refusal(BoxUse use) {
        if (use.place() != BoxUse.Place.COLUMN) {
          return Optional.of(BoxUse.Refusal.of("SPLASHE applies to one named dimension column, not to a family default"));
        }
        List<String> values = use.option(VALUES).orElse(null);
        List<String> splays = use.option(SPLAYS).orElse(null);
        if (values == null || splays == null) {
          return Optional.of(BoxUse.Refusal.of(
              "a SPLASHE column needs values (its possible values) and splays (the ASHE columns it filters)"));
        }
        if (values.size() < 2 || new HashSet<>(values).size() != values.size()) {
          return Optional.of(BoxUse.Refusal.at(VALUES, "needs at least two distinct values"));
        }
        if (values.stream().anyMatch(v -> v.indexOf('\0') >= 0)) {
          return Optional.of(BoxUse.Refusal.at(VALUES, "a value must not contain NUL"));
        }
        if (splays.isEmpty()) {
          return Optional.of(BoxUse.Refusal.at(SPLAYS, "needs at least one ASHE column to splay"));
        }
        if (use.protectedQualifiers()) {
          return Optional.of(BoxUse.Refusal.of("SPLASHE cannot be combined with protectQualifiers in the same family"));
        }
        for (String measure : splays) {
          if (use.family().get(measure) != BoxKind.ASHE) {
            return Optional.of(BoxUse.Refusal.of(
                "splays: '" + measure + "' must be an ASHE column listed in the same family"));
          }
        }
        return use.option(FREQUENT).flatMap(frequent -> frequentRefusal(values, frequent));
      }

      /** Enhanced SPLASHE: frequent values among the declared ones, leaving at least two to share the DET token. */
      private Optional<BoxUse.Refusal> frequentRefusal(List<String> values, List<String> frequent) {
        if (frequent.isEmpty()) {
          return Optional.of(BoxUse.Refusal.at(FREQUENT,
              "needs at least one value (omit frequent for basic SPLASHE, which splays every value)"));
        }
        for (int i = 0; i < frequent.size(); i++) {
          if (!values.contains(frequent.get(i))) {
            return Optional.of(BoxUse.Refusal.at(FREQUENT, "item " + i + " ('" + frequent.get(i)
                + "') is not one of the declared values"));
          }
          if (frequent.indexOf(frequent.get(i)) != i) {
            return Optional.of(BoxUse.Refusal.at(FREQUENT, "item " + i + " ('" + frequent.get(i)
                + "') is listed twice"));
          }
        }
        if (values.size() - frequent.size() < 2) {
          return Optional.of(BoxUse.Refusal.at(FREQUENT, "must leave at least two declared values infrequent, to"
              + " share one column told apart by their DET token (with fewer, omit frequent: basic SPLASHE)"));
        }
        return Optional.empty();
      }

      @Override
      public String leakage(BoxUse use) {
        return use.option(FREQUENT).isPresent()
            ? "the frequent values (qualifier names), how many infrequent values there are, and a DET token per row"
                + " whose counts the client pads, per batch and across writers, to be within one of each other when a"
                + " batch's frequent rows suffice (differences show where they did not, and overwrites and deletes:"
                + " docs/aggregates.md#enhanced-splashe); which value a query asks about (an infrequent one by its"
                + " token, hence which rows show it); not the value of any row nor how many rows hold a frequent"
                + " value; integrity as ASHE (none)"
            : "the declared value list (qualifier names) and which value a query asks about; not the value of any"
                + " row nor how many rows hold it; integrity as ASHE (none)";
      }
    };

    private final AsheBoxProvider boxes = new AsheBoxProvider(BoxKind.SPLASHE, true);

    @Override
    public BoxKind kind() {
      return boxes.kind();
    }

    @Override
    public BoxTraits traits() {
      return boxes.traits();
    }

    @Override
    public BoxRules rules() {
      return RULES;
    }

    /** A dimension's indicators and the measures it splays ({@code SplayedFamily}). */
    @Override
    public Optional<FamilyExpansion> expansion(FamilyStore family) {
      return Optional.of(new SplayedFamily(family));
    }

    @Override
    public CryptoBox create(BoxContext context) throws GeneralSecurityException {
      return boxes.create(context);
    }
  }

  @Override
  public BoxKind kind() {
    return kind;
  }

  @Override
  public BoxTraits traits() {
    return traits;
  }

  @Override
  public BoxRules rules() {
    return ASHE_RULES;
  }

  @Override
  public CryptoBox create(BoxContext context) throws GeneralSecurityException {
    IdentifierSource ids = context.service(IdentifierSource.class).orElseThrow(() -> new GeneralSecurityException(
        "no identifier leases for an " + kind + " column: the client offers none"));
    return AsheBox.create(context.keyRing(AsheBox.KEY_LENGTH_BYTES), ids, "int".equals(context.valueType()));
  }
}
