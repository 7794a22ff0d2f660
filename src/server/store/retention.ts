// Retention (`svc dev --retention 30d`): activity older than the window goes, as the hosted service
// keeps it only for a limited time. An event goes with its jobs, their details and its messages, and
// only once none of its jobs can still run (a 60-day delay is kept until it has finished).
import type { DB } from './db.js';
import { idText, txKeySql } from './repo.js';

export interface PruneResult {
  notifications: number;
  messages: number;
}

/**
 * Deletes up to `limit` finished events created before `before` (ISO time), oldest first, in one
 * transaction; call again while it returns `limit` (small batches keep requests flowing meanwhile).
 */
export function pruneActivity(db: DB, before: string, limit: number): PruneResult {
  return db.transaction((): PruneResult => {
    // Ids as stored (12-byte keys, see migration 4) and as text (execution-detail rows of stores
    // written before issue 11 keep them so).
    const rows = db
      .prepare(
        `SELECT n.id AS key, ${idText('n.id', 'text')} FROM notifications n WHERE n.created_at < ?
         AND NOT EXISTS (SELECT 1 FROM jobs j WHERE j.notification_id = n.id AND j.status IN ('pending', 'queued', 'running', 'delayed'))
         ORDER BY n.created_at LIMIT ?`,
      )
      .all(Date.parse(before), limit) as { key: Buffer | string; text: string }[];
    if (rows.length === 0) return { notifications: 0, messages: 0 };
    const ids = rows.map((r) => r.key);
    const list = `(${ids.map(() => '?').join(',')})`;
    const messages = db.prepare(`DELETE FROM messages WHERE notification_id IN ${list}`).run(...ids).changes;
    db.prepare(`DELETE FROM execution_details WHERE notification_id IN ${list}`).run(...rows.map((r) => r.text));
    db.prepare(`DELETE FROM jobs WHERE notification_id IN ${list}`).run(...ids);
    const notifications = db.prepare(`DELETE FROM notifications WHERE id IN ${list}`).run(...ids).changes;
    // Accepted transactionIds of that age: a repeat after the window is a new event, as on the service.
    db.prepare(
      `DELETE FROM triggers WHERE created_at < ? AND NOT EXISTS (SELECT 1 FROM notifications n
       WHERE n.transaction_id = ${txKeySql('triggers.transaction_id')}
       AND n.env_id IN (triggers.env_id, unhex(triggers.env_id)))`,
    ).run(before);
    return { notifications, messages };
  })();
}

const UNITS: Record<string, number> = { m: 60_000, h: 3_600_000, d: 86_400_000 };

/** `30d`, `12h`, `90m` → milliseconds; undefined when the text is not such a duration. */
export function parseRetention(text: string): number | undefined {
  const m = /^(\d+)([mhd])$/.exec(text.trim());
  if (!m) return undefined;
  const ms = Number(m[1]) * UNITS[m[2]!]!;
  return ms > 0 && Number.isSafeInteger(ms) ? ms : undefined;
}
