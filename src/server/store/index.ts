// The store: one SQLite file (or memory) and its repositories. better-sqlite3 is synchronous; a
// request's writes happen in one savepoint of a group-commit batch (see `grouped`), and its reply is
// sent only once that batch has committed.
import type { Clock } from '../clock.js';
import { Activity } from './activity.js';
import { ChannelConnections, ChannelEndpoints } from './channels.js';
import { Contexts, Tenants, Topics } from './contexts.js';
import { openDatabase, type DB, type OpenOptions } from './db.js';
import { Environments } from './environments.js';
import { Idempotency } from './idempotency.js';
import { Integrations } from './integrations.js';
import { Jobs } from './jobs.js';
import { Messages } from './messages.js';
import { Subscribers } from './subscribers.js';
import { Workflows } from './workflows.js';
import { Inbox } from './inbox.js';
import { SubscriberPreferences } from './preferences.js';
import { TopicAdmin } from './topic-admin.js';

export class Store {
  readonly environments: Environments;
  readonly subscribers: Subscribers;
  readonly integrations: Integrations;
  readonly workflows: Workflows;
  readonly contexts: Contexts;
  readonly tenants: Tenants;
  readonly topics: Topics;
  readonly activity: Activity;
  readonly jobs: Jobs;
  readonly messages: Messages;
  readonly connections: ChannelConnections;
  readonly endpoints: ChannelEndpoints;
  readonly idempotency: Idempotency;
  readonly inbox: Inbox;
  readonly preferences: SubscriberPreferences;
  readonly topicAdmin: TopicAdmin;

  constructor(
    readonly db: DB,
    readonly clock: Clock,
    /** The file had no schema before this process opened it. */
    readonly created: boolean,
    readonly file: string,
  ) {
    this.environments = new Environments(db, clock);
    this.subscribers = new Subscribers(db, clock);
    this.integrations = new Integrations(db, clock);
    this.workflows = new Workflows(db, clock);
    this.contexts = new Contexts(db, clock);
    this.tenants = new Tenants(db, clock);
    this.topics = new Topics(db, clock);
    this.activity = new Activity(db, clock);
    this.jobs = new Jobs(db, clock);
    this.messages = new Messages(db, clock);
    this.connections = new ChannelConnections(db, clock);
    this.endpoints = new ChannelEndpoints(db, clock);
    this.idempotency = new Idempotency(db, clock);
    this.inbox = new Inbox(db, clock);
    this.preferences = new SubscriberPreferences(db, clock);
    this.topicAdmin = new TopicAdmin(db, clock);
    this.runInTx = db.transaction((fn: () => unknown) => fn());
  }

  static open(file: string, clock: Clock, opts: OpenOptions = {}): Store {
    const { db, created } = openDatabase(file, opts);
    return new Store(db, clock, created, file);
  }

  /**
   * Service time of the latest record: the last notification written (rowids grow with every insert)
   * or the last change of a job (its execution details are on its row). Null for an empty store.
   */
  lastActivityAt(): number | null {
    const row = this.db
      .prepare('SELECT (SELECT created_at FROM notifications ORDER BY rowid DESC LIMIT 1) AS n, (SELECT max(updated_at) FROM jobs) AS j')
      .get() as { n: number | null; j: number | null };
    return row.n === null || row.j === null ? (row.n ?? row.j) : Math.max(row.n, row.j);
  }

  /**
   * One transaction function for every call: `db.transaction(fn)` builds a new wrapper each time
   * (properties, a closure per mode), which cost ~4% of a trigger's CPU when built per request and job.
   */
  private readonly runInTx: (fn: () => unknown) => unknown;

  /** Runs `fn` in one transaction (nested calls, and calls while a batch is open, join the outer one). */
  tx<T>(fn: () => T): T {
    try {
      return this.runInTx(fn) as T;
    } catch (e) {
      this.rolledBack();
      throw e;
    }
  }

  /** Caches of documents read inside a rolled-back transaction may hold what it took back. */
  private rolledBack(): void {
    this.workflows.forgetAll();
    this.integrations.forgetAll();
    this.jobs.forgetAll();
    this.inbox.forgetAll();
    this.subscribers.forgetAll();
  }

  // --- group commit ----------------------------------------------------------------------------
  // One transaction per request spends most of a trigger's time in COMMIT. Instead, the requests
  // handled in one turn of the event loop share one transaction: each runs in its own savepoint (a
  // failing one rolls back alone), and the batch commits as soon as the loop has read what had
  // arrived (setImmediate), or at MAX_BATCH. `committed` settles only after that COMMIT: a caller
  // answers then, so every acknowledged write is in the WAL file before its reply leaves.

  private batch: { waiters: { resolve: () => void; reject: (e: unknown) => void }[] } | undefined;
  private readonly afterCommitFns: (() => void)[] = [];
  static readonly MAX_BATCH = 512;

  /** A batch is open: what is read now may not be committed yet. */
  get batchOpen(): boolean {
    return this.batch !== undefined;
  }

  grouped<T>(fn: () => T): { value: T; committed: Promise<void> } {
    if (!this.batch) {
      // Inside someone else's transaction (a test, start-up): that transaction decides.
      if (this.db.inTransaction) return { value: this.tx(fn), committed: Promise.resolve() };
      this.db.exec('BEGIN');
      this.batch = { waiters: [] };
      setImmediate(() => this.flush());
    }
    const batch = this.batch;
    const value = this.tx(fn);
    const committed = new Promise<void>((resolve, reject) => batch.waiters.push({ resolve, reject }));
    if (batch.waiters.length >= Store.MAX_BATCH) this.flush();
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
    try {
      if (this.db.open && this.db.inTransaction) this.db.exec('COMMIT');
    } catch (e) {
      try {
        if (this.db.inTransaction) this.db.exec('ROLLBACK');
      } catch {
        // The connection is gone; the callers are told below.
      }
      this.rolledBack();
      for (const w of batch.waiters) w.reject(e);
      this.runAfterCommit();
      return;
    }
    for (const w of batch.waiters) w.resolve();
    this.runAfterCommit();
  }

  private runAfterCommit(): void {
    for (const fn of this.afterCommitFns.splice(0)) fn();
  }

  close(): void {
    this.flush();
    if (this.db.open) this.db.close();
  }
}

export { MEMORY, STORE_FILE_MODE, StoreError, StoreFolderMissing } from './db.js';
export type { Environment } from './environments.js';
