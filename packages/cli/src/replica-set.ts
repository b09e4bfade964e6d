// The read replicas of a server (`--read-replica`): PostgreSQL hot standbys of its storage,
// watched so that a request is sent only to one that is close enough behind the primary and
// has replayed what the request must see (docs/operations.md, "Read replicas").
//
// Lag is measured on the change counter, not the clock: every poll reads the primary's counter
// and each replica's. A replica holds everything the primary had committed at the last reading
// whose counter it has reached; how long ago that reading was taken bounds how far behind it
// is, and is what `--replica-max-lag` limits, reckoned when a request is routed. (An idle
// primary is not "lagging" its replicas, however long ago its last write; a replica whose replay
// is paused falls behind from the first commit after the pause.) A replica that fails to
// answer, or is not at the schema this version writes, is skipped until a poll finds it
// answering again.
import type { Storage } from '@evcal/core';

export interface Replica {
  /** The URL without its password, for logs. */
  readonly name: string;
  readonly storage: Storage;
}

export interface ReplicaState {
  readonly name: string;
  readonly up: boolean;
  /** ms behind the primary (Infinity when unknown or down). */
  readonly lagMs: number;
  /** The change counter it has replayed. */
  readonly position: number;
}

export interface ReplicaSet {
  /**
   * A replica to read from for a request that must see the change counter at `position` or
   * beyond (0: any): one within the lag allowed that has replayed it, taken in turn; undefined
   * when none is (the request goes to the primary).
   */
  pick(position: number): Storage | undefined;
  /** A read on this replica failed: it is skipped until a poll finds it answering again. */
  failed(replica: Storage): void;
  states(): ReplicaState[];
  /** Polls once now (and resolves when done): for a start that should know its replicas. */
  poll(): Promise<void>;
  close(): Promise<void>;
}

export interface ReplicaSetOptions {
  readonly primary: Storage;
  readonly replicas: readonly Replica[];
  /** How far behind a replica may be and still be read. */
  readonly maxLagMs: number;
  /** How often each replica and the primary are read. @default a fifth of maxLagMs, between 100 and 1000 ms */
  readonly pollMs?: number;
  /** Told when a replica goes down or comes back, and when it falls behind or catches up. */
  readonly onChange?: (state: ReplicaState, detail?: string) => void;
}

interface Watched {
  readonly replica: Replica;
  up: boolean;
  position: number;
  detail?: string;
  /** Whether it was last told as readable (onChange). */
  told: boolean;
}

/** The primary's counter as read at one time. */
interface Reading {
  readonly at: number;
  readonly change: number;
}

export function replicaSet(options: ReplicaSetOptions): ReplicaSet {
  const pollMs = options.pollMs ?? Math.min(1_000, Math.max(100, Math.round(options.maxLagMs / 5)));
  const watched: Watched[] = options.replicas.map((replica) => ({ replica, up: false, position: 0, told: false }));
  /** The primary's readings, oldest first, over a little more than the lag allowed. */
  const readings: Reading[] = [];
  let turn = 0;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let closed = false;

  /** How far behind a replica that has replayed `position` may be now: the time since the last reading of the primary it has reached. */
  const lagOf = (position: number, now: number): number => {
    for (let i = readings.length - 1; i >= 0; i--) if (readings[i]!.change <= position) return now - readings[i]!.at;
    return Infinity;
  };
  const lagMs = (w: Watched, now = Date.now()) => (w.up ? lagOf(w.position, now) : Infinity);
  const healthy = (w: Watched, now = Date.now()) => lagMs(w, now) <= options.maxLagMs;
  const stateOf = (w: Watched): ReplicaState => ({ name: w.replica.name, up: w.up, lagMs: lagMs(w), position: w.position });
  const tell = (w: Watched) => {
    const now = healthy(w);
    if (now !== w.told) options.onChange?.(stateOf(w), w.detail);
    w.told = now;
  };

  async function pollOnce(): Promise<void> {
    const at = Date.now();
    let primary: number | undefined;
    try {
      primary = await options.primary.lastChange();
    } catch {
      // The primary down: the replicas' lag is unknown; they keep their last state.
    }
    if (primary !== undefined) {
      readings.push({ at, change: primary });
      while (readings.length > 2 && readings[1]!.at < at - 2 * options.maxLagMs - 2 * pollMs) readings.shift();
    }
    await Promise.all(watched.map(async (w) => {
      try {
        const ready = await w.replica.storage.readiness();
        if (!ready.ready) throw new Error(`${ready.reason}: ${ready.detail}`);
        w.position = await w.replica.storage.lastChange();
        w.up = true;
        w.detail = undefined;
      } catch (error) {
        w.up = false;
        w.detail = (error as Error).message;
      }
      tell(w);
    }));
  }

  const schedule = () => {
    if (closed) return;
    timer = setTimeout(() => {
      running = pollOnce().finally(schedule);
    }, pollMs);
    timer.unref();
  };
  schedule();

  return {
    pick(position) {
      const now = Date.now();
      for (let i = 0; i < watched.length; i++) {
        const w = watched[(turn + i) % watched.length]!;
        if (w.position >= position && healthy(w, now)) {
          turn = (turn + i + 1) % watched.length;
          return w.replica.storage;
        }
      }
      return undefined;
    },
    failed(storage) {
      const w = watched.find((x) => x.replica.storage === storage);
      if (!w) return;
      w.up = false;
      w.detail = 'a read on it failed';
      tell(w);
    },
    states: () => watched.map(stateOf),
    poll: () => pollOnce(),
    async close() {
      closed = true;
      clearTimeout(timer);
      await running;
      await Promise.all(watched.map((w) => w.replica.storage.close()));
    },
  };
}
