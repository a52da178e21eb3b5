package dev.cryptoworker.layout.packed;

import dev.cryptoworker.layout.packed.EpochRecords.Epoch;
import dev.cryptoworker.layout.packed.EpochRecords.State;
import java.io.IOException;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.concurrent.TimeUnit;

/**
 * Merges an APPEND-mode table's closed epochs into its packs, one round at a time, coordinated with
 * other clients through the {@link EpochRecords}. A round closes the open epoch once it is
 * {@code epochMillis} old, then settles every closed epoch it may: the lowest first, each under
 * its merge lease.
 *
 * <p>Settling epoch E merges every entry of epochs up to E into the packs, a chunk at a time, and
 * deletes exactly the entries merged: merges keep the highest version per cell, so merging an entry twice, or after a
 * later one, changes nothing, and a merger that stalls or dies mid-merge leaves packs that another
 * merger completes. Leases only keep two clients from doing the same work: a lease is taken
 * over when its record has not changed for {@code leaseMillis} as this client saw it (no clock
 * comparison between clients). An epoch is read only once this client has seen it closed for a
 * lease's length, the window writers allow themselves (see {@link AppendEntries}); epochs close in
 * order, so every lower epoch closed earlier still.
 */
final class EpochMerger {
  /** Entries merged between deletes (and held in memory at once). */
  private static final int CHUNK = 2_000;

  /** Merges stored entries into their packs; asks {@code proceed} before each pack and stops (false) if it says no. */
  @FunctionalInterface
  interface PackMerge {
    boolean merge(List<AppendEntries.Stored> entries, Proceed proceed) throws IOException;
  }

  /** Whether a merge may go on to its next pack. */
  @FunctionalInterface
  interface Proceed {
    boolean next() throws IOException;
  }

  private record Observation(byte[] stored, long since) {}

  private final EpochRecords records;
  private final AppendEntries entries;
  private final PackMerge packs;
  private final long epochMillis;
  private final long leaseNanos;
  private final long id;
  /** When this client first saw each epoch closed. */
  private final Map<Long, Long> closedSince = new HashMap<>();
  /** Each leased epoch's record as this client first saw it unchanged. */
  private final Map<Long, Observation> leaseSeen = new HashMap<>();

  EpochMerger(EpochRecords records, AppendEntries entries, PackMerge packs, long epochMillis, long leaseMillis) {
    this.records = records;
    this.entries = entries;
    this.packs = packs;
    this.epochMillis = epochMillis;
    this.leaseNanos = TimeUnit.MILLISECONDS.toNanos(leaseMillis);
    this.id = EpochRecords.newHolderId();
  }

  /**
   * One round: closes the open epoch if due, then settles the closed epochs this client may.
   *
   * @return the entries merged into packs
   */
  synchronized int round() throws IOException {
    NavigableMap<Long, Epoch> all = records.read();
    Epoch open = records.open(all);
    if (System.currentTimeMillis() - open.writtenAt() >= epochMillis && records.close(open)) {
      all = records.read();
    }
    long now = System.nanoTime();
    closedSince.keySet().retainAll(all.keySet());
    leaseSeen.keySet().retainAll(all.keySet());
    int merged = 0;
    for (Epoch e : all.values()) {
      if (e.state() == State.OPEN || e.state() == State.DELETED) {
        continue;
      }
      long since = closedSince.computeIfAbsent(e.epoch(), k -> now);
      if (e.state() == State.NOT_MERGED && now - since < leaseNanos) {
        break; // later epochs closed later still
      }
      Epoch held = acquire(e, now);
      if (held == null) {
        break; // another client is on it: epochs settle in order
      }
      int settled = settle(held);
      if (settled < 0) {
        break;
      }
      merged += settled;
    }
    records.prune(records.read());
    return merged;
  }

  /** The entries stored now (counted between rounds: the table is this merger's). */
  synchronized long unmerged() throws IOException {
    return entries.count();
  }

  /** {@code e} under this client's lease (a MERGED epoch needs none), or null if another client holds it. */
  private Epoch acquire(Epoch e, long now) throws IOException {
    if (e.state() == State.MERGED) {
      return e;
    }
    if (!e.leased()) {
      return records.transition(e, State.NOT_MERGED, id, 1);
    }
    if (e.holder() == id) {
      return e;
    }
    Observation seen = leaseSeen.get(e.epoch());
    if (seen == null || !Arrays.equals(seen.stored(), e.stored())) {
      leaseSeen.put(e.epoch(), new Observation(e.stored(), now));
      return null;
    }
    return now - seen.since() < leaseNanos ? null : records.transition(e, State.NOT_MERGED, id, e.renewal() + 1);
  }

  /**
   * Merges the entries of epochs up to {@code held} into packs, a chunk at a time, deleting each
   * chunk once it is in its packs (safe at any point: a deleted entry's cells are in its pack);
   * then marks the epoch MERGED and DELETED. The count merged, or -1 if the lease was lost.
   */
  private int settle(Epoch held) throws IOException {
    Lease lease = new Lease(held);
    int count = 0;
    try (AppendEntries.Cursor cursor = entries.upTo(held.epoch())) {
      for (List<AppendEntries.Stored> chunk = cursor.next(CHUNK); !chunk.isEmpty(); chunk = cursor.next(CHUNK)) {
        if (!packs.merge(chunk, lease::renewIfDue)) {
          return -1; // whoever took the lease over completes the merge
        }
        entries.delete(chunk);
        count += chunk.size();
      }
    }
    Epoch merged = held.state() == State.MERGED ? held
        : lease.current == null ? null : records.transition(lease.current, State.MERGED, 0, 0);
    if (merged == null) {
      return -1;
    }
    records.transition(merged, State.DELETED, 0, 0);
    return count;
  }

  /** This client's merge lease on one epoch, renewed every third of its length. */
  private final class Lease {
    private Epoch current;
    private long renewedAt = System.nanoTime();

    Lease(Epoch held) {
      this.current = held;
    }

    boolean renewIfDue() throws IOException {
      if (current == null) {
        return false;
      }
      if (current.state() != State.NOT_MERGED || System.nanoTime() - renewedAt < leaseNanos / 3) {
        return true;
      }
      long at = System.nanoTime();
      current = records.transition(current, State.NOT_MERGED, id, current.renewal() + 1);
      renewedAt = at;
      return current != null;
    }
  }
}
