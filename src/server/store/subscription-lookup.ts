// Topic subscriptions found from the operator's side: the topics a subscriber belongs to, and a
// subscription of a topic by its identifier whoever holds it. Read-only, over the tables the trigger's
// fan-out (topic_subscribers) and the Inbox's subscriptions (topic_subscriptions) write.
import { Repo } from './repo.js';

interface Membership {
  topicId: string;
  topicKey: string;
  topicName: string | null;
  createdAt: string;
}

export class SubscriptionLookup extends Repo {
  /** The topics the subscriber is on, by key; `key` keeps one. */
  topicsOf(subscriberDbId: string, key?: string): Membership[] {
    const rows = this.stmt(
      `SELECT t.id AS topicId, t.key AS topicKey, t.name AS topicName, ts.created_at AS createdAt
       FROM topic_subscribers ts JOIN topics t ON t.id = ts.topic_id WHERE ts.subscriber_id = ? ORDER BY t.key`,
    ).all(subscriberDbId) as Membership[];
    return key === undefined ? rows : rows.filter((r) => r.topicKey === key);
  }

  /** Who holds the stored subscription of that identifier in the topic (its subscriber's database id). */
  holderOf(topicId: string, identifier: string): string | undefined {
    const row = this.stmt(
      `SELECT s.subscriber_id AS holder FROM topic_subscriptions s
       JOIN topic_subscribers ts ON ts.topic_id = s.topic_id AND ts.subscriber_id = s.subscriber_id
       WHERE s.topic_id = ? AND s.identifier = ? LIMIT 1`,
    ).get(topicId, identifier) as { holder: string } | undefined;
    return row?.holder;
  }
}
