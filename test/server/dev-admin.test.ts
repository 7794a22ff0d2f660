// svc dev's admin routes in process: a reset puts the environments table back as it started (one made
// since is gone, with its key), keeps the service working on the new rows (statements, caches, the
// application identifier), tells connected Inboxes through the real @novu/js client, and only the
// store's first environment may reset or load; a snapshot that is not one is refused, store untouched.
import Database from 'better-sqlite3';
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Listening, listening, nextEvent } from './inbox/helpers.js';

let s: Listening;
beforeAll(async () => {
  s = await listening();
});
afterAll(() => s.close());

async function trigger(to: string, name = 'welcome', payload: Record<string, unknown> = {}, key?: string) {
  const r = await s.svc.request('POST', '/v1/events/trigger', { body: { name, to, payload }, ...(key && { key }) });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  await s.svc.runner.idle();
  return r.body.data.transactionId as string;
}

const events = async (key?: string) => (await s.svc.request('GET', '/v1/notifications?limit=50', key ? { key } : {})).body.data as unknown[];

describe('POST /v1/svc-dev/reset', () => {
  it('an environment made since start is gone with its key; the start ones, their keys and app ids stay', async () => {
    const { store } = s.svc;
    const first = store.environments.defaultEnvironment()!;
    const later = store.tx(() => store.environments.create(first.orgId, 'Made later'));
    expect((await s.svc.request('GET', '/v1/environments/me', { key: later.apiKey })).status).toBe(200);
    await trigger('ada');
    const made = await s.svc.request('POST', '/v2/subscribers', { body: { subscriberId: 'grace' }, key: later.apiKey });
    expect(made.status).toBe(201);
    expect(await events()).toHaveLength(1);
    const appId = (await s.svc.request('GET', '/v1/environments/me')).body.data.identifier;

    const r = await s.svc.request('POST', '/v1/svc-dev/reset', { body: {} });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.data).toMatchObject({ environments: 1, events: 0, keyKept: true });
    expect((store.db.prepare('SELECT id FROM environments').all() as { id: string }[]).map((e) => e.id)).toEqual([first.id]);
    expect((await s.svc.request('GET', '/v1/environments/me', { key: later.apiKey })).status).toBe(401);
    expect((await s.svc.request('GET', '/v1/environments/me')).body.data.identifier).toBe(appId);
    expect(await events()).toEqual([]);
    // The service goes on over the new rows: prepared statements, caches and the runner work.
    await trigger('ada');
    expect(await events()).toHaveLength(1);
  });

  it('a connected Inbox is told its counts, also when its subscriber is gone with the old state', async () => {
    const ada = s.client('ada');
    const newcomer = s.client('newcomer-inbox');
    // The socket connects once something listens; the triggers wait for both handshakes.
    const connected = [ada, newcomer].map((novu) => new Promise<any>((resolve) => novu.on('socket.connect.resolved' as never, resolve as never)));
    const unread = [ada, newcomer].map((novu) => nextEvent(novu, 'notifications.unread_count_changed'));
    for (const c of await Promise.all(connected)) expect(c?.error).toBeUndefined();
    await trigger('ada');
    await trigger('newcomer-inbox');
    for (const u of await Promise.all(unread)) expect(u.total).toBeGreaterThan(0);

    const toldAda = nextEvent(ada, 'notifications.unread_count_changed');
    const toldNewcomer = nextEvent(newcomer, 'notifications.unread_count_changed');
    const r = await s.svc.request('POST', '/v1/svc-dev/reset', { body: {} });
    expect(r.status).toBe(200);
    expect((await toldAda).total).toBe(0);
    expect((await toldNewcomer).total).toBe(0);
  });

  it("only the store's first environment may reset, save or load: another's key is refused, nothing changed", async () => {
    const { store } = s.svc;
    const first = store.environments.defaultEnvironment()!;
    const other = store.tx(() => store.environments.create(first.orgId, 'Other'));
    await trigger('ada');
    const before = await events();
    for (const [method, url, body] of [
      ['POST', '/v1/svc-dev/reset', {}],
      ['GET', '/v1/svc-dev/snapshot', undefined],
      ['POST', '/v1/svc-dev/snapshot/load', { encoding: 'sqlite3+gzip+base64', snapshot: 'AAAA' }],
    ] as const) {
      const r = await s.svc.request(method, url, { ...(body && { body }), key: other.apiKey });
      expect(r.status, `${url}: ${JSON.stringify(r.body)}`).toBe(403);
      expect(r.body.message).toContain("environment 'Development'");
    }
    expect(await events()).toEqual(before);
  });
});

describe('POST /v1/svc-dev/clock/advance', () => {
  it('a throttle window closes on advance: the next execution passes, answered in service time', async () => {
    const created = await s.svc.request('POST', '/v2/workflows', {
      body: {
        name: 'Gated',
        workflowId: 'gated-admin',
        active: true,
        steps: [
          { stepId: 'gate', name: 'Gate', type: 'throttle', controlValues: { type: 'fixed', amount: 1, unit: 'hours', threshold: 1 } },
          { name: 'Inbox', type: 'in_app', controlValues: { body: 'Alert {{ payload.i }}' } },
        ],
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const statuses = async (tx: string) =>
      ((await s.svc.request('GET', `/v1/notifications?transactionId=${tx}`)).body.data[0].jobs as { status: string }[]).map((j) => j.status);
    expect(await statuses(await trigger('grace', 'gated-admin', { i: 1 }))).toEqual(['completed', 'completed']);
    expect(await statuses(await trigger('grace', 'gated-admin', { i: 2 }))).toEqual(['completed', 'skipped']);
    const before = s.svc.clock.now();
    const r = await s.svc.request('POST', '/v1/svc-dev/clock/advance', { body: { ms: 3_600_000 } });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.data).toEqual({ mode: 'manual', now: new Date(before + 3_600_000).toISOString() });
    expect(await statuses(await trigger('grace', 'gated-admin', { i: 3 }))).toEqual(['completed', 'completed']);
    const bad = await s.svc.request('POST', '/v1/svc-dev/clock/advance', { body: { ms: -1 } });
    expect(bad.status).toBe(422);
    expect(s.svc.clock.now()).toBe(before + 3_600_000);
  });
});

describe('POST /v1/svc-dev/snapshot/load', () => {
  it('refuses what is not an svc snapshot (422 naming why) and leaves the store as it was', async () => {
    const before = await events();
    const plain = new Database(':memory:');
    plain.exec('CREATE TABLE t (x)');
    const notOurs = plain.serialize();
    plain.close();
    for (const [bytes, why] of [
      [Buffer.from('hello'), 'not an SQLite database file'],
      [notOurs, 'not an svc store'],
    ] as const) {
      const r = await s.svc.request('POST', '/v1/svc-dev/snapshot/load', {
        body: { encoding: 'sqlite3+gzip+base64', snapshot: gzipSync(bytes).toString('base64') },
      });
      expect(r.status).toBe(422);
      expect(r.body.message).toContain(why);
    }
    expect(await events()).toEqual(before);
  });

  it('a snapshot of an older svc (schema v8) is migrated as it is loaded, and its key then answers', async () => {
    const old = new Database(':memory:');
    old.exec(readFileSync(new URL('../fixtures/store-v8.sql', import.meta.url), 'utf8'));
    expect(old.pragma('user_version', { simple: true })).toBe(8);
    const bytes = old.serialize();
    old.close();
    const r = await s.svc.request('POST', '/v1/svc-dev/snapshot/load', {
      body: { encoding: 'sqlite3+gzip+base64', snapshot: gzipSync(bytes).toString('base64') },
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.data).toMatchObject({ keyKept: false, environments: 1 });
    const key = 'sk_fixture_0123456789abcdef';
    const feed = await s.svc.request('GET', '/v1/notifications?limit=50', { key });
    expect(feed.status).toBe(200);
    expect(feed.body.data.length).toBeGreaterThan(0);
    expect((await s.svc.request('GET', '/v1/notifications?limit=1')).status).toBe(401);
    // The loaded store's first environment is now the one that may reset: back to the start state,
    // where the start key answers again.
    expect((await s.svc.request('POST', '/v1/svc-dev/reset', { body: {}, key })).status).toBe(200);
    expect((await s.svc.request('GET', '/v1/notifications?limit=1')).status).toBe(200);
  });

  it('a snapshot saved and loaded back gives the same answers', async () => {
    await trigger('ada');
    const saved = await s.svc.request('GET', '/v1/svc-dev/snapshot');
    expect(saved.status).toBe(200);
    const before = await events();
    await trigger('grace');
    expect(await events()).toHaveLength(before.length + 1);
    const r = await s.svc.request('POST', '/v1/svc-dev/snapshot/load', { body: { encoding: saved.body.data.encoding, snapshot: saved.body.data.snapshot } });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(await events()).toEqual(before);
  });
});
