// Deleting messages through the API: one by id, or a transaction's (of one channel when given). The
// counts the store keeps for the message list (SQL triggers) must stay equal to the rows, and the
// other environment's or transaction's messages stay.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operations } from '../../src/api/operations.js';
import { testService } from '../helpers/service.js';
import { createWorkflow, messages, trigger } from './runner/helpers.js';

const svc = testService();
afterAll(() => svc.close());

const STEPS = [
  { name: 'Inbox', type: 'in_app', controlValues: { body: 'Hello' } },
  { name: 'Mail', type: 'email', controlValues: { subject: 'Hi', body: 'Hello by mail' } },
];
let txA: string;
let txB: string;
let txC: string;

beforeAll(async () => {
  await createWorkflow(svc, 'two-channels', STEPS);
  txA = await trigger(svc, 'two-channels', 'ada');
  txB = await trigger(svc, 'two-channels', 'ada');
  txC = await trigger(svc, 'two-channels', 'ada');
});

/** Every kept count (per environment and channel, per subscriber and channel) equals the rows it counts. */
function countsMatchRows() {
  const db = svc.store.db;
  const env = db
    .prepare(`SELECT c.channel, c.n, (SELECT count(*) FROM messages m WHERE m.env_id = c.env_id AND m.channel = c.channel) AS rows FROM message_counts_env c`)
    .all() as { n: number; rows: number }[];
  const sub = db
    .prepare(
      `SELECT c.channel, c.n, (SELECT count(*) FROM messages m WHERE m.subscriber_id = c.subscriber_id AND m.channel = c.channel) AS rows FROM message_counts_subscriber c`,
    )
    .all() as { n: number; rows: number }[];
  expect(env.length).toBeGreaterThan(0);
  expect(env.filter((r) => r.n !== r.rows)).toEqual([]);
  expect(sub.filter((r) => r.n !== r.rows)).toEqual([]);
}

const total = async (query: string) => (await svc.request('GET', `/v1/messages?limit=100&${query}`)).body.totalCount as number;

describe('delete a message', () => {
  it("200 {acknowledged, status: 'deleted'}; it is gone from the list and from every count", async () => {
    const before = { all: await total(''), ada: await total('subscriberId=ada'), inApp: await total('channel=in_app') };
    const [m] = await messages(svc, `transactionId=${txA}&channel=in_app`);
    const r = await svc.request('DELETE', `/v1/messages/${m._id}`);
    expect(r.status).toBe(200);
    expect(operations.deleteMessage.response.parse(r.body.data)).toEqual({ acknowledged: true, status: 'deleted' });
    expect((await messages(svc, `transactionId=${txA}`)).map((x) => x.channel)).toEqual(['email']);
    expect({ all: await total(''), ada: await total('subscriberId=ada'), inApp: await total('channel=in_app') }).toEqual({
      all: before.all - 1,
      ada: before.ada - 1,
      inApp: before.inApp - 1,
    });
    countsMatchRows();
    // Once more: the service's 404.
    const again = await svc.request('DELETE', `/v1/messages/${m._id}`);
    expect(again).toMatchObject({ status: 404, body: { message: `Message with id ${m._id} not found` } });
  });

  it('a malformed id is a 422 naming messageId', async () => {
    const r = await svc.request('DELETE', '/v1/messages/not-an-id');
    expect(r.status).toBe(422);
    expect(r.body.errors).toHaveProperty('messageId');
  });

  it("a subscriber's message list no longer has it", async () => {
    const [m] = await messages(svc, `transactionId=${txC}&channel=in_app`);
    expect((await svc.request('DELETE', `/v1/messages/${m._id}`)).status).toBe(200);
    expect((await messages(svc, 'subscriberId=ada&channel=in_app')).map((x) => x._id)).not.toContain(m._id);
  });
});

describe('delete the messages of a transaction', () => {
  it('of one channel, then the rest: 204 without a body; counts follow; an unknown one is a 404', async () => {
    const others = (await messages(svc, `transactionId=${txC}`)).length;
    const r = await svc.request('DELETE', `/v1/messages/transaction/${txB}?channel=email`);
    expect(r.status).toBe(204);
    expect(r.body).toBeUndefined();
    expect((await messages(svc, `transactionId=${txB}`)).map((x) => x.channel)).toEqual(['in_app']);
    countsMatchRows();

    expect((await svc.request('DELETE', `/v1/messages/transaction/${txB}`)).status).toBe(204);
    expect(await messages(svc, `transactionId=${txB}`)).toEqual([]);
    expect(await total(`transactionId=${txB}`)).toBe(0);
    countsMatchRows();
    // Another transaction's messages stay.
    expect((await messages(svc, `transactionId=${txC}`)).length).toBe(others);

    for (const url of [`/v1/messages/transaction/${txB}`, `/v1/messages/transaction/${txC}?channel=sms`, '/v1/messages/transaction/never-sent']) {
      const gone = await svc.request('DELETE', url);
      expect(gone, url).toMatchObject({ status: 404, body: { message: 'Invalid transactionId or channel' } });
    }
    expect((await svc.request('DELETE', `/v1/messages/transaction/${txC}?channel=fax`)).status).toBe(422);
  });
});
