package dev.cryptoworker.cryptobox;

import java.util.Objects;

/**
 * What the client must know of a box kind beyond what its boxes answer as capabilities: facts
 * about the stored form that tools need before any box exists (migrations plan from schemas, audits
 * read headers). Each kind's {@link BoxProvider} declares them, so that the client decides nothing
 * by kind.
 *
 * @param header how a stored value names the key it is under
 * @param findsStoredRows as a row key, whether a row's stored key can be computed again from its
 *     plaintext (PLAIN, DET, OPE): rows can be looked up, and moved by a migration
 * @param regionWork whether region servers work on the kind's values (the observer is installed)
 * @param searchIndex whether columns of the kind keep a search index in every region (SSE)
 * @param identifierCounters whether the kind leases identifiers from counters (ASHE, SPLASHE),
 *     named under the table's identity key, which a re-key that moves rows moves them with
 * @param severalCellsPerValue whether a value is stored as several cells (SPLASHE's splays), which
 *     migrations cannot rewrite
 */
public record BoxTraits(KeyHeader header, boolean findsStoredRows, boolean regionWork, boolean searchIndex,
    boolean identifierCounters, boolean severalCellsPerValue) {

  /** How a kind's stored values name their key. */
  public enum KeyHeader {
    /** Not at all: the value is stored as is. */
    NONE,
    /** In the table's stored format (5 bytes in format 1, 1 byte in format 2). */
    TABLE_FORMAT,
    /** Always in the 5-byte key-id prefix, whatever the table's format. */
    KEY_ID_PREFIX
  }

  public BoxTraits {
    Objects.requireNonNull(header, "header");
  }

  /** A kind of randomized or deterministic encryption in the table's format, with no region work. */
  public static BoxTraits keyed(boolean findsStoredRows) {
    return new BoxTraits(KeyHeader.TABLE_FORMAT, findsStoredRows, false, false, false, false);
  }

  /** Whether stored values are under a key (not stored as is). */
  public boolean keyed() {
    return header != KeyHeader.NONE;
  }
}
