// Assembling the local service: the store (with its default organisation, environment and key), the
// demo data or seed, the job runner and the HTTP app. `svc dev` and the tests both start here.
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.js';
import { iso, ManualClock, ServiceClock, type Clock } from './clock.js';
import { newApiKey } from './issued-ids.js';
import type { RateLimits } from './rate-limit.js';
import { JobRunner } from './runner/loop.js';
import type { StepRegistry } from './runner/types.js';
import { addBuiltInIntegrations, applySeed } from './seed/apply.js';
import { demoSeed } from './seed/demo.js';
import type { SeedFile } from './seed/schema.js';
import { Store, StoreError, type Environment } from './store/index.js';
import { pruneActivity } from './store/retention.js';
import { keepStartState, loadSnapshot, writeSnapshotFile } from './store/snapshot.js';
import { DEFAULT_ENV_NAME, DEFAULT_ORG_NAME } from './store/environments.js';
import { THROUGHPUT, type RunnerPace } from './throughput.js';

export interface LocalServiceOptions {
  /** A file path, or ':memory:'. */
  data: string;
  /** Create the data file's folders if missing (the default location only; a given --data must exist). */
  createDataFolder?: boolean | undefined;
  /** Fixes the default environment's secret key; generated (and kept in the store) otherwise. */
  apiKey?: string | undefined;
  seed?: SeedFile | undefined;
  /** No demo data in a new store. */
  empty?: boolean | undefined;
  /** A clock of the caller's (tests); otherwise service time is real time times `timeScale`. */
  clock?: Clock | undefined;
  /** `--time-scale`: service time runs this many times faster than real time (default 1). */
  timeScale?: number | undefined;
  /** `--clock manual`: service time stands still until moved (POST /v1/svc-dev/clock/advance). */
  clockMode?: 'real' | 'manual' | undefined;
  /** `--import`: the store starts as this snapshot (an SQLite file's bytes; checked, SnapshotError if not one). */
  importSnapshot?: Buffer | undefined;
  /** `--export-on-exit`: close() writes a snapshot of the store to this file. */
  exportOnExit?: string | undefined;
  rateLimits?: RateLimits | undefined;
  /** `--retention`: activity older than this (ms of service time) is deleted, at start and hourly. */
  retentionMs?: number | undefined;
  bodyLimit?: number | undefined;
  allowRemoteWebhooks?: boolean | undefined;
  /** `--allow-remote-bridge`: bridge URLs may be other than loopback. */
  allowRemoteBridge?: boolean | undefined;
  /** Step handlers; the default registry (loaded with the first due job) runs every step kind through the workflow engine. */
  registry?: StepRegistry | undefined;
  /** How the runner commits and what it does for throughput (throughput.ts); THROUGHPUT unless given. */
  pace?: RunnerPace | undefined;
  log?: ((line: string) => void) | undefined;
  onInternalError?: ((error: unknown, errorId: string) => void) | undefined;
  /** `--inbox-origin`: origins whose pages may use the Inbox API besides loopback ones. */
  inboxOrigins?: readonly string[] | undefined;
  /** Something the person running the service should know (an Inbox page of a refused origin). */
  warn?: ((line: string) => void) | undefined;
}

export interface LocalService {
  app: FastifyInstance;
  store: Store;
  runner: JobRunner;
  clock: Clock;
  /** The environment `svc dev` prints and saves in the `local` profile. */
  environment: Environment;
  /** Finishes requests in flight, stops the runner, closes the store. */
  close(): Promise<void>;
}

export function createLocalService(opts: LocalServiceOptions): LocalService {
  const clock = opts.clock ?? (opts.clockMode === 'manual' ? new ManualClock(Date.now()) : new ServiceClock(opts.timeScale ?? 1));
  const store = Store.open(opts.data, clock, { createFolder: opts.createDataFolder });
  try {
    if (opts.importSnapshot) loadSnapshot(store, opts.importSnapshot);
    if (clock instanceof ServiceClock || clock instanceof ManualClock) clock.resumeFrom(store.lastActivityAt());
    const environment = bootstrap(store, opts);
    // What `svc dev reset` goes back to: the store as it is now, environments, keys and seed included.
    keepStartState(store);
    const runner = new JobRunner({
      store,
      clock,
      registry: opts.registry,
      pace: opts.pace ?? THROUGHPUT,
      settings: { allowRemoteWebhooks: opts.allowRemoteWebhooks ?? false, allowRemoteBridge: opts.allowRemoteBridge ?? false },
      onError: (e, job) => opts.onInternalError?.(e, job ? `job ${job.id}` : 'job runner'),
    });
    const service = { store, clock, runner };
    const app = buildApp({
      service,
      bodyLimit: opts.bodyLimit,
      rateLimits: opts.rateLimits,
      ...(opts.log && { log: opts.log }),
      ...(opts.onInternalError && { onInternalError: opts.onInternalError }),
      inboxOrigins: opts.inboxOrigins,
      warn: opts.warn,
    });
    runner.start();
    const stopRetention = opts.retentionMs !== undefined ? keepFor(store, clock, opts.retentionMs, opts.onInternalError) : undefined;
    let closing: Promise<void> | undefined;
    return {
      app,
      store,
      runner,
      clock,
      environment,
      close: () =>
        (closing ??= (async () => {
          stopRetention?.();
          await app.close();
          await runner.stop();
          try {
            if (opts.exportOnExit !== undefined) {
              store.flush();
              writeSnapshotFile(store, opts.exportOnExit);
            }
          } finally {
            store.close();
          }
        })()),
    };
  } catch (e) {
    store.close();
    throw e;
  }
}

/** Prunes activity older than `ms` now and every hour after, in batches between requests. */
function keepFor(store: Store, clock: Clock, ms: number, onError: LocalServiceOptions['onInternalError']): () => void {
  let cancel: (() => void) | undefined;
  let stopped = false;
  const round = () => {
    if (stopped || !store.db.open) return;
    // Not inside an open group-commit batch: its own transactions, committed at once.
    if (store.batchOpen) return store.afterCommit(round);
    try {
      const before = iso(clock.now() - ms);
      if (pruneActivity(store.db, before, 500).notifications === 500) {
        cancel = clock.setTimer(round, 0);
        return;
      }
    } catch (e) {
      onError?.(e, 'retention');
    }
    cancel = clock.setTimer(round, 3_600_000);
  };
  round();
  return () => {
    stopped = true;
    cancel?.();
  };
}

function bootstrap(store: Store, opts: LocalServiceOptions): Environment {
  return store.tx(() => {
    let env = store.environments.defaultEnvironment();
    if (!env) {
      const orgId = store.environments.createOrganization(DEFAULT_ORG_NAME);
      env = store.environments.create(orgId, DEFAULT_ENV_NAME, opts.apiKey ?? newApiKey());
      addBuiltInIntegrations(store, env);
    } else if (opts.apiKey !== undefined && opts.apiKey !== env.apiKey) {
      const owner = store.environments.findByKey(opts.apiKey);
      if (owner) throw new StoreError(`--api-key is already the key of environment '${owner.name}' in this store`);
      store.environments.setKey(env.id, opts.apiKey);
    }
    if (store.created && !opts.empty && !opts.importSnapshot) applySeed(store, env, demoSeed());
    if (opts.seed) applySeed(store, env, opts.seed);
    store.idempotency.sweep();
    return store.environments.findById(env.id)!;
  });
}

export { buildApp } from './app.js';
export { Store } from './store/index.js';
