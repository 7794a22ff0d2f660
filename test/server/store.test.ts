// The store file: migrations, refusing newer/corrupt/foreign files untouched, restarts, isolation.
import Database from 'better-sqlite3';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createLocalService } from '../../src/server/index.js';
import { SCHEMA_VERSION } from '../../src/server/store/migrations.js';
import { Store, StoreError } from '../../src/server/store/index.js';
import { systemClock } from '../../src/server/clock.js';
import { parseRetention } from '../../src/server/store/retention.js';
import { TEST_KEY, testService } from '../helpers/service.js';

const tempFile = (name = 'store.sqlite') => join(mkdtempSync(join(tmpdir(), 'svc-store-')), name);

describe('store file', () => {
  it('a new file gets the current schema version, WAL mode and the demo data', async () => {
    const file = tempFile();
    const s = createLocalService({ data: file, apiKey: TEST_KEY });
    expect(s.store.created).toBe(true);
    expect(s.store.db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    expect(s.store.db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(s.store.workflows.findByTrigger(s.environment.id, 'welcome')).toBeDefined();
    await s.close();
    const again = createLocalService({ data: file });
    expect(again.store.created).toBe(false);
    expect(again.environment.apiKey).toBe(TEST_KEY);
    await again.close();
  });

  it('refuses a store of a newer schema version and leaves it untouched', async () => {
    const file = tempFile();
    await createLocalService({ data: file }).close();
    const db = new Database(file);
    db.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
    db.pragma('journal_mode = DELETE');
    db.close();
    const before = readFileSync(file);
    expect(() => createLocalService({ data: file })).toThrow(StoreError);
    expect(() => createLocalService({ data: file })).toThrow(/newer than this svc understands/);
    expect(readFileSync(file).equals(before)).toBe(true);
  });

  it("refuses a corrupt file and another program's database, untouched", () => {
    const junk = tempFile();
    writeFileSync(junk, 'this is not a database at all, just some text that is long enough'.repeat(20));
    const before = readFileSync(junk);
    expect(() => createLocalService({ data: junk })).toThrow(/not a readable svc store/);
    expect(readFileSync(junk).equals(before)).toBe(true);
    const foreign = tempFile();
    const db = new Database(foreign);
    db.exec('CREATE TABLE notes (x TEXT)');
    db.close();
    expect(() => createLocalService({ data: foreign })).toThrow(/not an svc store/);
  });

  it('a second process cannot open a store in use', async () => {
    const file = tempFile();
    const s = createLocalService({ data: file });
    try {
      // A second connection stands in for a second process: the exclusive lock keeps it out.
      expect(() => Store.open(file, systemClock)).toThrow(/in use by another process/);
    } finally {
      await s.close();
    }
  });

  it('jobs not finished when the process stopped run on the next start', async () => {
    const file = tempFile();
    const a = createLocalService({ data: file, apiKey: TEST_KEY });
    await a.runner.stop();
    const r = await a.app.inject({
      method: 'POST',
      url: '/v1/events/trigger',
      headers: { authorization: `ApiKey ${TEST_KEY}`, 'content-type': 'application/json' },
      payload: JSON.stringify({ name: 'welcome', to: 'ada', transactionId: 'restart' }),
    });
    expect(r.statusCode).toBe(201);
    // A job caught mid-run by a crash is 'running' in the file.
    a.store.db.prepare("UPDATE jobs SET status = 'running' WHERE status = 'queued'").run();
    await a.close();
    const b = createLocalService({ data: file });
    await b.runner.idle();
    const statuses = b.store.db
      .prepare('SELECT status FROM jobs ORDER BY step_index')
      .all()
      .map((x: any) => x.status);
    expect(statuses).toEqual(['completed', 'completed']);
    await b.close();
  });

  it('a key sees only its own environment', async () => {
    const s = createLocalService({ data: ':memory:', apiKey: TEST_KEY });
    const other = s.store.environments.create(s.environment.orgId, 'Staging', 'sk_staging_key_1');
    const as = (key: string, url: string) => s.app.inject({ method: 'GET', url, headers: { authorization: `ApiKey ${key}` } });
    expect((await as('sk_staging_key_1', '/v2/workflows/welcome')).statusCode).toBe(404);
    expect((await as('sk_staging_key_1', '/v2/subscribers')).json().data).toEqual([]);
    expect((await as(TEST_KEY, `/v2/workflows/welcome?environmentId=${other.id}`)).statusCode).toBe(404);
    await s.close();
  });
});

describe('caches of the trigger path', () => {
  it('what a rolled-back transaction wrote is not remembered: workflows, integrations, step definitions', async () => {
    const s = createLocalService({ data: ':memory:', apiKey: TEST_KEY, empty: true });
    const env = s.environment;
    const store = s.store;
    const wf = { workflowId: 'rolled', name: 'Rolled', active: true, steps: [{ name: 'Text', type: 'sms' as const, controlValues: { body: 'hi' } }] };
    expect(() =>
      store.tx(() => {
        const created = store.workflows.create(env, wf);
        // Read (and cached) inside the transaction that then rolls back.
        expect(store.workflows.findByTrigger(env.id, 'rolled')?._id).toBe(created._id);
        store.integrations.create(env, { name: 'T', identifier: 'twilio-x', providerId: 'twilio', channel: 'sms', active: true, primary: true });
        expect(store.integrations.forChannel(env.id, 'sms')?.identifier).toBe('twilio-x');
        throw new Error('roll back');
      }),
    ).toThrow('roll back');
    expect(store.workflows.findByTrigger(env.id, 'rolled')).toBeUndefined();
    expect(store.integrations.forChannel(env.id, 'sms')?.identifier).not.toBe('twilio-x');
    // A step definition written in a rolled-back job is written again by the next job.
    const kept = store.workflows.create(env, wf);
    // A job is read with its event (it keeps the event's environment, subscriber and workflow there).
    const event = () =>
      store.activity.createNotification({
        envId: env.id,
        orgId: env.orgId,
        transactionId: 'tx',
        workflowId: kept._id,
        subscriberId: kept._id, // any ObjectId: the store keeps ids as their 12 bytes
        channels: ['sms'],
        severity: 'none',
        doc: { payload: {}, overrides: {}, tags: [], to: 'sub', topics: [], critical: false, contextKeys: [] },
      }).id;
    const job = (notificationId: string) => ({
      envId: env.id,
      orgId: env.orgId,
      notificationId,
      subscriberId: kept._id,
      workflowId: kept._id,
      stepIndex: 0,
      type: 'sms' as const,
      status: 'pending' as const,
      runAt: 0,
      providerId: 'svc',
      state: {},
      step: kept.steps[0]!,
    });
    expect(() =>
      store.tx(() => {
        store.jobs.createJob(job(event()), store.jobs.saveSteps(kept)[0]!);
        throw new Error('roll back');
      }),
    ).toThrow('roll back');
    const created = store.tx(() => store.jobs.createJob(job(event()), store.jobs.saveSteps(kept)[0]!));
    expect(store.jobs.job(created.id)?.step).toEqual(kept.steps[0]);
    // Renaming the trigger identifier's workflow away is seen at once.
    expect(store.workflows.findByTrigger(env.id, 'rolled')?._id).toBe(kept._id);
    store.workflows.remove(kept._id);
    expect(store.workflows.findByTrigger(env.id, 'rolled')).toBeUndefined();
    await s.close();
  });
});

describe('retention (svc dev --retention)', () => {
  it('finished activity older than the window goes with its jobs, details and messages; newer and unfinished stay', async () => {
    const DAY = 86_400_000;
    const svc = testService({ retentionMs: 30 * DAY });
    try {
      await svc.request('POST', '/v2/workflows', {
        body: {
          name: 'Slow',
          workflowId: 'slow',
          active: true,
          steps: [
            { name: 'Wait', type: 'delay', controlValues: { amount: 60, unit: 'days' } },
            { name: 'N', type: 'in_app', controlValues: { body: 'hi' } },
          ],
        },
      });
      for (const [name, tx] of [
        ['welcome', 'old-1'],
        ['otp', 'old-2'],
        ['slow', 'old-slow'],
      ]) {
        expect((await svc.request('POST', '/v1/events/trigger', { body: { name, to: 'ada', transactionId: tx, payload: { code: '1' } } })).status).toBe(201);
      }
      await svc.runner.idle();
      svc.clock.advance(30 * DAY - 2 * 3_600_000);
      await svc.request('POST', '/v1/events/trigger', { body: { name: 'welcome', to: 'ada', transactionId: 'new-1' } });
      await svc.runner.idle();
      const oldIds = (
        svc.store.db.prepare("SELECT id FROM notifications WHERE transaction_id LIKE 'old-%' AND transaction_id != 'old-slow'").all() as { id: string }[]
      ).map((r) => r.id);
      expect(oldIds).toHaveLength(2);
      svc.clock.advance(3 * 3_600_000); // past the window, and an hourly round
      await svc.runner.idle();
      const txs = (await svc.request('GET', '/v1/notifications?limit=50')).body.data.map((n: any) => n.transactionId).sort();
      expect(txs).toEqual(['new-1', 'old-slow']);
      const left = (sql: string) => (svc.store.db.prepare(sql).get(...oldIds) as { n: number }).n;
      expect(left('SELECT count(*) AS n FROM jobs WHERE notification_id IN (?, ?)')).toBe(0);
      expect(left('SELECT count(*) AS n FROM messages WHERE notification_id IN (?, ?)')).toBe(0);
      expect((await svc.request('GET', '/v1/messages?transactionId=new-1')).body.data.length).toBeGreaterThan(0);
      // The transactionId of a pruned event is accepted again as a new event.
      const again = await svc.request('POST', '/v1/events/trigger', { body: { name: 'otp', to: 'ada', transactionId: 'old-2', payload: { code: '2' } } });
      expect(again.body.data.status).toBe('processed');
      expect((await svc.request('GET', '/v1/notifications?transactionId=old-2')).body.data).toHaveLength(1);
    } finally {
      await svc.close();
    }
  });

  it('parses 30d, 12h and 90m; anything else is refused', () => {
    expect(parseRetention('30d')).toBe(30 * 86_400_000);
    expect(parseRetention('12h')).toBe(12 * 3_600_000);
    expect(parseRetention('90m')).toBe(90 * 60_000);
    for (const bad of ['30', '0d', '-1d', '1w', 'd', '']) expect(parseRetention(bad)).toBeUndefined();
  });
});
