// A subscriber's own topic subscriptions, as an app's <Inbox/> manages them: each with an identifier
// (unique in its topic) and a name, and a preference per workflow (on or off, or a condition). The
// subscription itself is the topic_subscribers row the trigger's fan-out reads; a subscriber added to
// a topic by the operator API has one subscription there, under the service's default identifier,
// until the Inbox changes it. One subscriber may hold several subscriptions of one topic (the row in
// topic_subscribers goes with the last of them).
import { parseDoc, Repo } from './repo.js';
import type { ChannelSwitches } from './subscriber-preferences.js';
import { subscriptionId } from './topic-admin.js';

export interface SubscriptionRow {
  id: string;
  topicId: string;
  topicKey: string;
  subscriberDbId: string;
  identifier: string;
  name: string | null;
  createdAt: string;
  updatedAt: string;
  /** Not stored yet: a topic_subscribers row (operator API) seen under the default identifier. */
  implicit: boolean;
}

export interface SubscriptionPreferenceRow {
  workflowDbId: string;
  enabled: boolean;
  condition: unknown;
  channels: ChannelSwitches;
}

/** A stored subscription as a trigger's fan-out to its topic weighs it. */
export interface FanOutSubscription {
  /** The subscriber's external id. */
  subscriberId: string;
  identifier: string;
  /** Its preference for the triggered workflow, when one is set. */
  preference?: { enabled: boolean; condition: unknown };
}

/** The service's identifier of a subscription it names itself: `tk_{topicKey}:si_{subscriberId}`. */
export function defaultSubscriptionIdentifier(topicKey: string, subscriberId: string): string {
  return `tk_${topicKey}:si_${subscriberId}`;
}

const COLUMNS = `s.id, s.topic_id AS topicId, t.key AS topicKey, s.subscriber_id AS subscriberDbId, s.identifier, s.name,
  s.created_at AS createdAt, s.updated_at AS updatedAt`;
// A stored subscription counts only while its subscriber is still on the topic (the operator API may
// have taken them off).
const LIVE = `FROM topic_subscriptions s JOIN topics t ON t.id = s.topic_id
  JOIN topic_subscribers ts ON ts.topic_id = s.topic_id AND ts.subscriber_id = s.subscriber_id`;

type Stored = Omit<SubscriptionRow, 'implicit'>;
const stored = (r: Stored | undefined): SubscriptionRow | undefined => r && { ...r, implicit: false };

export class InboxSubscriptions extends Repo {
  /** The subscriber's subscriptions of the topic, oldest first (the implicit one when none is stored). */
  ofTopic(topicId: string, subscriberDbId: string, subscriberId: string): SubscriptionRow[] {
    const rows = this.stmt(`SELECT ${COLUMNS} ${LIVE} WHERE s.topic_id = ? AND s.subscriber_id = ? ORDER BY s.created_at, s.id`).all(
      topicId,
      subscriberDbId,
    ) as Stored[];
    if (rows.length > 0) return rows.map((r) => ({ ...r, implicit: false }));
    const implicit = this.implicit(topicId, subscriberDbId, subscriberId);
    return implicit ? [implicit] : [];
  }

  /** The subscriber's subscription of the topic with that identifier. */
  find(topicId: string, subscriberDbId: string, subscriberId: string, identifier: string): SubscriptionRow | undefined {
    const row = stored(
      this.stmt(`SELECT ${COLUMNS} ${LIVE} WHERE s.topic_id = ? AND s.identifier = ? AND s.subscriber_id = ?`).get(topicId, identifier, subscriberDbId) as
        | Stored
        | undefined,
    );
    if (row) return row;
    const implicit = this.implicit(topicId, subscriberDbId, subscriberId);
    return implicit?.identifier === identifier ? implicit : undefined;
  }

  /** The subscriber's subscription with that identifier, in any topic (the oldest if several). */
  byIdentifier(subscriberDbId: string, subscriberId: string, identifier: string): SubscriptionRow | undefined {
    const row = stored(
      this.stmt(`SELECT ${COLUMNS} ${LIVE} WHERE s.subscriber_id = ? AND s.identifier = ? ORDER BY s.created_at, s.id LIMIT 1`).get(
        subscriberDbId,
        identifier,
      ) as Stored | undefined,
    );
    if (row) return row;
    // A default identifier names its topic: `tk_{key}:si_{subscriberId}`.
    const prefix = 'tk_';
    const suffix = `:si_${subscriberId}`;
    if (!identifier.startsWith(prefix) || !identifier.endsWith(suffix)) return undefined;
    const key = identifier.slice(prefix.length, -suffix.length);
    const topic = this.stmt('SELECT t.id FROM topics t JOIN subscribers s ON s.env_id = t.env_id WHERE s.id = ? AND t.key = ?').get(subscriberDbId, key) as
      | { id: string }
      | undefined;
    return topic ? this.find(topic.id, subscriberDbId, subscriberId, identifier) : undefined;
  }

  /** How many subscriptions the subscriber holds on the topic. */
  count(topicId: string, subscriberDbId: string): number {
    return (this.stmt('SELECT count(*) AS n FROM topic_subscriptions WHERE topic_id = ? AND subscriber_id = ?').get(topicId, subscriberDbId) as { n: number })
      .n;
  }

  /** Stores a subscription (an implicit one becomes stored under its identifier), and subscribes. */
  create(topicId: string, subscriberDbId: string, identifier: string, name: string | undefined): SubscriptionRow {
    const now = this.nowIso();
    // A stale row (its subscriber was taken off the topic since) makes way for the new one.
    this.stmt('DELETE FROM topic_subscriptions WHERE topic_id = ? AND identifier = ?').run(topicId, identifier);
    const id = this.newId();
    this.stmt('INSERT INTO topic_subscriptions (id, topic_id, subscriber_id, identifier, name, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)').run(
      id,
      topicId,
      subscriberDbId,
      identifier,
      name ?? null,
      now,
      now,
    );
    this.stmt('INSERT OR IGNORE INTO topic_subscribers (topic_id, subscriber_id, created_at) VALUES (?, ?, ?)').run(topicId, subscriberDbId, now);
    return this.byId(id)!;
  }

  /** A stored subscription of an implicit one, keeping its identifier. */
  materialize(row: SubscriptionRow): SubscriptionRow {
    return row.implicit ? this.create(row.topicId, row.subscriberDbId, row.identifier, undefined) : row;
  }

  rename(id: string, name: string): void {
    this.stmt('UPDATE topic_subscriptions SET name = ?, updated_at = ? WHERE id = ?').run(name, this.nowIso(), id);
  }

  byId(id: string): SubscriptionRow | undefined {
    return stored(this.stmt(`SELECT ${COLUMNS} ${LIVE} WHERE s.id = ?`).get(id) as Stored | undefined);
  }

  /** Deletes the subscription and its preferences; the subscriber leaves the topic with their last one. */
  remove(row: SubscriptionRow): void {
    this.stmt('DELETE FROM topic_subscription_preferences WHERE subscription_id = ?').run(row.id);
    this.stmt('DELETE FROM topic_subscriptions WHERE id = ?').run(row.id);
    if (this.count(row.topicId, row.subscriberDbId) === 0) {
      this.stmt('DELETE FROM topic_subscribers WHERE topic_id = ? AND subscriber_id = ?').run(row.topicId, row.subscriberDbId);
    }
  }

  preferences(subscriptionId: string): SubscriptionPreferenceRow[] {
    const rows = this.stmt('SELECT workflow_id, enabled, condition, channels FROM topic_subscription_preferences WHERE subscription_id = ? ORDER BY seq').all(
      subscriptionId,
    ) as { workflow_id: string; enabled: number; condition: string | null; channels: string }[];
    return rows.map((r) => ({
      workflowDbId: r.workflow_id,
      enabled: r.enabled === 1,
      condition: r.condition === null ? undefined : parseDoc<unknown>(r.condition),
      channels: parseDoc<ChannelSwitches>(r.channels),
    }));
  }

  preference(subscriptionId: string, workflowDbId: string): SubscriptionPreferenceRow | undefined {
    return this.preferences(subscriptionId).find((p) => p.workflowDbId === workflowDbId);
  }

  /** Sets the subscription's preference for the workflow: `channels` merge into those kept. */
  setPreference(subscriptionId: string, p: SubscriptionPreferenceRow): void {
    const kept = this.preference(subscriptionId, p.workflowDbId);
    this.stmt(
      `INSERT INTO topic_subscription_preferences (subscription_id, workflow_id, seq, enabled, condition, channels, updated_at)
       VALUES (@sid, @wid, (SELECT coalesce(max(seq), 0) + 1 FROM topic_subscription_preferences WHERE subscription_id = @sid), @enabled, @condition, @channels, @at)
       ON CONFLICT (subscription_id, workflow_id) DO UPDATE SET enabled = excluded.enabled, condition = excluded.condition,
       channels = excluded.channels, updated_at = excluded.updated_at`,
    ).run({
      sid: subscriptionId,
      wid: p.workflowDbId,
      enabled: +p.enabled,
      condition: p.condition === undefined ? null : JSON.stringify(p.condition),
      channels: JSON.stringify({ ...kept?.channels, ...p.channels }),
      at: this.clock.now(),
    });
  }

  /**
   * The topic's stored subscriptions (their subscriber still on it), each with its preference for the
   * workflow when it has one: what a trigger to the topic weighs. A subscriber on the topic with no
   * stored subscription (the operator API's) holds the default one, which has no preferences.
   */
  forFanOut(topicId: string, workflowDbId: string): FanOutSubscription[] {
    const rows = this.stmt(
      `SELECT sub.subscriber_id AS subscriberId, s.identifier, p.enabled, p.condition
       FROM topic_subscriptions s
       JOIN topic_subscribers ts ON ts.topic_id = s.topic_id AND ts.subscriber_id = s.subscriber_id
       JOIN subscribers sub ON sub.id = s.subscriber_id
       LEFT JOIN topic_subscription_preferences p ON p.subscription_id = s.id AND p.workflow_id = ?
       WHERE s.topic_id = ?`,
    ).all(workflowDbId, topicId) as { subscriberId: string; identifier: string; enabled: number | null; condition: string | null }[];
    return rows.map((r) => ({
      subscriberId: r.subscriberId,
      identifier: r.identifier,
      ...(r.enabled !== null && { preference: { enabled: r.enabled === 1, condition: r.condition === null ? undefined : parseDoc<unknown>(r.condition) } }),
    }));
  }

  clearPreferences(subscriptionId: string): void {
    this.stmt('DELETE FROM topic_subscription_preferences WHERE subscription_id = ?').run(subscriptionId);
  }

  /** The operator API's subscription (topic_subscribers), shown under the default identifier. */
  private implicit(topicId: string, subscriberDbId: string, subscriberId: string): SubscriptionRow | undefined {
    const row = this.stmt(
      `SELECT ts.created_at AS createdAt, t.key AS topicKey FROM topic_subscribers ts JOIN topics t ON t.id = ts.topic_id
       WHERE ts.topic_id = ? AND ts.subscriber_id = ?
       AND NOT EXISTS (SELECT 1 FROM topic_subscriptions s WHERE s.topic_id = ts.topic_id AND s.subscriber_id = ts.subscriber_id)`,
    ).get(topicId, subscriberDbId) as { createdAt: string; topicKey: string } | undefined;
    if (!row) return undefined;
    return {
      // The same _id the operator API shows for it.
      id: subscriptionId(topicId, subscriberDbId, row.createdAt),
      topicId,
      topicKey: row.topicKey,
      subscriberDbId,
      identifier: defaultSubscriptionIdentifier(row.topicKey, subscriberId),
      name: null,
      createdAt: row.createdAt,
      updatedAt: row.createdAt,
      implicit: true,
    };
  }
}
