// Everything svc dev does only for throughput, in one place. Correctness does not depend on any of
// it: the runner is a plain loop (runner/loop.ts) and every request and every job writes in a
// transaction of its own; the pieces here decide how those transactions are committed and how much
// one look does. bench/runner-pieces.mjs measures what each one buys (bench/RESULTS-runner.md), and
// test/server/throughput.test.ts checks that svc dev answers the same with all of them and with none.
//
// - Group commit: the requests handled in one turn of the event loop, and the runner's writes, share
//   one SQLite transaction; each runs in a savepoint of it (a failing one rolls back alone) and its
//   answer waits for the COMMIT, so "answered 2xx" still means "in the WAL file". A COMMIT writes every
//   page its transaction changed, and the requests of a turn change the same few (the tails of the
//   events', jobs' and messages' tables and indexes): shared, they are written once per turn.
// - Together: the jobs of one look that need no network run in one savepoint instead of one each
//   (SQLite copies every page a savepoint first changes into its journal: the same few pages again,
//   once per look instead of once per job). A handler that throws rolls that savepoint back, and the
//   look's jobs run again each in its own, from a fresh attempt, so that the one that threw fails alone.
// - Chaining: a step that ends with its event's next step due at once (in-app, then email) runs that
//   step right away, with the same event, subscriber and workflow, and queues it in the write of its
//   outcome, instead of queueing it for the next look to read back.
// - Slots for code-first workflows: each of their steps is a call to the team's app; with about a
//   hundred calls in flight both svc dev and the app work in batches instead of waiting on each other.
import type { Attempt } from './runner/attempt.js';
import type { DB } from './store/db.js';
import type { Store } from './store/index.js';

/**
 * The shared transaction of group commit. `join(fn)` runs `fn` in a savepoint of the open batch
 * (opening one if none is), and `committed` settles once that batch has committed, or rejects if its
 * COMMIT failed (then every write of the batch was rolled back).
 */
export class GroupCommit {
  private batch: { waiters: { resolve: () => void; reject: (e: unknown) => void }[] } | undefined;
  private readonly afterCommitFns: (() => void)[] = [];

  /**
   * The most requests one batch takes: a turn of the event loop that reads more (a burst of pipelined
   * requests) commits in steps, so that the first answers are not held back until the last are handled.
   * (1: a COMMIT per request, as bench/runner-pieces.mjs measures it.)
   */
  maxBatch = 512;

  constructor(
    private readonly db: DB,
    /** Runs `fn` in a transaction (a savepoint inside the batch), rolling back alone if it throws. */
    private readonly tx: <T>(fn: () => T) => T,
    /** The batch's COMMIT failed and everything in it was rolled back. */
    private readonly rolledBack: () => void,
  ) {}

  /** A batch is open: what is read now may not be committed yet. */
  get open(): boolean {
    return this.batch !== undefined;
  }

  join<T>(fn: () => T): { value: T; committed: Promise<void> } {
    if (!this.batch) {
      // Inside someone else's transaction (a test, start-up): that transaction decides.
      if (this.db.inTransaction) return { value: this.tx(fn), committed: Promise.resolve() };
      this.db.exec('BEGIN');
      this.batch = { waiters: [] };
      // Commits once the event loop has handled what had arrived by now.
      setImmediate(() => this.flush());
    }
    const batch = this.batch;
    const value = this.tx(fn);
    const committed = new Promise<void>((resolve, reject) => batch.waiters.push({ resolve, reject }));
    if (batch.waiters.length >= this.maxBatch) this.flush();
    return { value, committed };
  }

  /** Runs `fn` once no batch is open (now, or right after the open one commits). */
  afterCommit(fn: () => void): void {
    if (this.batch) this.afterCommitFns.push(fn);
    else fn();
  }

  /** Commits the open batch, if any, and settles its callers. */
  flush(): void {
    const batch = this.batch;
    if (!batch) return;
    this.batch = undefined;
    let failure: unknown;
    try {
      if (this.db.open && this.db.inTransaction) this.db.exec('COMMIT');
    } catch (e) {
      failure = e;
      try {
        if (this.db.inTransaction) this.db.exec('ROLLBACK');
      } catch {
        // The connection is gone; the callers are told below.
      }
      this.rolledBack();
    }
    for (const w of batch.waiters) {
      if (failure === undefined) w.resolve();
      else w.reject(failure);
    }
    for (const fn of this.afterCommitFns.splice(0)) fn();
  }
}

/** How the job runner commits its writes and what it does for throughput (runner/loop.ts). */
export interface RunnerPace {
  /** Runs the runner's writes (a look, or the outcome of a call); settles once they are committed. */
  write(store: Store, fn: () => void): Promise<void>;
  /** A step whose event's next step comes due with it runs that step at once (see Chaining above). */
  chain: boolean;
  /** Network calls of jobs at once, for every workflow. */
  slots: number;
  /** More of them for code-first workflows' jobs (see Slots above). */
  appSlots: number;
  /**
   * Runs a look's jobs that need no network: `run(attempt, alone)` runs one, in a transaction of its
   * own when `alone` (a throw fails that job), else in the caller's (a throw leaves it). `again` is a
   * fresh attempt at the same job, for a second run.
   */
  runReady(store: Store, ready: readonly Attempt[], run: (a: Attempt, alone: boolean) => void, again: (a: Attempt) => Attempt | undefined): void;
  /**
   * The most jobs one look reads: the look runs them all before the event loop takes the requests
   * that arrived meanwhile, then looks again.
   */
  lookLimit: number;
}

/**
 * Each look and each call's outcome in a transaction committed at once, no chaining, no slots beyond
 * the shared ones: the reference the pieces are measured and tested against.
 */
export const PLAIN: RunnerPace = {
  write(store, fn) {
    store.tx(fn);
    return Promise.resolve();
  },
  runReady: eachAlone,
  chain: false,
  // Enough calls at once that one slow receiver does not hold the others back; a backlog of webhook
  // jobs waits in the table, not in open sockets.
  slots: 16,
  appSlots: 0,
  // A look of 64 jobs (and their chained steps) keeps requests waiting a few milliseconds at most;
  // its exact size matters little (bench/runner-pieces.mjs runs 16 and 256 beside it).
  lookLimit: 64,
};

/** What svc dev runs with. */
export const THROUGHPUT: RunnerPace = {
  ...PLAIN,
  // The runner's writes join the group-commit batch the next requests join too.
  write: (store, fn) => store.grouped(fn).committed,
  runReady: together,
  chain: true,
  // With the 16 shared, about 110 calls to the team's app at once, under the outbound module's 128
  // keep-alive connections.
  appSlots: 96,
};

function eachAlone(_store: Store, ready: readonly Attempt[], run: (a: Attempt, alone: boolean) => void): void {
  for (const a of ready) run(a, true);
}

/** See Together above. A job alone runs in its own savepoint at once: a throw does not run it twice. */
function together(store: Store, ready: readonly Attempt[], run: (a: Attempt, alone: boolean) => void, again: (a: Attempt) => Attempt | undefined): void {
  if (ready.length < 2) return eachAlone(store, ready, run);
  try {
    store.tx(() => {
      for (const a of ready) run(a, false);
    });
  } catch {
    for (const a of ready) {
      const fresh = again(a);
      if (fresh) run(fresh, true);
    }
  }
}
