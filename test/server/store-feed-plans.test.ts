// The feed at any size: each filter of the activity feed and the message list that the CLI, the
// terminal browser and the console send must find its page through an index already in page order
// (newest first), so that a page stops after its rows. A plan that walks the environment's newest-first
// index and filters every row (what made a subscriber's page 8× slower at 100,000 events than at
// 10,000), or sorts what it found, fails here. bench/feed-scale.mjs measures the times.
import type { Statement } from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testService } from '../helpers/service.js';

const svc = testService();
afterAll(() => svc.close());

let workflowDbId: string;
beforeAll(async () => {
  expect((await svc.request('POST', '/v1/events/trigger', { body: { name: 'welcome', to: 'ada', transactionId: 'plan-1' } })).status).toBe(201);
  await svc.runner.idle();
  workflowDbId = svc.store.activity.listNotifications(svc.environment.id, { transactionId: 'plan-1' }, 0, 1).rows[0]!.workflowId;
});

/** The query plans of the page queries (those with ORDER BY) a request ran. */
async function plansOf(url: string): Promise<string[]> {
  const db = svc.store.db;
  const prepare = db.prepare.bind(db);
  const pages: string[] = [];
  db.prepare = ((sql: string) => {
    if (/\bORDER BY\b/.test(sql) && /FROM (notifications|messages)\b/.test(sql)) pages.push(sql);
    return prepare(sql);
  }) as typeof db.prepare;
  try {
    const r = await svc.request('GET', url);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect((r.body as { data: unknown[] }).data.length).toBeGreaterThan(0);
  } finally {
    db.prepare = prepare as typeof db.prepare;
  }
  expect(pages).toHaveLength(1);
  const sql = pages[0]!;
  const params = (sql.match(/\?/g) ?? []).length;
  const plan = prepare(`EXPLAIN QUERY PLAN ${sql}`) as Statement<unknown[]>;
  return (plan.all(...Array(params).fill(null)) as { detail: string }[]).map((r) => r.detail);
}

const cases: [string, () => string, RegExp][] = [
  ['events, newest page', () => '/v1/notifications?limit=10', /^SEARCH n USING INDEX notifications_created \(env_id=\?\)$/],
  ['events of a subscriber', () => '/v1/notifications?subscriberIds=ada&limit=10', /^SEARCH n USING INDEX notifications_subscriber \(subscriber_id=\?\)$/],
  ['events of an email', () => '/v1/notifications?emails=ada%40example.com&limit=10', /^SEARCH n USING INDEX notifications_subscriber \(subscriber_id=\?\)$/],
  [
    'events of a subscriber on a channel of a severity',
    () => '/v1/notifications?subscriberIds=ada&channels=email&severity=none&limit=10',
    /^SEARCH n USING INDEX notifications_subscriber \(subscriber_id=\?\)$/,
  ],
  ['events of a workflow', () => `/v1/notifications?templates=${workflowDbId}&limit=10`, /^SEARCH n USING INDEX notifications_workflow \(workflow_id=\?\)$/],
  ['events of a severity', () => '/v1/notifications?severity=none&limit=10', /^SEARCH n USING INDEX notifications_severity \(severity=\?\)$/],
  ['events of a channel', () => '/v1/notifications?channels=email&limit=10', /^SCAN n USING INDEX notifications_email$/],
  ['events of a transactionId', () => '/v1/notifications?transactionId=plan-1&limit=10', /^SEARCH n USING INDEX notifications_tx \(transaction_id=\?\)$/],
  [
    'events in a time range',
    () => '/v1/notifications?after=2000-01-01T00:00:00.000Z&before=2100-01-01T00:00:00.000Z&limit=10',
    /^SEARCH n USING INDEX notifications_created \(env_id=\? AND created_at>\? AND created_at<\?\)$/,
  ],
  ['messages of a subscriber', () => '/v1/messages?subscriberId=ada&limit=10', /^SEARCH m USING INDEX messages_subscriber \(subscriber_id=\?\)$/],
  [
    'an inbox (subscriber and channel)',
    () => '/v1/messages?subscriberId=ada&channel=in_app&limit=10',
    /^SEARCH m USING INDEX messages_subscriber \(subscriber_id=\?\)$/,
  ],
  ['messages of a channel', () => '/v1/messages?channel=email&limit=10', /^SEARCH m USING INDEX messages_channel \(env_id=\? AND channel=\?\)$/],
  ['messages of a transactionId', () => '/v1/messages?transactionId=plan-1&limit=10', /^SEARCH n USING INDEX notifications_tx \(transaction_id=\?\)$/],
];

describe('each feed filter reads its page through an index in page order', () => {
  it.each(cases)('%s', async (_name, url, first) => {
    const plan = await plansOf(url());
    expect(plan[0], plan.join(' | ')).toMatch(first);
    // No table walked whole, and no sort of everything found: at most the ties of one instant are
    // put in id order (a sort of the last term, which stops with the page).
    expect(
      plan.filter((d) => /^SCAN (n|m)$/.test(d)),
      plan.join(' | '),
    ).toEqual([]);
    if (!url().includes('transactionId'))
      expect(
        plan.filter((d) => d.includes('TEMP B-TREE') && !d.includes('FOR LAST TERM OF ORDER BY')),
        plan.join(' | '),
      ).toEqual([]);
  });

  it('retention finds the oldest events of each environment through its index, without a sort', async () => {
    const { pruneActivity } = await import('../../src/server/store/retention.js');
    const db = svc.store.db;
    const prepare = db.prepare.bind(db);
    const seen: string[] = [];
    db.prepare = ((sql: string) => {
      if (/FROM notifications n WHERE/.test(sql)) seen.push(sql);
      return prepare(sql);
    }) as typeof db.prepare;
    try {
      expect(pruneActivity(db, '2000-01-01T00:00:00.000Z', 10)).toEqual({ notifications: 0, messages: 0 });
    } finally {
      db.prepare = prepare as typeof db.prepare;
    }
    expect(seen).toHaveLength(1);
    const plan = (prepare(`EXPLAIN QUERY PLAN ${seen[0]}`).all(null, null, null) as { detail: string }[]).map((r) => r.detail).join(' | ');
    expect(plan).toMatch(/^SEARCH n USING INDEX notifications_created \(env_id=\? AND created_at<\?\)/);
    expect(plan).not.toContain('TEMP B-TREE');
  });

  it("an event's messages are found by their event (also what retention deletes by)", () => {
    const plan = svc.store.db.prepare('EXPLAIN QUERY PLAN DELETE FROM messages WHERE notification_id IN (?, ?)').all(null, null) as { detail: string }[];
    expect(plan.map((r) => r.detail).join(' | ')).toContain('messages_notification');
  });
});

describe('the message list', () => {
  it('counts up to 50,000, as the service counts its lists (a count past that read every row of a large store per page)', async () => {
    const db = svc.store.db;
    db.exec(`WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < 50001)
      INSERT INTO messages (id, env_id, notification_id, job_id, subscriber_id, channel, read, seen, status, doc, created_at, updated_at)
      SELECT unhex(printf('%024x', i)), env_id, notification_id, job_id, subscriber_id, channel, read, seen, status, doc, created_at - i, updated_at
      FROM s, (SELECT * FROM messages LIMIT 1)`);
    const r = await svc.request('GET', '/v1/messages?limit=1');
    expect(r.body).toMatchObject({ totalCount: 50_000, hasMore: true });
    db.exec('DELETE FROM messages WHERE rowid > 2');
    expect((await svc.request('GET', '/v1/messages?limit=1')).body).toMatchObject({ totalCount: 2, hasMore: true });
  });
});

describe("the message list's totalCount at any size", () => {
  const db = () => svc.store.db;
  const env = () => svc.environment.id;
  const adaDbId = () => svc.store.subscribers.find(env(), 'ada')!._id;
  /** What the API says against what counting the rows says, for each filter the counts answer. */
  async function expectCountsRight(): Promise<void> {
    const truth = (where: string, ...params: unknown[]) =>
      Math.min(
        50_000,
        (
          db()
            .prepare(`SELECT count(*) AS n FROM messages WHERE ${where}`)
            .get(...params) as { n: number }
        ).n,
      );
    const total = async (q: string) => ((await svc.request('GET', `/v1/messages?limit=1${q}`)).body as { totalCount: number }).totalCount;
    expect(await total('')).toBe(truth('env_id = unhex(?)', env()));
    for (const channel of ['email', 'in_app', 'sms']) {
      expect(await total(`&channel=${channel}`)).toBe(truth('env_id = unhex(?) AND channel = ?', env(), channel));
      expect(await total(`&subscriberId=ada&channel=${channel}`)).toBe(truth('subscriber_id = unhex(?) AND channel = ?', adaDbId(), channel));
    }
    expect(await total('&subscriberId=ada')).toBe(truth('subscriber_id = unhex(?)', adaDbId()));
    expect(await total('&subscriberId=nobody-at-all')).toBe(0);
    // The kept rows are exactly what a count of the table gives.
    const kept = (table: string, key: string) => db().prepare(`SELECT ${key} AS k, channel, n FROM ${table} WHERE n > 0 ORDER BY 1, 2`).all() as unknown[];
    const counted = (key: string) => db().prepare(`SELECT ${key} AS k, channel, count(*) AS n FROM messages GROUP BY 1, 2 ORDER BY 1, 2`).all();
    expect(kept('message_counts_env', 'env_id')).toEqual(counted('env_id'));
    expect(kept('message_counts_subscriber', 'subscriber_id')).toEqual(counted('subscriber_id'));
  }

  it('is read from the counts the triggers keep, not by counting rows', async () => {
    await expectCountsRight();
    const before = ((await svc.request('GET', '/v1/messages?limit=1')).body as { totalCount: number }).totalCount;
    db().prepare("UPDATE message_counts_env SET n = n + 7 WHERE env_id = unhex(?) AND channel = 'email'").run(env());
    db().prepare("UPDATE message_counts_subscriber SET n = n + 3 WHERE subscriber_id = unhex(?) AND channel = 'email'").run(adaDbId());
    try {
      expect((await svc.request('GET', '/v1/messages?limit=1')).body).toMatchObject({ totalCount: before + 7 });
      const ada = ((await svc.request('GET', '/v1/messages?limit=1&subscriberId=ada&channel=email')).body as { totalCount: number }).totalCount;
      expect(ada).toBe(
        (db().prepare("SELECT count(*) AS n FROM messages WHERE subscriber_id = unhex(?) AND channel = 'email'").get(adaDbId()) as { n: number }).n + 3,
      );
      // A filter the counts do not answer (an event's transactionId) still counts its rows.
      const tx = ((await svc.request('GET', '/v1/messages?limit=1&transactionId=plan-1')).body as { totalCount: number }).totalCount;
      expect(tx).toBe(2);
    } finally {
      db().prepare("UPDATE message_counts_env SET n = n - 7 WHERE env_id = unhex(?) AND channel = 'email'").run(env());
      db().prepare("UPDATE message_counts_subscriber SET n = n - 3 WHERE subscriber_id = unhex(?) AND channel = 'email'").run(adaDbId());
    }
    await expectCountsRight();
  });

  it('stays right through inserts, an Inbox delete, a changed row and retention', async () => {
    for (const to of ['ada', 'grace', 'ada']) {
      expect((await svc.request('POST', '/v1/events/trigger', { body: { name: 'welcome', to } })).status).toBe(201);
    }
    await svc.runner.idle();
    await expectCountsRight();
    // The Inbox's delete of one in-app message.
    const inApp = db().prepare("SELECT lower(hex(id)) AS id FROM messages WHERE channel = 'in_app' AND subscriber_id = unhex(?) LIMIT 1").get(adaDbId()) as {
      id: string;
    };
    db().prepare('DELETE FROM messages WHERE id = unhex(?)').run(inApp.id);
    await expectCountsRight();
    // A row moved to another subscriber and channel.
    db().prepare("UPDATE messages SET channel = 'sms', subscriber_id = unhex(?) WHERE rowid = (SELECT max(rowid) FROM messages)").run(adaDbId());
    await expectCountsRight();
    // Retention takes every finished event and its messages.
    const { pruneActivity } = await import('../../src/server/store/retention.js');
    svc.clock.advance(86_400_000);
    while (pruneActivity(db(), new Date(svc.clock.now()).toISOString(), 2).notifications > 0);
    expect((db().prepare('SELECT count(*) AS n FROM messages').get() as { n: number }).n).toBe(0);
    await expectCountsRight();
    expect((await svc.request('GET', '/v1/messages?limit=1')).body).toMatchObject({ totalCount: 0, hasMore: false });
  });

  it('is filled from the messages a store already holds when it is migrated', async () => {
    expect((await svc.request('POST', '/v1/events/trigger', { body: { name: 'welcome', to: 'ada' } })).status).toBe(201);
    await svc.runner.idle();
    const { MIGRATIONS } = await import('../../src/server/store/migrations.js');
    const migration = MIGRATIONS.findIndex((m) => m.includes('CREATE TABLE message_counts_env'));
    expect(migration).toBeGreaterThan(0);
    db().exec(
      'DROP TRIGGER messages_counted; DROP TRIGGER messages_uncounted; DROP TRIGGER messages_recounted; DROP TABLE message_counts_env; DROP TABLE message_counts_subscriber;',
    );
    db().exec(MIGRATIONS[migration]!);
    await expectCountsRight();
  });
});
