package dev.cryptoworker.testing;

/** What a failure says along its causes, for tests that look for a reason wherever it is wrapped. */
public final class CauseChain {
  private CauseChain() {}

  /** The messages of {@code e} and of each of its causes, in order, joined by {@code " / "}. */
  public static String messages(Throwable e) {
    StringBuilder out = new StringBuilder();
    for (Throwable t = e; t != null; t = t.getCause()) {
      out.append(t.getMessage()).append(" / ");
    }
    return out.toString();
  }
}
