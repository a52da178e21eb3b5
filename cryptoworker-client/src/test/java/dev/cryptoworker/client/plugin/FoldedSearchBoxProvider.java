package dev.cryptoworker.client.plugin;

import dev.cryptoworker.cryptobox.BoxContext;
import dev.cryptoworker.cryptobox.BoxKind;
import dev.cryptoworker.cryptobox.BoxProvider;
import dev.cryptoworker.cryptobox.BoxRules;
import dev.cryptoworker.cryptobox.BoxTraits;
import dev.cryptoworker.cryptobox.CryptoBox;
import dev.cryptoworker.cryptobox.IndexedSearch;
import dev.cryptoworker.cryptobox.ValueCondition;
import dev.cryptoworker.cryptobox.ValueIndex;
import dev.cryptoworker.cryptobox.sse.SearchableBoxProvider;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * A searchable box kind this repository does not ship, plugged in as a module would: text found
 * through the region servers' entry index whatever its case. Values are stored as SSE stores them;
 * the index is SSE's index of the value folded to lower case, and a search's rows are checked
 * ignoring case. The client names none of it: it asks the box's {@link IndexedSearch}. Registered
 * by one line in the test resources' {@code META-INF/services/dev.cryptoworker.cryptobox.BoxProvider}.
 */
public final class FoldedSearchBoxProvider implements BoxProvider {
  public static final BoxKind FOLDED = BoxKind.of("FOLDED");

  private final BoxProvider sse = new SearchableBoxProvider();

  @Override
  public BoxKind kind() {
    return FOLDED;
  }

  /** SSE's: its index cells live in every region, and its values carry the key-id prefix. */
  @Override
  public BoxTraits traits() {
    return sse.traits();
  }

  @Override
  public BoxRules rules() {
    return use -> "as SSE, with values that differ only in case sharing one index counter";
  }

  @Override
  public CryptoBox create(BoxContext context) throws GeneralSecurityException {
    CryptoBox inner = sse.create(context);
    return new FoldedBox(inner, inner.capability(IndexedSearch.class).orElseThrow());
  }

  private record FoldedBox(CryptoBox values, IndexedSearch index) implements CryptoBox, IndexedSearch {
    private static byte[] folded(byte[] text) {
      return new String(text, StandardCharsets.UTF_8).toLowerCase(Locale.ROOT).getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public BoxKind kind() {
      return FOLDED;
    }

    @Override
    public byte[] encrypt(byte[] plaintext, byte[] associatedData) throws GeneralSecurityException {
      return values.encrypt(plaintext, associatedData);
    }

    @Override
    public byte[] decrypt(byte[] ciphertext, byte[] associatedData) throws GeneralSecurityException {
      return values.decrypt(ciphertext, associatedData);
    }

    @Override
    public ValueIndex writeIndex(byte[] plaintext, byte[] column) throws GeneralSecurityException {
      return index.writeIndex(folded(plaintext), column);
    }

    @Override
    public Optional<List<ValueIndex>> searchIndexes(ValueCondition condition, byte[] column)
        throws GeneralSecurityException {
      return condition.operator() == ValueCondition.Operator.EQUAL
          ? index.searchIndexes(new ValueCondition(ValueCondition.Operator.EQUAL, folded(condition.operand())), column)
          : Optional.empty();
    }

    @Override
    public boolean satisfies(ValueCondition condition, byte[] plaintext) {
      return new String(condition.operand(), StandardCharsets.UTF_8)
          .equalsIgnoreCase(new String(plaintext, StandardCharsets.UTF_8));
    }
  }
}
