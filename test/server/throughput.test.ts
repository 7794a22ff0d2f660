// The pieces of src/server/throughput.ts change how svc dev commits and how much it does per look,
// never what it does: the same activity gives the same answers with all of them (svc dev) and with
// none (the plain loop), and each keeps its own promise (group commit: an answer only after its
// COMMIT, a failing request alone rolled back; together: a throwing job fails alone; slots: more
// calls to the team's app in flight than the shared slots).
import { workflow } from '@novu/framework';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ManualClock } from '../../src/server/clock.js';
import { createLocalService } from '../../src/server/index.js';
import { defaultRegistry, type StepHandler } from '../../src/server/runner/index.js';
import { PLAIN, THROUGHPUT, type RunnerPace } from '../../src/server/throughput.js';
// @ts-expect-error: a JavaScript module shared with the fixtures' generator
import { normalized, runScenario, SCENARIO_START, tiesInOrder } from '../fixtures/store-scenario.mjs';
import { TEST_KEY, testService, type TestService } from '../helpers/service.js';
import { startBridgeApp, type BridgeApp } from './bridge/app.js';
import { eventsByName, nameOf, triggerTogether } from './runner/custom-step.js';

const services: TestService[] = [];
afterEach(async () => {
  for (const s of services.splice(0)) await s.close();
});

function service(pace: RunnerPace, opts: Parameters<typeof testService>[0] = {}): TestService {
  const svc = testService({ pace, ...opts });
  services.push(svc);
  return svc;
}

async function scenario(pace: RunnerPace) {
  const clock = new ManualClock(SCENARIO_START);
  const svc = createLocalService({ data: ':memory:', apiKey: TEST_KEY, clock, pace });
  try {
    return await runScenario({
      request: async (method: string, url: string, body?: unknown) => {
        const r = await svc.app.inject({
          method: method as 'GET',
          url,
          headers: { authorization: `ApiKey ${TEST_KEY}`, ...(body !== undefined && { 'content-type': 'application/json' }) },
          ...(body !== undefined && { payload: JSON.stringify(body) }),
        });
        expect(r.statusCode, `${method} ${url}: ${r.body}`).toBeLessThan(300);
        return JSON.parse(r.body);
      },
      advance: (ms: number) => clock.advance(ms),
      idle: () => svc.runner.idle(),
    });
  } finally {
    await svc.close();
  }
}

describe('with every piece and with none', () => {
  it('the same activity answers the same: timelines, messages, feeds, a digest of three events', async () => {
    const plain = await scenario(PLAIN);
    const all = await scenario(THROUGHPUT);
    expect(normalized(tiesInOrder(all))).toEqual(normalized(tiesInOrder(plain)));
  });

  it.each([
    ['plain', PLAIN],
    ['svc dev', THROUGHPUT],
  ] as const)('%s: a handler that throws fails its job alone, the others keep their writes once, each error is logged once', async (_, pace) => {
    const errors: unknown[] = [];
    const runs: string[] = [];
    const custom: StepHandler = {
      run(ctx) {
        runs.push(nameOf(ctx));
        ctx.store.activity.setDigested(ctx.notification.id, `ran-${nameOf(ctx)}`);
        if (nameOf(ctx) === 'bad') throw new Error('kaboom');
        return { status: 'completed' };
      },
    };
    const svc = service(pace, { registry: defaultRegistry().register('custom', custom), onInternalError: (e) => errors.push(e) });
    await svc.request('POST', '/v2/workflows', {
      body: { name: 'W', workflowId: 'w', active: true, steps: [{ name: 'C', type: 'custom', controlValues: {} }] },
    });
    await triggerTogether(svc, ['one', 'bad', 'two']);
    await svc.runner.idle();
    const events = await eventsByName(svc);
    expect([events.one!.job.status, events.bad!.job.status, events.two!.job.status]).toEqual(['completed', 'failed', 'completed']);
    const digested = (name: string) => svc.store.activity.notificationById(events[name]!._id)?.doc.digestedNotificationId;
    expect([digested('one'), digested('bad'), digested('two')]).toEqual(['ran-one', undefined, 'ran-two']);
    expect(errors.map((e) => (e as Error).message)).toEqual(['kaboom']);
    // Plain: each once. Together: the look ran in one savepoint up to the throw, then each job alone.
    expect(runs).toEqual(pace === PLAIN ? ['one', 'bad', 'two'] : ['one', 'bad', 'one', 'bad', 'two']);
  });
});

describe('group commit', () => {
  it('an answer waits for its COMMIT; a request that fails rolls back alone; the others commit together', async () => {
    const svc = service(THROUGHPUT);
    const { store } = svc;
    const batch = store.groupCommit;
    const first = store.grouped(() => store.subscribers.upsert(svc.environment, 'g1', {}));
    expect(() =>
      store.grouped(() => {
        store.subscribers.upsert(svc.environment, 'g2', {});
        throw new Error('this request fails');
      }),
    ).toThrow('this request fails');
    const third = store.grouped(() => store.subscribers.upsert(svc.environment, 'g3', {}));
    let committed = false;
    void Promise.all([first.committed, third.committed]).then(() => (committed = true));
    await Promise.resolve();
    expect([batch.open, store.db.inTransaction, committed]).toEqual([true, true, false]);
    // What the turn's end does: the COMMIT, then the answers.
    batch.flush();
    expect([batch.open, store.db.inTransaction, committed]).toEqual([false, false, false]);
    await Promise.all([first.committed, third.committed]);
    expect(committed).toBe(true);
    expect(['g1', 'g2', 'g3'].map((id) => store.subscribers.find(svc.environment.id, id) !== undefined)).toEqual([true, false, true]);
  });

  it('a COMMIT that fails fails every answer of its batch and takes its writes back, caches included', async () => {
    const svc = service(THROUGHPUT);
    const { store } = svc;
    // A foreign key checked at COMMIT: the batch's COMMIT fails.
    store.db.pragma('defer_foreign_keys = ON');
    const kept = store.grouped(() => store.subscribers.upsert(svc.environment, 'lost', {}));
    expect(store.subscribers.current(svc.environment.id, 'lost')).toBeDefined();
    const broken = store.grouped(() =>
      store.db.prepare("INSERT INTO environments (id, org_id, name, api_key, created_at) VALUES ('e', 'no-such-org', 'x', 'k', '')").run(),
    );
    await expect(kept.committed).rejects.toThrow(/FOREIGN KEY/);
    await expect(broken.committed).rejects.toThrow(/FOREIGN KEY/);
    expect(store.subscribers.current(svc.environment.id, 'lost')).toBeUndefined();
  });

  it('a batch commits once it holds maxBatch requests, without waiting for the turn to end', () => {
    const svc = service(THROUGHPUT);
    const { store } = svc;
    store.groupCommit.maxBatch = 2;
    store.grouped(() => undefined);
    expect(store.batchOpen).toBe(true);
    store.grouped(() => undefined);
    expect(store.batchOpen).toBe(false);
  });
});

describe('slots for code-first workflows', () => {
  let app: BridgeApp | undefined;
  let release: () => void = () => {};
  afterEach(async () => {
    release();
    await app?.close();
    app = undefined;
    vi.restoreAllMocks();
  });

  it.each([
    ['plain: the 16 shared slots', PLAIN, 16],
    ['svc dev: the shared ones and the app slots', THROUGHPUT, 30],
  ] as const)('%s hold the calls in flight at once', async (_, pace, inFlight) => {
    vi.spyOn(console, 'log').mockImplementation(() => {});
    const gate = new Promise<void>((r) => (release = r));
    let inApp = 0;
    const held = workflow('held-code', async ({ step }) => {
      await step.inApp('first', async () => {
        inApp++;
        await gate;
        return { body: 'one' };
      });
    });
    const svc = service(pace);
    app = await startBridgeApp([held], TEST_KEY);
    expect((await svc.request('POST', '/v1/bridge/sync?source=cli', { body: { bridgeUrl: app.url } })).status).toBe(201);
    for (let i = 0; i < 30; i++) await svc.request('POST', '/v1/events/trigger', { body: { name: 'held-code', to: `u${i}`, payload: {} } });
    await vi.waitFor(() => expect(inApp).toBe(inFlight), { timeout: 10_000 });
    // The jobs beyond the slots are still queued, not lost: all 30 go through once the app answers.
    release();
    await svc.runner.idle();
    expect(inApp).toBe(30);
    const feed = (await svc.request('GET', '/v1/notifications?limit=50')).body.data as { jobs: { status: string }[] }[];
    expect(feed.map((n) => n.jobs[0]!.status)).toEqual(Array(30).fill('completed'));
  });
});
