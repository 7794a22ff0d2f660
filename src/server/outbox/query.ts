// Reading the captured outbox: messages in the order they were stored, from a time on, with the
// filters a test waits on; and every email of the store, newest first, for the Mailpit API. Read
// through the store's own row reader (messageRows), with queries of their own.
import type { Statement } from 'better-sqlite3';
import type { Mailbox } from '../../core/email-source.js';
import { senderOf } from '../../core/message-checks.js';
import { messageContains } from '../../core/message-text.js';
import type { Store } from '../store/index.js';
import { type MessageRecord, type MessageRow, messageRows } from '../store/messages.js';
import { txKey } from '../store/repo.js';

export interface MessageMatch {
  /** The subscriber's own id (found in the environment at each look: it may be created while waiting). */
  subscriberId?: string | undefined;
  /** The workflow's identifier (the message's `templateIdentifier`). */
  workflowId?: string | undefined;
  channel?: string | undefined;
  transactionId?: string | undefined;
  /** Part of the subject, title or text, in any case. */
  contains?: string | undefined;
  /** Service milliseconds: messages created at or after it. */
  sinceMs: number;
}

const statements = new WeakMap<Store, Map<string, Statement>>();
function prepared(store: Store, sql: string): Statement {
  let byText = statements.get(store);
  if (!byText) statements.set(store, (byText = new Map()));
  let s = byText.get(sql);
  if (!s) byText.set(sql, (s = store.db.prepare(sql)));
  return s;
}

/** Whether a stored message matches what the query's columns could not say (workflow, text). */
function matchesRest(r: MessageRecord, f: MessageMatch): boolean {
  if (f.workflowId !== undefined && r.doc.templateIdentifier !== f.workflowId) return false;
  if (f.contains !== undefined && !messageContains(r.doc, f.contains)) return false;
  return true;
}

/** The oldest message of the environment created at or after `sinceMs` that matches. */
export function firstMatching(store: Store, envId: string, f: MessageMatch): MessageRecord | undefined {
  const where = ['m.env_id = unhex(?)', 'm.created_at >= ?'];
  const params: unknown[] = [envId, f.sinceMs];
  if (f.subscriberId !== undefined) {
    const sub = store.subscribers.find(envId, f.subscriberId);
    if (!sub?._id) return undefined;
    where.push('m.subscriber_id = unhex(?)');
    params.push(sub._id);
  }
  if (f.channel !== undefined) {
    where.push('m.channel = ?');
    params.push(f.channel);
  }
  if (f.transactionId !== undefined) {
    where.push('n.transaction_id = ?');
    params.push(txKey(f.transactionId));
  }
  const sql = `${messageRows.SELECT} WHERE ${where.join(' AND ')} ORDER BY m.created_at, m.id`;
  for (const row of prepared(store, sql).iterate(...params) as IterableIterator<MessageRow>) {
    const r = messageRows.read(row);
    if (matchesRest(r, f)) return r;
  }
  return undefined;
}

/** One message by id, in any environment (the Mailpit API has no API key), or of one. */
export function messageById(store: Store, id: string, envId?: string): MessageRecord | undefined {
  if (!/^[0-9a-f]{24}$/i.test(id)) return undefined;
  const sql = `${messageRows.SELECT} WHERE m.id = unhex(?)${envId !== undefined ? ' AND m.env_id = unhex(?)' : ''}`;
  const row = prepared(store, sql).get(...(envId !== undefined ? [id.toLowerCase(), envId] : [id.toLowerCase()])) as MessageRow | undefined;
  return row ? messageRows.read(row) : undefined;
}

/** Every email of the store (of one environment when given), newest first. */
export function emailsNewestFirst(store: Store, envId?: string): MessageRecord[] {
  const sql = `${messageRows.SELECT} WHERE m.channel = 'email'${envId !== undefined ? ' AND m.env_id = unhex(?)' : ''} ORDER BY m.created_at DESC, m.id DESC`;
  return (prepared(store, sql).all(...(envId !== undefined ? [envId] : [])) as MessageRow[]).map(messageRows.read);
}

/**
 * The sender of each environment's email provider (its integration's `from`), looked up once per
 * answer: the primary active integration of that provider first.
 */
export function senders(store: Store): (envId: string, providerId: string | undefined) => Mailbox | undefined {
  const cache = new Map<string, Mailbox | undefined>();
  return (envId, providerId) => {
    const key = `${envId} ${providerId}`;
    if (!cache.has(key)) {
      const email = store.integrations.ofEnvironment(envId).filter((i) => i.channel === 'email' && (providerId === undefined || i.providerId === providerId));
      const chosen = email.find((i) => i.primary && i.active) ?? email.find((i) => i.active) ?? email[0];
      cache.set(key, senderOf(chosen));
    }
    return cache.get(key);
  };
}
