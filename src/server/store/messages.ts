// Messages: what a channel step delivered. The document is the API's Message record (without the
// embedded subscriber, which is joined in when read); read/seen are also columns for filtering.
import type { Message } from '../../api/schemas/resources.js';
import type { MarkAs } from '../../api/schemas/enums.js';
import { contextKeySet, parseDoc, Repo } from './repo.js';

export interface MessageRecord {
  id: string;
  jobId: string;
  subscriberId: string;
  doc: Message;
}

export interface MessageFilter {
  channel?: string | undefined;
  subscriberDbId?: string | undefined;
  transactionIds?: string[] | undefined;
  contextKeys?: string[] | undefined;
}

interface Row {
  id: string;
  job_id: string;
  subscriber_id: string;
  doc: string;
}

const toRecord = (r: Row): MessageRecord => ({ id: r.id, jobId: r.job_id, subscriberId: r.subscriber_id, doc: parseDoc<Message>(r.doc) });

export class Messages extends Repo {
  newMessageId(): string {
    return this.newId();
  }

  create(jobId: string, doc: Message & { _id: string }): Message {
    this.stmt(
      `INSERT INTO messages (id, env_id, org_id, notification_id, job_id, subscriber_id, channel, transaction_id, read, seen, status,
       context_keys, doc, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      doc._id,
      doc._environmentId,
      doc._organizationId,
      doc._notificationId,
      jobId,
      doc._subscriberId,
      doc.channel,
      doc.transactionId,
      +doc.read,
      +doc.seen,
      doc.status,
      contextKeySet(doc.contextKeys),
      JSON.stringify(doc),
      doc.createdAt,
      doc.createdAt,
    );
    return doc;
  }

  list(envId: string, f: MessageFilter, page: number, limit: number): { totalCount: number; hasMore: boolean; rows: MessageRecord[] } {
    const where = ['env_id = ?'];
    const params: unknown[] = [envId];
    if (f.channel !== undefined) {
      where.push('channel = ?');
      params.push(f.channel);
    }
    if (f.subscriberDbId !== undefined) {
      where.push('subscriber_id = ?');
      params.push(f.subscriberDbId);
    }
    if (f.transactionIds !== undefined) {
      where.push(`transaction_id IN (${f.transactionIds.map(() => '?').join(',') || "''"})`);
      params.push(...f.transactionIds);
    }
    if (f.contextKeys !== undefined) {
      where.push('context_keys = ?');
      params.push(contextKeySet(f.contextKeys));
    }
    const w = where.join(' AND ');
    const totalCount = (this.db.prepare(`SELECT count(*) AS n FROM messages WHERE ${w}`).get(...params) as { n: number }).n;
    const rows = this.db
      .prepare(`SELECT id, job_id, subscriber_id, doc FROM messages WHERE ${w} ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?`)
      .all(...params, limit + 1, page * limit) as Row[];
    return { totalCount, hasMore: rows.length > limit, rows: rows.slice(0, limit).map(toRecord) };
  }

  /** Only the subscriber's own messages among `ids` are changed and returned. */
  markAs(subscriberDbId: string, ids: string[], markAs: MarkAs): MessageRecord[] {
    const now = this.nowIso();
    const out: MessageRecord[] = [];
    for (const id of new Set(ids)) {
      const row = this.stmt('SELECT id, job_id, subscriber_id, doc FROM messages WHERE id = ? AND subscriber_id = ?').get(id, subscriberDbId) as
        | Row
        | undefined;
      if (!row) continue;
      const rec = toRecord(row);
      const m = rec.doc;
      switch (markAs) {
        case 'read':
          m.read = true;
          m.seen = true;
          m.lastReadDate = now;
          m.lastSeenDate ??= now;
          break;
        case 'unread':
          m.read = false;
          m.seen = true;
          break;
        case 'seen':
          m.seen = true;
          m.lastSeenDate = now;
          break;
        case 'unseen':
          m.seen = false;
          break;
      }
      m.updatedAt = now;
      this.stmt('UPDATE messages SET read = ?, seen = ?, doc = ?, updated_at = ? WHERE id = ?').run(+m.read, +m.seen, JSON.stringify(m), now, id);
      out.push(rec);
    }
    return out;
  }
}
