// The store: one SQLite file (or memory) and its repositories. better-sqlite3 is synchronous, so a
// request's writes happen in one transaction that has committed before the reply is sent.
import type { Clock } from '../clock.js';
import { Activity } from './activity.js';
import { ChannelConnections, ChannelEndpoints } from './channels.js';
import { Contexts, Tenants, Topics } from './contexts.js';
import { openDatabase, type DB } from './db.js';
import { Environments } from './environments.js';
import { Idempotency } from './idempotency.js';
import { Integrations } from './integrations.js';
import { Jobs } from './jobs.js';
import { Messages } from './messages.js';
import { Subscribers } from './subscribers.js';
import { Workflows } from './workflows.js';

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
  }

  static open(file: string, clock: Clock): Store {
    const { db, created } = openDatabase(file);
    return new Store(db, clock, created, file);
  }

  /**
   * Service time of the latest record: the last execution detail or notification written (rowids grow
   * with every insert). Null for an empty store.
   */
  lastActivityAt(): number | null {
    let latest: number | null = null;
    for (const table of ['execution_details', 'notifications']) {
      const row = this.db.prepare(`SELECT created_at AS t FROM ${table} ORDER BY rowid DESC LIMIT 1`).get() as { t: string } | undefined;
      const t = row ? Date.parse(row.t) : NaN;
      if (!Number.isNaN(t) && (latest === null || t > latest)) latest = t;
    }
    return latest;
  }

  /** Runs `fn` in one transaction (nested calls join the outer one). */
  tx<T>(fn: () => T): T {
    return this.db.transaction(fn)();
  }

  close(): void {
    if (this.db.open) this.db.close();
  }
}

export { MEMORY, StoreError } from './db.js';
export type { Environment } from './environments.js';
