// The store: one SQLite file (or memory) and its repositories. better-sqlite3 is synchronous; a
// request's writes happen in one savepoint of a group-commit batch (`grouped`, throughput.ts), and
// its reply is sent only once that batch has committed.
import type { Clock } from '../clock.js';
import { GroupCommit } from '../throughput.js';
import { Caches } from './cache.js';
import { Activity } from './activity.js';
import { ChannelConnections, ChannelEndpoints } from './channels.js';
import { Contexts, Tenants, Topics } from './contexts.js';
import { openDatabase, type DB, type OpenOptions } from './db.js';
import { Environments } from './environments.js';
import { Idempotency } from './idempotency.js';
import { Integrations } from './integrations.js';
import { Jobs } from './jobs.js';
import { Layouts } from './layouts.js';
import { Messages } from './messages.js';
import { Subscribers } from './subscribers.js';
import { Workflows } from './workflows.js';
import { Inbox } from './inbox.js';
import { SubscriberPreferences } from './subscriber-preferences.js';
import { TopicAdmin } from './topic-admin.js';
import { SubscriptionLookup } from './subscription-lookup.js';
import { Translations } from './translations.js';
import { EnvironmentVariables } from './environment-variables.js';
import { Domains } from './domains.js';

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
  readonly subscriptionLookup: SubscriptionLookup;
  readonly layouts: Layouts;
  readonly translations: Translations;
  readonly environmentVariables: EnvironmentVariables;
  readonly domains: Domains;
  /** Every cache of the repositories (cache.ts): cleared whenever a transaction rolls back. */
  readonly caches = new Caches();
  /** The batch requests and the runner share (throughput.ts): its COMMIT is what answers wait for. */
  readonly groupCommit: GroupCommit;

  constructor(
    readonly db: DB,
    readonly clock: Clock,
    /** The file had no schema before this process opened it. */
    readonly created: boolean,
    readonly file: string,
  ) {
    this.environments = new Environments(db, clock, this.caches);
    this.subscribers = new Subscribers(db, clock, this.caches);
    this.integrations = new Integrations(db, clock, this.caches);
    this.workflows = new Workflows(db, clock, this.caches);
    this.contexts = new Contexts(db, clock);
    this.tenants = new Tenants(db, clock);
    this.topics = new Topics(db, clock);
    this.activity = new Activity(db, clock);
    this.jobs = new Jobs(db, clock, this.caches);
    this.messages = new Messages(db, clock);
    this.connections = new ChannelConnections(db, clock);
    this.endpoints = new ChannelEndpoints(db, clock);
    this.idempotency = new Idempotency(db, clock);
    this.inbox = new Inbox(db, clock);
    this.preferences = new SubscriberPreferences(db, clock);
    this.topicAdmin = new TopicAdmin(db, clock);
    this.subscriptionLookup = new SubscriptionLookup(db, clock);
    this.layouts = new Layouts(db, clock);
    this.translations = new Translations(db, clock);
    this.environmentVariables = new EnvironmentVariables(db, clock, this.caches);
    this.domains = new Domains(db, clock);
    this.runInTx = db.transaction((fn: () => unknown) => fn());
    this.groupCommit = new GroupCommit(
      db,
      (fn) => this.tx(fn),
      () => this.rolledBack(),
    );
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

  /** better-sqlite3's transaction wrapper, built once (it is an object of its own per call otherwise). */
  private readonly runInTx: (fn: () => unknown) => unknown;

  /** Runs `fn` in one transaction (nested calls, and calls while a batch is open, are savepoints of the outer one). */
  tx<T>(fn: () => T): T {
    try {
      return this.runInTx(fn) as T;
    } catch (e) {
      this.rolledBack();
      throw e;
    }
  }

  /** Told once the whole content was replaced (reset, snapshot load) and the runner runs again: the Inbox sockets. */
  readonly replacedListeners: (() => void)[] = [];

  /** The whole content was replaced (reset, snapshot load): nothing cached of the old rows is kept. */
  reloaded(): void {
    this.rolledBack();
  }

  /** What was read inside a rolled-back transaction may be gone: every cache forgets. */
  private rolledBack(): void {
    this.caches.clear();
    this.inbox.forgetAll();
  }

  // --- group commit (throughput.ts) ------------------------------------------------------------

  /** A batch is open: what is read now may not be committed yet. */
  get batchOpen(): boolean {
    return this.groupCommit.open;
  }

  /** Runs `fn` in a savepoint of the open group-commit batch; `committed` settles after its COMMIT. */
  grouped<T>(fn: () => T): { value: T; committed: Promise<void> } {
    return this.groupCommit.join(fn);
  }

  /** Runs `fn` once no batch is open (now, or right after the open one commits). */
  afterCommit(fn: () => void): void {
    this.groupCommit.afterCommit(fn);
  }

  /** Commits the open batch, if any. */
  flush(): void {
    this.groupCommit.flush();
  }

  close(): void {
    this.flush();
    if (this.db.open) this.db.close();
  }
}

export { MEMORY, StoreError, StoreFolderMissing } from './db.js';
export type { Environment } from './environments.js';
