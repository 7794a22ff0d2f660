// Subscribers. The document is the API's Subscriber record; name, email and phone are also columns
// because search filters on them.
import type { Subscriber } from '../../api/schemas/resources.js';
import type { Environment } from './environments.js';
import { cursorOptions, cursorPage, type CursorEnvelope } from './paging.js';
import type { Clock } from '../clock.js';
import type { Cache, Caches } from './cache.js';
import type { DB } from './db.js';
import { parseDoc, Repo } from './repo.js';

export type SubscriberFields = Partial<
  Pick<Subscriber, 'firstName' | 'lastName' | 'email' | 'phone' | 'avatar' | 'locale' | 'timezone' | 'data' | 'channels' | 'isOnline' | 'lastOnlineAt'>
>;

interface SubscriberSearch {
  email?: string | undefined;
  phone?: string | undefined;
  name?: string | undefined;
  subscriberId?: string | undefined;
  after?: string | undefined;
  before?: string | undefined;
  includeCursor?: boolean | undefined;
  limit: number;
  orderBy: '_id' | 'updatedAt';
  orderDirection: 'ASC' | 'DESC';
}

interface Row {
  id: string;
  doc: string;
}

export class Subscribers extends Repo {
  /** Records by environment and subscriberId, for the trigger, which reads the same few recipients again and again. */
  private readonly byId: Cache<string, Subscriber>;

  constructor(db: DB, clock: Clock, caches: Caches) {
    super(db, clock);
    this.byId = caches.create(1000);
  }

  /** The stored subscriber, shared between callers: treat it as read-only. */
  current(envId: string, subscriberId: string): Subscriber | undefined {
    const key = `${envId}\n${subscriberId}`;
    let sub = this.byId.get(key);
    if (sub === undefined) {
      sub = this.find(envId, subscriberId);
      if (sub !== undefined) this.byId.set(key, sub);
    }
    return sub;
  }

  find(envId: string, subscriberId: string): Subscriber | undefined {
    const row = this.stmt('SELECT doc FROM subscribers WHERE env_id = ? AND subscriber_id = ?').get(envId, subscriberId) as Row | undefined;
    return row ? parseDoc<Subscriber>(row.doc) : undefined;
  }

  findById(id: string): Subscriber | undefined {
    const row = this.stmt('SELECT doc FROM subscribers WHERE id = ?').get(id) as Row | undefined;
    return row ? parseDoc<Subscriber>(row.doc) : undefined;
  }

  /** Creates the subscriber, or changes only the fields given. */
  upsert(env: Environment, subscriberId: string, fields: SubscriberFields): Subscriber {
    const existing = this.find(env.id, subscriberId);
    const given = stripUndefined(fields);
    // A bare id (the common trigger) changes nothing: no write.
    if (existing && Object.keys(given).length === 0) return existing;
    const now = this.nowIso();
    const sub: Subscriber = existing
      ? { ...existing, ...given, updatedAt: now }
      : {
          _id: this.newId(),
          subscriberId,
          _organizationId: env.orgId,
          _environmentId: env.id,
          firstName: null,
          lastName: null,
          email: null,
          phone: null,
          avatar: null,
          locale: null,
          timezone: null,
          data: null,
          channels: [],
          isOnline: false,
          lastOnlineAt: null,
          ...given,
          deleted: false,
          createdAt: now,
          updatedAt: now,
          __v: 0,
        };
    if (existing && sameContent(existing, sub)) return existing;
    this.save(sub, !existing);
    return sub;
  }

  update(sub: Subscriber): Subscriber {
    const next = { ...sub, updatedAt: this.nowIso() };
    this.save(next, false);
    return next;
  }

  private save(sub: Subscriber, insert: boolean): void {
    // A document without its environment (written by an older svc) cannot name its entry: drop them all.
    if (typeof sub._environmentId === 'string') this.byId.delete(`${sub._environmentId}\n${sub.subscriberId}`);
    else this.byId.clear();
    const cols = [sub.firstName ?? null, sub.lastName ?? null, sub.email ?? null, sub.phone ?? null, JSON.stringify(sub), sub.updatedAt];
    if (insert) {
      this.stmt(
        `INSERT INTO subscribers (id, env_id, org_id, subscriber_id, first_name, last_name, email, phone, doc, updated_at, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ).run(sub._id, sub._environmentId, sub._organizationId, sub.subscriberId, ...cols, sub.createdAt);
    } else {
      this.stmt('UPDATE subscribers SET first_name = ?, last_name = ?, email = ?, phone = ?, doc = ?, updated_at = ? WHERE id = ?').run(...cols, sub._id);
    }
  }

  /** Deletes the subscriber, its topic subscriptions and its channel endpoints and connections. */
  remove(envId: string, subscriberId: string): boolean {
    const sub = this.find(envId, subscriberId);
    if (!sub) return false;
    this.byId.delete(`${envId}\n${subscriberId}`);
    this.stmt('DELETE FROM topic_subscribers WHERE subscriber_id = ?').run(sub._id);
    this.stmt('DELETE FROM channel_endpoints WHERE env_id = ? AND subscriber_id = ?').run(envId, subscriberId);
    this.stmt('DELETE FROM channel_connections WHERE env_id = ? AND subscriber_id = ?').run(envId, subscriberId);
    this.stmt('DELETE FROM subscribers WHERE id = ?').run(sub._id);
    return true;
  }

  private containsRegistered = false;

  /**
   * `svc_contains_ci(text, part)`: whether `part` occurs in `text` ignoring case, with Unicode's case
   * folding (SQLite's LIKE and lower() fold ASCII letters only: "ÉLODIE" would not find "élodie").
   */
  private registerContains(): void {
    if (this.containsRegistered) return;
    let lastPart: string | undefined;
    let lastRe: RegExp | undefined;
    this.db.function('svc_contains_ci', { deterministic: true }, (text: unknown, part: unknown) => {
      if (typeof text !== 'string' || typeof part !== 'string') return 0;
      if (part !== lastPart) {
        lastPart = part;
        lastRe = new RegExp(part.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&'), 'iu');
      }
      return lastRe!.test(text) ? 1 : 0;
    });
    this.containsRegistered = true;
  }

  /**
   * As the service's subscriber list: email and name ("first last", trimmed) match a part of the value
   * in any case (its query is a case-insensitive regular expression of the escaped text); phone and
   * subscriberId match the whole stored value exactly.
   */
  search(envId: string, q: SubscriberSearch): CursorEnvelope<Subscriber> {
    const where = ['env_id = ?'];
    const params: unknown[] = [envId];
    if (q.email !== undefined || q.name !== undefined) this.registerContains();
    if (q.email !== undefined) {
      where.push('svc_contains_ci(email, ?)');
      params.push(q.email);
    }
    if (q.phone !== undefined) {
      where.push('phone = ?');
      params.push(q.phone);
    }
    if (q.name !== undefined) {
      where.push("svc_contains_ci(trim(coalesce(first_name, '') || ' ' || coalesce(last_name, '')), ?)");
      params.push(q.name);
    }
    if (q.subscriberId !== undefined) {
      where.push('subscriber_id = ?');
      params.push(q.subscriberId);
    }
    return cursorPage<Row, Subscriber>(
      this.db,
      {
        table: 'subscribers',
        where: where.join(' AND '),
        params,
        ...cursorOptions(q, 'id'),
      },
      (r) => parseDoc<Subscriber>(r.doc),
    );
  }

  /** Every subscriberId of the environment, in order: the recipients of a broadcast. */
  idsOf(envId: string): string[] {
    return (this.stmt('SELECT subscriber_id FROM subscribers WHERE env_id = ? ORDER BY subscriber_id').all(envId) as { subscriber_id: string }[]).map(
      (r) => r.subscriber_id,
    );
  }

  /** Subscriber ids (database) of many external ids at once, for filters. */
  emailsToIds(envId: string, emails: string[]): string[] {
    if (emails.length === 0) return [];
    const rows = this.db.prepare(`SELECT id FROM subscribers WHERE env_id = ? AND email IN (${emails.map(() => '?').join(',')})`).all(envId, ...emails) as {
      id: string;
    }[];
    return rows.map((r) => r.id);
  }
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  const out: Partial<T> = {};
  for (const [k, v] of Object.entries(o)) if (v !== undefined) (out as Record<string, unknown>)[k] = v;
  return out;
}

function sameContent(a: Subscriber, b: Subscriber): boolean {
  return JSON.stringify({ ...a, updatedAt: '' }) === JSON.stringify({ ...b, updatedAt: '' });
}
