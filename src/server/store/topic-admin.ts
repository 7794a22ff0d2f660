// Topics as the operator API manages them (list, rename, delete, subscriptions with their dates), on
// the tables the trigger's topic fan-out reads (contexts.ts: `topics`, `topic_subscribers`), and the
// integration update (a whole document written back), kept out of the repositories other code owns.
import { createHash } from 'node:crypto';
import type { Integration } from '../../api/schemas/resources.js';
import { parseDoc, Repo } from './repo.js';

export interface TopicRecord {
  _id: string;
  key: string;
  name: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface SubscriptionRecord {
  /** The subscription's own id (see subscriptionId). */
  _id: string;
  subscriberDbId: string;
  subscriberId: string;
  subscriberDoc: string;
  createdAt: string;
}

const TOPIC = 'SELECT id AS _id, key, name, created_at AS createdAt, updated_at AS updatedAt FROM topics';

export class TopicAdmin extends Repo {
  find(envId: string, key: string): TopicRecord | undefined {
    return this.stmt(`${TOPIC} WHERE env_id = ? AND key = ?`).get(envId, key) as TopicRecord | undefined;
  }

  /** By key, oldest first; `after`/`before`: a topic _id of the previous page. */
  list(envId: string, q: { key?: string | undefined; name?: string | undefined; limit: number; after?: string | undefined; before?: string | undefined }) {
    const where = ['env_id = ?'];
    const params: unknown[] = [envId];
    if (q.key !== undefined) {
      where.push('key = ?');
      params.push(q.key);
    }
    if (q.name !== undefined) {
      where.push("instr(lower(coalesce(name, '')), lower(?)) > 0");
      params.push(q.name);
    }
    const totalCount = (this.db.prepare(`SELECT count(*) AS n FROM topics WHERE ${where.join(' AND ')}`).get(...params) as { n: number }).n;
    const page = [...where];
    const pageParams = [...params];
    if (q.after !== undefined) {
      page.push('id > ?');
      pageParams.push(q.after);
    }
    if (q.before !== undefined) {
      page.push('id < ?');
      pageParams.push(q.before);
    }
    const order = q.before !== undefined ? 'DESC' : 'ASC';
    let rows = this.db.prepare(`${TOPIC} WHERE ${page.join(' AND ')} ORDER BY id ${order} LIMIT ?`).all(...pageParams, q.limit + 1) as TopicRecord[];
    const more = rows.length > q.limit;
    rows = rows.slice(0, q.limit);
    if (order === 'DESC') rows.reverse();
    const first = rows[0]?._id;
    const last = rows.at(-1)?._id;
    const next = q.before !== undefined ? (last ?? null) : more ? (last ?? null) : null;
    const previous = q.after !== undefined ? (first ?? null) : q.before !== undefined && more ? (first ?? null) : null;
    return { data: rows, next, previous, totalCount, totalCountCapped: false };
  }

  rename(envId: string, key: string, name: string): TopicRecord | undefined {
    this.stmt('UPDATE topics SET name = ?, updated_at = ? WHERE env_id = ? AND key = ?').run(name, this.nowIso(), envId, key);
    return this.find(envId, key);
  }

  remove(envId: string, key: string): boolean {
    const t = this.find(envId, key);
    if (!t) return false;
    this.stmt('DELETE FROM topic_subscribers WHERE topic_id = ?').run(t._id);
    this.stmt('DELETE FROM topics WHERE id = ?').run(t._id);
    return true;
  }

  subscriptions(topicId: string, q: { subscriberId?: string | undefined; limit: number; after?: string | undefined }) {
    const where = ['t.topic_id = ?'];
    const params: unknown[] = [topicId];
    if (q.subscriberId !== undefined) {
      where.push('s.subscriber_id = ?');
      params.push(q.subscriberId);
    }
    const from = `topic_subscribers t JOIN subscribers s ON s.id = t.subscriber_id WHERE ${where.join(' AND ')}`;
    const totalCount = (this.db.prepare(`SELECT count(*) AS n FROM ${from}`).get(...params) as { n: number }).n;
    if (q.after !== undefined) {
      where.push('s.id > ?');
      params.push(q.after);
    }
    const rows = this.db
      .prepare(
        `SELECT s.id AS subscriberDbId, s.subscriber_id AS subscriberId, s.doc AS subscriberDoc, t.created_at AS createdAt
         FROM topic_subscribers t JOIN subscribers s ON s.id = t.subscriber_id WHERE ${where.join(' AND ')} ORDER BY s.id LIMIT ?`,
      )
      .all(...params, q.limit + 1) as Omit<SubscriptionRecord, '_id'>[];
    const more = rows.length > q.limit;
    return { rows: rows.slice(0, q.limit).map((r) => withId(topicId, r)), more, totalCount };
  }

  subscription(topicId: string, subscriberDbId: string): SubscriptionRecord | undefined {
    const row = this.stmt(
      `SELECT s.id AS subscriberDbId, s.subscriber_id AS subscriberId, s.doc AS subscriberDoc, t.created_at AS createdAt
       FROM topic_subscribers t JOIN subscribers s ON s.id = t.subscriber_id WHERE t.topic_id = ? AND t.subscriber_id = ?`,
    ).get(topicId, subscriberDbId) as Omit<SubscriptionRecord, '_id'> | undefined;
    return row && withId(topicId, row);
  }

  unsubscribe(topicId: string, subscriberDbId: string): boolean {
    return this.stmt('DELETE FROM topic_subscribers WHERE topic_id = ? AND subscriber_id = ?').run(topicId, subscriberDbId).changes > 0;
  }

  touch(topicId: string): void {
    this.stmt('UPDATE topics SET updated_at = ? WHERE id = ?').run(this.nowIso(), topicId);
  }

  integrationDoc(envId: string, id: string): Integration | undefined {
    const row = this.stmt('SELECT doc FROM integrations WHERE env_id = ? AND id = ?').get(envId, id) as { doc: string } | undefined;
    const doc = row ? parseDoc<Integration>(row.doc) : undefined;
    return doc && !doc.deleted ? doc : undefined;
  }
}

/**
 * A subscription's id, 24 hex characters shaped like the service's database ids: the second it was
 * made, then 16 characters fixed by its topic and subscriber. The same for the same subscription on
 * every read; another topic's subscription of the same subscriber has its own; a subscription made
 * again after an unsubscribe is a new one. Derived rather than stored: the table keys a subscription
 * by (topic, subscriber) already.
 */
export function subscriptionId(topicId: string, subscriberDbId: string, createdAt: string): string {
  const seconds = Math.floor(Date.parse(createdAt) / 1000) >>> 0;
  const pair = createHash('sha256').update(`${topicId}/${subscriberDbId}`).digest('hex').slice(0, 16);
  return seconds.toString(16).padStart(8, '0') + pair;
}

function withId(topicId: string, row: Omit<SubscriptionRecord, '_id'>): SubscriptionRecord {
  return { _id: subscriptionId(topicId, row.subscriberDbId, row.createdAt), ...row };
}
