// The idempotency-key cache: per organisation, 24 hours, persisted so replays survive a restart.
import { Repo } from './repo.js';

const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;

type IdempotencyEntry = { state: 'in_progress'; bodyHash: string } | { state: 'done'; bodyHash: string; status: number; body: string };

export class Idempotency extends Repo {
  get(orgId: string, key: string): IdempotencyEntry | undefined {
    const row = this.stmt('SELECT body_hash, state, status, body, expires_at FROM idempotency WHERE org_id = ? AND key = ?').get(orgId, key) as
      | { body_hash: string; state: string; status: number | null; body: string | null; expires_at: number }
      | undefined;
    if (!row || row.expires_at <= this.clock.now()) return undefined;
    if (row.state === 'done') return { state: 'done', bodyHash: row.body_hash, status: row.status ?? 200, body: row.body ?? '' };
    return { state: 'in_progress', bodyHash: row.body_hash };
  }

  begin(orgId: string, key: string, bodyHash: string): void {
    this.stmt(
      `INSERT INTO idempotency (org_id, key, body_hash, state, status, body, expires_at) VALUES (?, ?, ?, 'in_progress', NULL, NULL, ?)
       ON CONFLICT (org_id, key) DO UPDATE SET body_hash = excluded.body_hash, state = 'in_progress', status = NULL, body = NULL,
       expires_at = excluded.expires_at`,
    ).run(orgId, key, bodyHash, this.clock.now() + IDEMPOTENCY_TTL_MS);
  }

  finish(orgId: string, key: string, status: number, body: string): void {
    this.stmt("UPDATE idempotency SET state = 'done', status = ?, body = ? WHERE org_id = ? AND key = ?").run(status, body, orgId, key);
  }

  forget(orgId: string, key: string): void {
    this.stmt('DELETE FROM idempotency WHERE org_id = ? AND key = ?').run(orgId, key);
  }

  /** At start-up: nothing is in progress any more, and expired entries go. */
  sweep(): void {
    this.stmt("DELETE FROM idempotency WHERE state = 'in_progress' OR expires_at <= ?").run(this.clock.now());
  }
}
