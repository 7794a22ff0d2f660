// svc dev's admin routes, named by GET /v1/svc-dev (`clock`, `reset`, `snapshot`): the time a test
// controls, starting the store over, and the whole store as one file. One admin action runs at a
// time (an advance never meets a reset half-way). Starting the store over follows one order: the
// runner stops (its calls in flight end, its timers are cancelled), the copy is written once no
// group-commit batch is open, the store forgets what it cached, the runner starts on the new rows,
// and the Inboxes connected are told their counts.
import { promisify } from 'node:util';
import { gunzip as gunzipCb, gzip as gzipCb } from 'node:zlib';
import { clockMode, iso, isMovable, ManualClock, ServiceClock, type Clock } from '../clock.js';
import { HttpError, unprocessable } from '../errors.js';
import { addBuiltInIntegrations } from '../seed/apply.js';
import type { Store } from '../store/index.js';
import { SCHEMA_VERSION } from '../store/migrations.js';
import { keptWhenEmpty, loadSnapshot as replaceWithSnapshot, NoStartState, restoreStartState, SnapshotError, snapshotBytes } from '../store/snapshot.js';
import type { Call, Route, Service } from './types.js';

const gzip = promisify(gzipCb);
const gunzip = promisify(gunzipCb);
const ENCODING = 'sqlite3+gzip+base64' as const;
/** The largest store a snapshot load unpacks. */
const MAX_SNAPSHOT_BYTES = 1024 * 1024 * 1024;

/** The clock's answer: `{mode, now}` in service time. */
function clockState(clock: Clock) {
  return { mode: clockMode(clock), now: iso(clock.now()) };
}

const running = new WeakMap<Store, Promise<unknown>>();

/** Runs admin actions on one store one after another. */
function oneAtATime<T>(store: Store, fn: () => Promise<T>): Promise<T> {
  const before = running.get(store) ?? Promise.resolve();
  const next = before.then(fn, fn);
  running.set(
    store,
    next.catch(() => undefined),
  );
  return next;
}

/** Runs `fn` with the runner stopped and no batch open, so that it reads and writes committed state alone. */
async function withRunnerStopped<T>(svc: Service, fn: () => T): Promise<T> {
  await svc.runner.stop();
  try {
    return await new Promise<T>((resolve, reject) =>
      svc.store.afterCommit(() => {
        try {
          resolve(fn());
        } catch (e) {
          reject(e);
        }
      }),
    );
  } finally {
    svc.runner.start();
  }
}

interface Summary {
  environments: number;
  events: number;
  ms: number;
  /** The API key the request came with is still a key of the store. */
  keyKept: boolean;
}

/** Replaces the store's rows by `replace`, with the runner stopped; the Inboxes are told after. */
async function replaceStore(call: Call<'resetStore' | 'loadSnapshot'>, replace: (store: Store) => void): Promise<Summary> {
  const { svc } = call;
  const summary = await withRunnerStopped(svc, () => {
    const started = performance.now();
    replace(svc.store);
    const ms = performance.now() - started;
    const count = (table: string) => (svc.store.db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
    // Time never goes back behind what the store recorded (a snapshot taken later than now).
    if (svc.clock instanceof ServiceClock || svc.clock instanceof ManualClock) svc.clock.resumeFrom(svc.store.lastActivityAt());
    return {
      environments: count('environments'),
      events: count('notifications'),
      ms: Math.round(ms * 100) / 100,
      keyKept: svc.store.environments.findByKey(call.env.apiKey) !== undefined,
    };
  });
  for (const fn of svc.store.replacedListeners) fn();
  return summary;
}

/**
 * Reset and snapshots act on the whole store, every environment's data: only the key of the store's
 * first environment (the one `svc dev` prints and saves in the `local` profile) may use them, so that
 * an environment made for one test file never reads or wipes another's.
 */
function mustOwnStore(call: Call<'resetStore' | 'saveSnapshot' | 'loadSnapshot'>, what: string): void {
  const owner = call.svc.store.environments.defaultEnvironment();
  if (owner && owner.id !== call.env.id)
    throw new HttpError(403, `${what} acts on the whole store: use the API key of environment '${owner.name}' (the one svc dev printed)`);
}

export const getClock: Route<'getClock'> = {
  envelope: 'data',
  handle: ({ svc }) => clockState(svc.clock),
};

type AdvanceCall = Call<'advanceClock'> & { prepared?: undefined };

export const advanceClock: Route<'advanceClock'> & { prepare(call: AdvanceCall): Promise<void> } = {
  envelope: 'data',
  prepare({ svc, body }) {
    const clock = svc.clock;
    if (!isMovable(clock)) return Promise.reject(new HttpError(409, 'This service clock cannot be moved'));
    // Delays, digest windows and throttle windows come due in time order, each run at its own time.
    return oneAtATime(svc.store, () => svc.runner.advanceTo(clock, clock.now() + body.ms));
  },
  handle: ({ svc }) => clockState(svc.clock),
};

type ReplaceCall<K extends 'resetStore' | 'loadSnapshot'> = Call<K> & { prepared?: Summary };

export const resetStore: Route<'resetStore'> & { prepare(call: ReplaceCall<'resetStore'>): Promise<Summary> } = {
  envelope: 'data',
  prepare(call) {
    try {
      mustOwnStore(call, 'a reset');
    } catch (e) {
      return Promise.reject(e);
    }
    const empty = call.body?.empty === true;
    const reset = oneAtATime(call.svc.store, () =>
      replaceStore(call, (store) =>
        restoreStartState(
          store,
          empty
            ? {
                keep: keptWhenEmpty,
                // As `svc dev --empty` starts: each environment with the service's built-in integrations.
                then: () => {
                  for (const { id } of store.db.prepare('SELECT id FROM environments').all() as { id: string }[]) {
                    const env = store.environments.findById(id);
                    if (env) addBuiltInIntegrations(store, env);
                  }
                },
              }
            : {},
        ),
      ),
    );
    return reset.catch((e: unknown) => {
      throw e instanceof NoStartState ? new HttpError(409, e.message) : e;
    });
  },
  handle: ({ prepared }: ReplaceCall<'resetStore'>) => prepared,
};

export const saveSnapshot: Route<'saveSnapshot'> & { prepare(call: Call<'saveSnapshot'> & { prepared?: unknown }): Promise<unknown> } = {
  envelope: 'data',
  async prepare(call) {
    mustOwnStore(call, 'a snapshot');
    const { svc } = call;
    // Taken at once between two batches: committed state, whole (jobs running then run again when loaded).
    const { bytes, takenAt } = await oneAtATime(
      svc.store,
      () =>
        new Promise<{ bytes: Buffer; takenAt: number }>((resolve) =>
          svc.store.afterCommit(() => resolve({ bytes: snapshotBytes(svc.store), takenAt: svc.clock.now() })),
        ),
    );
    const packed = await gzip(bytes);
    return { encoding: ENCODING, snapshot: packed.toString('base64'), bytes: bytes.length, schemaVersion: SCHEMA_VERSION, takenAt: iso(takenAt) };
  },
  handle: ({ prepared }: Call<'saveSnapshot'> & { prepared?: unknown }) => prepared,
};

export const loadSnapshot: Route<'loadSnapshot'> & { prepare(call: ReplaceCall<'loadSnapshot'>): Promise<Summary> } = {
  envelope: 'data',
  async prepare(call) {
    mustOwnStore(call, 'loading a snapshot');
    let bytes: Buffer;
    try {
      // Bounded: a small body must not unpack into more memory than any store of a test holds.
      bytes = await gunzip(Buffer.from(call.body.snapshot, 'base64'), { maxOutputLength: MAX_SNAPSHOT_BYTES });
    } catch {
      throw unprocessable('snapshot: not an svc snapshot (expected gzip-compressed SQLite bytes, base64-encoded)');
    }
    try {
      return await oneAtATime(call.svc.store, () => replaceStore(call, (store) => replaceWithSnapshot(store, bytes)));
    } catch (e) {
      if (e instanceof SnapshotError) throw unprocessable(`snapshot: ${e.message}`);
      throw e;
    }
  },
  handle: ({ prepared }: ReplaceCall<'loadSnapshot'>) => prepared,
};
