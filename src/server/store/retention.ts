// Retention (`svc dev --retention 30d`): activity older than the window goes, as the hosted service
// keeps it only for a limited time. An event goes with its jobs, their details and its messages, and
// only once none of its jobs can still run (a 60-day delay is kept until it has finished). Accepted
// transactionIds go with their events (the events' index is the record of them).
import type { DB } from './db.js';

interface PruneResult {
  notifications: number;
  messages: number;
}

/**
 * Deletes up to `limit` finished events created before `before` (ISO time), oldest first, in one
 * transaction; call again while it returns `limit` (small batches keep requests flowing meanwhile).
 */
export function pruneActivity(db: DB, before: string, limit: number): PruneResult {
  return db.transaction((): PruneResult => {
    // Oldest first within each environment, through its newest-first index (read backwards): the
    // events of one batch are found without reading or sorting the rest. Ids as stored (their 12
    // bytes), bound back as they were read.
    const oldest = db.prepare(
      `SELECT n.id AS key FROM notifications n WHERE n.env_id = ? AND n.created_at < ?
       AND NOT EXISTS (SELECT 1 FROM jobs j WHERE j.notification_id = n.id AND j.status IN ('pending', 'queued', 'running', 'delayed'))
       ORDER BY n.created_at LIMIT ?`,
    );
    const ids: Uint8Array[] = [];
    for (const { env } of db.prepare('SELECT unhex(id) AS env FROM environments').all() as { env: Uint8Array }[]) {
      if (ids.length >= limit) break;
      ids.push(...(oldest.all(env, Date.parse(before), limit - ids.length) as { key: Uint8Array }[]).map((r) => r.key));
    }
    if (ids.length === 0) return { notifications: 0, messages: 0 };
    const list = `(${ids.map(() => '?').join(',')})`;
    const messages = db.prepare(`DELETE FROM messages WHERE notification_id IN ${list}`).run(...ids).changes;
    db.prepare(`DELETE FROM jobs WHERE notification_id IN ${list}`).run(...ids);
    const notifications = db.prepare(`DELETE FROM notifications WHERE id IN ${list}`).run(...ids).changes;
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
