// A store written by an older svc (schema 3, before the compact activity tables of migration 4) is
// brought forward when opened, and every answer about its activity stays what the older svc said;
// so is one holding the older forms of rows migration 5 converts.
// The fixtures are those svcs' own stores and answers (test/fixtures/make-store.mjs): schema 3, and
// schema 8 (timelines and states kept as numbers, before migration 10).
import Database from 'better-sqlite3';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/server/clock.js';
import { createLocalService, type LocalService } from '../../src/server/index.js';
import { MIGRATIONS, SCHEMA_VERSION } from '../../src/server/store/migrations.js';
// @ts-expect-error: a JavaScript module shared with the fixture's generator
import { normalized, runScenario, SCENARIO_START, tiesInOrder } from '../fixtures/store-scenario.mjs';

const fixtures = new URL('../fixtures/', import.meta.url);
const expected = JSON.parse(readFileSync(new URL('store-v3.answers.json', fixtures), 'utf8')) as {
  key: string;
  now: number;
  answers: Record<string, unknown>;
};

let svc: LocalService;
let clock: ManualClock;
const get = async (url: string, method = 'GET', body?: unknown) => {
  const r = await svc.app.inject({
    method: method as 'GET',
    url,
    headers: { authorization: `ApiKey ${expected.key}`, ...(body !== undefined && { 'content-type': 'application/json' }) },
    ...(body !== undefined && { payload: JSON.stringify(body) }),
  });
  return { status: r.statusCode, body: JSON.parse(r.body) };
};

beforeAll(() => {
  const file = join(mkdtempSync(join(tmpdir(), 'svc-migrate-')), 'store.sqlite');
  const db = new Database(file);
  db.exec(readFileSync(new URL('store-v3.sql', fixtures), 'utf8'));
  expect(db.pragma('user_version', { simple: true })).toBe(3);
  db.close();
  clock = new ManualClock(expected.now);
  svc = createLocalService({ data: file, apiKey: expected.key, clock });
});
afterAll(() => svc?.close());

describe('a schema-3 store opened by this svc', () => {
  it('is migrated to the current schema', () => {
    expect(svc.store.db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    expect(svc.store.db.pragma('foreign_key_check')).toEqual([]);
  });

  it.each(Object.keys(expected.answers))('answers %s as the older svc did', async (url) => {
    const r = await get(url);
    expect(r.status).toBe(200);
    expect(r.body).toEqual(expected.answers[url]);
  });

  it('takes new activity beside the old: newest first, old and new both complete', async () => {
    clock.advance(60_000);
    const t = await get('/v1/events/trigger', 'POST', { name: 'welcome', to: 'ada', transactionId: 'after-migration' });
    expect(t.status).toBe(201);
    await svc.runner.idle();
    const list = (await get('/v1/notifications?limit=3')).body as { data: { transactionId: string; jobs: { status: string }[] }[] };
    expect(list.data.map((n) => n.transactionId)).toEqual(['after-migration', 'fx-welcome-many', 'fx-welcome-many']);
    expect(list.data[0]!.jobs.map((j) => j.status)).toEqual(['completed', 'completed']);
    const inbox = (await get('/v1/messages?subscriberId=ada&channel=in_app&limit=10')).body as { data: { transactionId: string; read: boolean }[] };
    expect(inbox.data[0]!.transactionId).toBe('after-migration');
    expect(inbox.data.filter((m) => m.read)).toHaveLength(1);
  });
});

describe('a new store, the same activity', () => {
  it('answers what the schema-3 svc answered (ids aside): timelines, messages, feeds', async () => {
    const clock = new ManualClock(SCENARIO_START);
    const fresh = createLocalService({ data: ':memory:', apiKey: expected.key, clock });
    try {
      const answers = await runScenario({
        request: async (method: string, url: string, body?: unknown) => {
          const r = await fresh.app.inject({
            method: method as 'GET',
            url,
            headers: { authorization: `ApiKey ${expected.key}`, ...(body !== undefined && { 'content-type': 'application/json' }) },
            ...(body !== undefined && { payload: JSON.stringify(body) }),
          });
          expect(r.statusCode, `${method} ${url}: ${r.body}`).toBeLessThan(300);
          return JSON.parse(r.body);
        },
        advance: (ms: number) => clock.advance(ms),
        idle: () => fresh.runner.idle(),
      });
      // Differences on purpose: an in-app action's button now keeps where it leads (the Inbox
      // navigates there), which the schema-3 svc dropped; a message keeps its provider's id of it
      // (`identifier`, which delivery reports name), which the schema-3 svc did not record.
      const withoutButtonLinks = (v: unknown): unknown =>
        JSON.parse(JSON.stringify(v), function (this: Record<string, unknown>, k, val) {
          if (k === 'identifier' && typeof this._jobId === 'string' && typeof this.channel === 'string') return undefined;
          return (k === 'url' || k === 'target') && (this.type === 'primary' || this.type === 'secondary') ? undefined : val;
        });
      expect(normalized(withoutButtonLinks(tiesInOrder(answers)))).toEqual(normalized(tiesInOrder(expected.answers)));
    } finally {
      await fresh.close();
    }
  });
});

describe('a schema-3 store with the transactionIds the service makes', () => {
  it('keeps a UUID transactionId as 16 bytes and finds its event and messages by it', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'svc-migrate-uuid-')), 'store.sqlite');
    const db = new Database(file);
    db.exec(readFileSync(new URL('store-v3.sql', fixtures), 'utf8'));
    // The fixture names its transactionIds; a trigger that names none gets a UUID.
    const uuid = '01a21369-b995-778a-b2a8-26e8f7513642';
    for (const table of ['notifications', 'messages']) db.prepare(`UPDATE ${table} SET transaction_id = ? WHERE transaction_id = 'fx-otp-grace'`).run(uuid);
    db.close();
    const migrated = createLocalService({ data: file, apiKey: expected.key, clock: new ManualClock(expected.now) });
    try {
      const raw = migrated.store.db.prepare('SELECT typeof(transaction_id) AS t, count(*) AS n FROM notifications GROUP BY 1 ORDER BY 1').all();
      expect(raw).toEqual([
        { t: 'blob', n: 1 },
        { t: 'text', n: 7 },
      ]);
      const headers = { authorization: `ApiKey ${expected.key}` };
      const events = JSON.parse((await migrated.app.inject({ url: `/v1/notifications?transactionId=${uuid}`, headers })).body).data;
      expect(events.map((n: { transactionId: string; channels: string[] }) => [n.transactionId, n.channels])).toEqual([[uuid, ['sms']]]);
      const messages = JSON.parse((await migrated.app.inject({ url: `/v1/messages?transactionId=${uuid}`, headers })).body).data;
      expect(messages.map((m: { transactionId: string; channel: string }) => [m.transactionId, m.channel])).toEqual([[uuid, 'sms']]);
    } finally {
      await migrated.close();
    }
  });
});

describe('a schema-4 store with rows in the forms older stores left', () => {
  it('is converted to the one form and answers as the older svc did', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'svc-migrate-forms-')), 'store.sqlite');
    const db = new Database(file);
    db.exec(readFileSync(new URL('store-v3.sql', fixtures), 'utf8'));
    db.exec(MIGRATIONS[3]!);
    db.pragma('user_version = 4');
    // Execution details as rows (words, ISO times), their jobs without the array.
    const statuses = ['Success', 'Warning', 'Failed', 'Pending', 'Queued', 'ReadConfirmation'];
    const texts = ['Step queued', 'Start sending message', 'Message created', 'Message sent', 'Step running'];
    const jobs = db.prepare('SELECT lower(hex(id)) AS id, lower(hex(notification_id)) AS n, created_at, details FROM jobs WHERE details IS NOT NULL').all() as {
      id: string;
      n: string;
      created_at: number;
      details: string;
    }[];
    const row = db.prepare(
      'INSERT INTO execution_details (id, job_id, notification_id, status, detail, source, provider_id, raw, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
    );
    let seq = 0;
    for (const j of jobs) {
      for (const [status, detail, offset, provider, source, raw] of JSON.parse(j.details) as [
        number | string,
        number | string,
        number,
        string?,
        string?,
        string?,
      ][]) {
        const id = `6b001a20${(seq++).toString(16).padStart(16, '0')}`;
        const word = (codes: string[], v: number | string) => (typeof v === 'number' ? codes[v] : v);
        row.run(
          id,
          j.id,
          j.n,
          word(statuses, status),
          word(texts, detail),
          source ?? 'Internal',
          provider ?? null,
          raw ?? null,
          new Date(j.created_at + offset).toISOString(),
        );
      }
    }
    db.exec('UPDATE jobs SET details = NULL');
    // Step definitions inside the job's doc, a group kept whole, ids as upper-case text, a recorded trigger.
    db.exec("UPDATE jobs SET doc = json_object('step', json((SELECT doc FROM step_defs WHERE ref = jobs.step_ref))), step_ref = NULL");
    db.exec('UPDATE jobs SET group_key = \'digest:["raw"]\' WHERE rowid = (SELECT min(rowid) FROM jobs)');
    db.exec('UPDATE messages SET subscriber_id = upper(hex(subscriber_id)), job_id = upper(hex(job_id))');
    db.exec("INSERT INTO triggers VALUES ('e', 'fx', '{}', '2026-01-01T00:00:00.000Z')");
    db.close();

    const migrated = createLocalService({ data: file, apiKey: expected.key, clock: new ManualClock(expected.now) });
    try {
      const one = (sql: string) => Object.values(migrated.store.db.prepare(sql).get() as object)[0];
      expect(one("SELECT count(*) FROM sqlite_master WHERE name IN ('execution_details', 'triggers')")).toBe(0);
      expect(one("SELECT count(*) FROM pragma_table_info('jobs') WHERE name = 'doc'")).toBe(0);
      expect(one('SELECT count(*) FROM jobs WHERE step_ref IS NULL OR details IS NULL')).toBe(0);
      expect(one("SELECT count(*) FROM messages WHERE 'text' IN (typeof(subscriber_id), typeof(job_id))")).toBe(0);
      expect(one('SELECT group_key FROM jobs WHERE rowid = (SELECT min(rowid) FROM jobs)')).toBe(
        `#${createHash('sha1').update('digest:["raw"]').digest('base64url').slice(0, 16)}`,
      );
      for (const url of Object.keys(expected.answers)) {
        const r = await migrated.app.inject({ url, headers: { authorization: `ApiKey ${expected.key}` } });
        expect(JSON.parse(r.body), url).toEqual(expected.answers[url]);
      }
    } finally {
      await migrated.close();
    }
  });
});

describe('a schema-8 store (timelines and states kept as numbers) opened by this svc', () => {
  const v8 = JSON.parse(readFileSync(new URL('store-v8.answers.json', fixtures), 'utf8')) as typeof expected;
  let migrated: LocalService;
  let clock8: ManualClock;
  beforeAll(() => {
    const file = join(mkdtempSync(join(tmpdir(), 'svc-migrate-v8-')), 'store.sqlite');
    const db = new Database(file);
    db.exec(readFileSync(new URL('store-v8.sql', fixtures), 'utf8'));
    expect(db.pragma('user_version', { simple: true })).toBe(8);
    db.close();
    clock8 = new ManualClock(v8.now);
    migrated = createLocalService({ data: file, apiKey: v8.key, clock: clock8 });
  });
  afterAll(() => migrated?.close());

  it('keeps every status, timeline and state in words', () => {
    expect(migrated.store.db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    const rows = migrated.store.db.prepare('SELECT status, state, details FROM jobs').all() as { status: string; state: string; details: string }[];
    expect(rows.length).toBeGreaterThan(10);
    for (const r of rows) {
      expect(JSON.parse(r.state)).not.toHaveProperty('$s');
      for (const [status, detail] of JSON.parse(r.details) as unknown[][]) {
        expect(typeof status, r.details).toBe('string');
        expect(typeof detail, r.details).toBe('string');
      }
    }
    // The in-app job whose message was read keeps its read output; the others the unread one.
    const outputs = rows.map((r) => JSON.parse(r.state).output).filter((o) => o?.read !== undefined);
    expect(outputs.filter((o) => o.read === true)).toHaveLength(1);
    expect(outputs.filter((o) => o.read === false).length).toBeGreaterThan(0);
  });

  it.each(Object.keys(v8.answers))('answers %s as the older svc did', async (url) => {
    const r = await migrated.app.inject({ url, headers: { authorization: `ApiKey ${v8.key}` } });
    expect(r.statusCode).toBe(200);
    expect(JSON.parse(r.body)).toEqual(v8.answers[url]);
  });

  it('runs new activity beside the old', async () => {
    clock8.advance(60_000);
    const headers = { authorization: `ApiKey ${v8.key}`, 'content-type': 'application/json' };
    const t = await migrated.app.inject({
      method: 'POST',
      url: '/v1/events/trigger',
      headers,
      payload: JSON.stringify({ name: 'welcome', to: 'ada', transactionId: 'after-v8' }),
    });
    expect(t.statusCode).toBe(201);
    await migrated.runner.idle();
    const list = JSON.parse((await migrated.app.inject({ url: '/v1/notifications?limit=1', headers })).body) as {
      data: { transactionId: string; jobs: { status: string }[] }[];
    };
    expect(list.data[0]!.transactionId).toBe('after-v8');
    expect(list.data[0]!.jobs.map((j) => j.status)).toEqual(['completed', 'completed']);
  });
});
