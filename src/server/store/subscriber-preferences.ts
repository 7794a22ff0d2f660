// A subscriber's own channel preferences: one global row (workflow_id '') and one per workflow they
// changed. Only the channels they set are kept; the engine completes the rest from the workflow's.
import { parseDoc, Repo } from './repo.js';

export type ChannelSwitches = Partial<Record<'in_app' | 'email' | 'sms' | 'push' | 'chat', boolean>>;

interface StoredPreference {
  channels: ChannelSwitches;
  schedule?: Record<string, unknown> | undefined;
  updatedAt: number;
}

interface Row {
  workflow_id: string;
  channels: string;
  schedule: string | null;
  updated_at: number;
}

export const GLOBAL = '';

const toPreference = (r: Row): StoredPreference => ({
  channels: parseDoc<ChannelSwitches>(r.channels),
  ...(r.schedule !== null && { schedule: parseDoc<Record<string, unknown>>(r.schedule) }),
  updatedAt: r.updated_at,
});

export class SubscriberPreferences extends Repo {
  /** `workflowDbId`: a workflow's _id, or GLOBAL. */
  get(subscriberDbId: string, workflowDbId: string): StoredPreference | undefined {
    const row = this.stmt('SELECT workflow_id, channels, schedule, updated_at FROM subscriber_preferences WHERE subscriber_id = ? AND workflow_id = ?').get(
      subscriberDbId,
      workflowDbId,
    ) as Row | undefined;
    return row ? toPreference(row) : undefined;
  }

  /** Every row of the subscriber's, by workflow _id (GLOBAL for the global one). */
  all(subscriberDbId: string): Map<string, StoredPreference> {
    const rows = this.stmt('SELECT workflow_id, channels, schedule, updated_at FROM subscriber_preferences WHERE subscriber_id = ?').all(
      subscriberDbId,
    ) as Row[];
    return new Map(rows.map((r) => [r.workflow_id, toPreference(r)]));
  }

  /** Merges the channels given into the row (made when missing); `schedule` replaces the global schedule. */
  set(subscriberDbId: string, workflowDbId: string, channels: ChannelSwitches, schedule?: Record<string, unknown>): StoredPreference {
    const existing = this.get(subscriberDbId, workflowDbId);
    const merged: StoredPreference = {
      channels: { ...existing?.channels, ...channels },
      schedule: schedule ?? existing?.schedule,
      updatedAt: this.clock.now(),
    };
    this.stmt(
      `INSERT INTO subscriber_preferences (subscriber_id, workflow_id, channels, schedule, updated_at) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (subscriber_id, workflow_id) DO UPDATE SET channels = excluded.channels, schedule = excluded.schedule, updated_at = excluded.updated_at`,
    ).run(subscriberDbId, workflowDbId, JSON.stringify(merged.channels), merged.schedule ? JSON.stringify(merged.schedule) : null, merged.updatedAt);
    return merged;
  }

  removeSubscriber(subscriberDbId: string): void {
    this.stmt('DELETE FROM subscriber_preferences WHERE subscriber_id = ?').run(subscriberDbId);
  }
}
