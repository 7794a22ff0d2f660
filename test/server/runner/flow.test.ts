// Flow-control steps on the manual clock: delays, digests, throttles, custom outputs, and their
// persistence across a restart on the same store file.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { testService } from '../../helpers/service.js';
import { advance, createWorkflow, details, event, events, fileService, messages, statuses, trigger } from './helpers.js';

const MIN = 60_000;
const svc = testService();
afterAll(() => svc.close());
const iso = (ms: number) => new Date(ms).toISOString();
const inbox = (body: string) => ({ name: 'Inbox', type: 'in_app', controlValues: { body } });

describe('delay', () => {
  it('regular: the job waits on the clock, then the next step runs once', async () => {
    await createWorkflow(svc, 'later', [
      { name: 'Wait', type: 'delay', controlValues: { amount: 30, unit: 'minutes' } },
      inbox('Hi {{ steps.wait.duration }}'),
    ]);
    const start = svc.clock.now();
    const tx = await trigger(svc, 'later', 'ada');
    let n = await event(svc, tx);
    expect(statuses(n)).toEqual(['delayed', 'pending']);
    expect(details(n.jobs[0])).toEqual(['Step queued', `Step delayed until ${iso(start + 30 * MIN)} (30 minutes)`]);
    await advance(svc, 29 * MIN);
    expect(statuses(await event(svc, tx))).toEqual(['delayed', 'pending']);
    await advance(svc, MIN);
    n = await event(svc, tx);
    expect(statuses(n)).toEqual(['completed', 'completed']);
    expect(details(n.jobs[0]).at(-1)).toBe('Delay finished: waited 30 minutes');
    const [m] = await messages(svc, `transactionId=${tx}`);
    expect(m).toMatchObject({ content: `Hi ${30 * MIN}`, createdAt: iso(start + 30 * MIN) });
  });

  it("timed: the next cron time in the subscriber's timezone", async () => {
    await createWorkflow(svc, 'at-nine', [{ name: 'Wait', type: 'delay', controlValues: { type: 'timed', cron: '0 9 * * *' } }, inbox('Morning')]);
    const start = svc.clock.now();
    const n = await event(svc, await trigger(svc, 'at-nine', 'grace'));
    // Grace is in America/New_York: 09:00 there is 14:00 UTC in winter.
    const day = new Date(start);
    const nine = Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate(), 14);
    const expected = nine > start ? nine : nine + 86_400_000;
    expect(details(n.jobs[0]).at(-1)).toMatch(new RegExp(`^Step delayed until ${iso(expected).replace(/\./g, '\\.')} .*next time of cron "0 9 \\* \\* \\*"`));
  });

  it('dynamic: a date or a duration at a payload path; nothing there fails with the path named', async () => {
    await createWorkflow(svc, 'scheduled', [{ name: 'Wait', type: 'delay', controlValues: { type: 'dynamic', dynamicKey: 'payload.sendAt' } }, inbox('Now')]);
    const start = svc.clock.now();
    const atDate = await event(svc, await trigger(svc, 'scheduled', 'ada', { sendAt: iso(start + 2 * 3_600_000) }));
    expect(details(atDate.jobs[0]).at(-1)).toBe(`Step delayed until ${iso(start + 2 * 3_600_000)} (2 hours, from payload.sendAt)`);
    const forDuration = await event(svc, await trigger(svc, 'scheduled', 'ada', { sendAt: { amount: 5, unit: 'minutes' } }));
    expect(details(forDuration.jobs[0]).at(-1)).toBe(`Step delayed until ${iso(start + 5 * MIN)} (5 minutes, from payload.sendAt)`);
    const past = await event(svc, await trigger(svc, 'scheduled', 'ada', { sendAt: iso(start - MIN) }));
    expect(statuses(past)).toEqual(['completed', 'completed']);
    const missing = await event(svc, await trigger(svc, 'scheduled', 'ada', {}));
    expect(missing.jobs[0].executionDetails.at(-1)).toMatchObject({
      status: 'Failed',
      source: 'Payload',
      detail: 'Delay: dynamic delay: nothing at payload.sendAt; send an ISO date or a duration there',
    });
  });
});

describe('digest', () => {
  const summary = {
    name: 'Summary',
    type: 'in_app',
    controlValues: { subject: '{{ steps.digest.eventCount }} comments', body: '{% for e in steps.digest.events %}[{{ e.payload.text }}]{% endfor %}' },
  };

  it('collects the events of one subscriber into one run of the next step; the others are merged', async () => {
    await createWorkflow(svc, 'comments', [{ stepId: 'digest', name: 'Digest', type: 'digest', controlValues: { amount: 10, unit: 'minutes' } }, summary]);
    const start = svc.clock.now();
    const txs: string[] = [];
    for (let i = 1; i <= 5; i++) {
      txs.push(await trigger(svc, 'comments', 'ada', { text: `c${i}` }));
      await advance(svc, MIN);
    }
    const first = await event(svc, txs[0]!);
    expect(statuses(first)).toEqual(['delayed', 'pending']);
    expect(details(first.jobs[0]).at(-1)).toBe(`Step digested: collecting events until ${iso(start + 10 * MIN)} (10 minutes)`);
    const later = await event(svc, txs[3]!);
    expect(statuses(later)).toEqual(['merged', 'merged']);
    expect(later._digestedNotificationId).toBe(first._id);
    expect(details(later.jobs[0]).at(-1)).toBe(
      `Step digested: merged into the digest of notification ${first._id}, sent when its window closes at ${iso(start + 10 * MIN)}`,
    );
    expect(details(later.jobs[1])).toEqual([`Step not run: this event was merged into the digest of notification ${first._id}`]);

    await advance(svc, 5 * MIN);
    const done = await event(svc, txs[0]!);
    expect(statuses(done)).toEqual(['completed', 'completed']);
    expect(details(done.jobs[0]).at(-1)).toBe('Digest complete: 5 events collected (this one and 4 merged), handed to the next step');
    expect(done.jobs[0].digest).toMatchObject({ type: 'regular', amount: 10, unit: 'minutes', events: expect.any(Array) });
    const inApp = (await messages(svc, 'channel=in_app&subscriberId=ada')).filter((m) => txs.includes(m.transactionId));
    expect(inApp).toHaveLength(1);
    expect(inApp[0]).toMatchObject({ subject: '5 comments', content: '[c1][c2][c3][c4][c5]' });
    // A new event after the window opens a new digest.
    expect(statuses(await event(svc, await trigger(svc, 'comments', 'ada', { text: 'c6' })))).toEqual(['delayed', 'pending']);
  });

  it('digestKey: one digest per key value, per subscriber', async () => {
    await createWorkflow(svc, 'per-post', [
      { stepId: 'digest', name: 'Digest', type: 'digest', controlValues: { amount: 5, unit: 'minutes', digestKey: '{{ payload.post }}' } },
      summary,
    ]);
    const a1 = await trigger(svc, 'per-post', 'ada', { post: 'a', text: 'a1' });
    const b1 = await trigger(svc, 'per-post', 'ada', { post: 'b', text: 'b1' });
    const a2 = await trigger(svc, 'per-post', 'ada', { post: 'a', text: 'a2' });
    const g1 = await trigger(svc, 'per-post', 'grace', { post: 'a', text: 'g1' });
    expect([a1, b1, a2, g1].length).toBe(4);
    expect(statuses(await event(svc, a2))).toEqual(['merged', 'merged']);
    expect(statuses(await event(svc, b1))).toEqual(['delayed', 'pending']);
    expect(statuses(await event(svc, g1))).toEqual(['delayed', 'pending']);
    await advance(svc, 5 * MIN);
    const contents = async (tx: string) => (await messages(svc, `transactionId=${tx}&channel=in_app`)).map((m) => m.content);
    expect(await contents(a1)).toEqual(['[a1][a2]']);
    expect(await contents(b1)).toEqual(['[b1]']);
    expect(await contents(g1)).toEqual(['[g1]']);
  });

  it('backoff: the first event goes on at once; one within the look-back window starts a digest', async () => {
    await createWorkflow(svc, 'backoff', [
      { stepId: 'digest', name: 'Digest', type: 'digest', controlValues: { amount: 10, unit: 'minutes', lookBackWindow: { amount: 5, unit: 'minutes' } } },
      summary,
    ]);
    const first = await event(svc, await trigger(svc, 'backoff', 'alan', { text: 'x1' }));
    expect(statuses(first)).toEqual(['completed', 'completed']);
    expect(details(first.jobs[0]).at(-1)).toBe('Step digested: no earlier event within the look-back window of 5 minutes, so this one goes on at once');
    await advance(svc, 2 * MIN);
    const second = await trigger(svc, 'backoff', 'alan', { text: 'x2' });
    const third = await trigger(svc, 'backoff', 'alan', { text: 'x3' });
    expect(statuses(await event(svc, second))).toEqual(['delayed', 'pending']);
    expect(statuses(await event(svc, third))).toEqual(['merged', 'merged']);
    await advance(svc, 10 * MIN);
    expect((await messages(svc, `transactionId=${second}`))[0].content).toBe('[x2][x3]');
    expect((await event(svc, second)).jobs[0].digest).toMatchObject({ type: 'backoff', backoff: true, backoffAmount: 5, backoffUnit: 'minutes' });
  });

  it('timed: collects until the next cron time', async () => {
    await createWorkflow(svc, 'hourly', [{ stepId: 'digest', name: 'Digest', type: 'digest', controlValues: { type: 'timed', cron: '0 * * * *' } }, summary]);
    const now = svc.clock.now();
    const nextHour = Math.floor(now / 3_600_000) * 3_600_000 + 3_600_000;
    const n = await event(svc, await trigger(svc, 'hourly', 'alan', { text: 't' }));
    expect(details(n.jobs[0]).at(-1)).toBe(`Step digested: collecting events until ${iso(nextHour)} (next time of cron "0 * * * *")`);
    expect(n.jobs[0].digest).toMatchObject({ type: 'timed', timed: { cronExpression: '0 * * * *', untilDate: iso(nextHour) } });
  });
});

describe('throttle', () => {
  it('fixed window: 2 of 5 executions pass, the others skip the following steps with a reason', async () => {
    await createWorkflow(svc, 'throttled', [
      { stepId: 'gate', name: 'Gate', type: 'throttle', controlValues: { type: 'fixed', amount: 1, unit: 'hours', threshold: 2 } },
      inbox('Alert {{ payload.i }}'),
    ]);
    const start = svc.clock.now();
    const txs: string[] = [];
    for (let i = 1; i <= 5; i++) txs.push(await trigger(svc, 'throttled', 'grace', { i }));
    const all = await Promise.all(txs.map((t) => event(svc, t)));
    expect(all.map(statuses)).toEqual([
      ['completed', 'completed'],
      ['completed', 'completed'],
      ['completed', 'skipped'],
      ['completed', 'skipped'],
      ['completed', 'skipped'],
    ]);
    expect(details(all[1].jobs[0]).at(-1)).toBe(`Throttle passed: execution 2 of at most 2 in the window since ${iso(start - 3_600_000)}`);
    expect(all[2].jobs[0].executionDetails.at(-1)).toMatchObject({
      status: 'Warning',
      detail: `Throttled: 2 executions already in the window since ${iso(start - 3_600_000)}, threshold 2; the next one may pass after ${iso(start + 3_600_000)}; the following steps are not sent`,
    });
    expect(details(all[2].jobs[1])).toEqual(["Step skipped: throttled by step 'gate' (threshold 2 reached)"]);
    expect(
      (await messages(svc, 'subscriberId=grace&channel=in_app'))
        .filter((m) => txs.includes(m.transactionId))
        .map((m) => m.content)
        .sort(),
    ).toEqual(['Alert 1', 'Alert 2']);
    await advance(svc, 3_600_000);
    expect(statuses(await event(svc, await trigger(svc, 'throttled', 'grace', { i: 6 })))).toEqual(['completed', 'completed']);
  });

  it('throttleKey: executions with the same key share the window across subscribers; dynamic window from the payload', async () => {
    await createWorkflow(svc, 'per-account', [
      { name: 'Gate', type: 'throttle', controlValues: { type: 'dynamic', dynamicKey: 'payload.window', threshold: 1, throttleKey: '{{ payload.account }}' } },
      inbox('x'),
    ]);
    const window = { amount: 10, unit: 'minutes' };
    expect(statuses(await event(svc, await trigger(svc, 'per-account', 'ada', { account: 'acme', window })))).toEqual(['completed', 'completed']);
    expect(statuses(await event(svc, await trigger(svc, 'per-account', 'grace', { account: 'acme', window })))).toEqual(['completed', 'skipped']);
    expect(statuses(await event(svc, await trigger(svc, 'per-account', 'grace', { account: 'other', window })))).toEqual(['completed', 'completed']);
    await advance(svc, 11 * MIN);
    expect(statuses(await event(svc, await trigger(svc, 'per-account', 'alan', { account: 'acme', window })))).toEqual(['completed', 'completed']);
  });
});

describe('custom', () => {
  it('its rendered values are the output later steps read', async () => {
    await createWorkflow(svc, 'custom', [
      {
        stepId: 'prep',
        name: 'Prep',
        type: 'custom',
        controlValues: { custom: { greeting: 'Hello {{ subscriber.firstName }}', plan: '{{ subscriber.data.plan }}' } },
      },
      { name: 'Sms', type: 'sms', controlValues: { body: '{{ steps.prep.greeting }} ({{ steps.prep.plan }})' } },
    ]);
    const tx = await trigger(svc, 'custom', 'ada');
    expect(details((await event(svc, tx)).jobs[0]).at(-1)).toBe('Custom step output: {"greeting":"Hello Ada","plan":"pro"}');
    expect((await messages(svc, `transactionId=${tx}`))[0].content).toBe('Hello Ada (pro)');
  });
});

describe('persistence across a restart', () => {
  it('a delay due while the service was down runs once at start; an open digest keeps collecting', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'svc-flow-')), 'store.sqlite');
    const start = Date.parse('2026-03-01T10:00:00.000Z');
    const a = fileService(file, start);
    await createWorkflow(a, 'restart-delay', [{ name: 'Wait', type: 'delay', controlValues: { amount: 1, unit: 'hours' } }, inbox('after the delay')]);
    await createWorkflow(a, 'restart-digest', [
      { stepId: 'digest', name: 'Digest', type: 'digest', controlValues: { amount: 2, unit: 'hours' } },
      inbox('{{ steps.digest.eventCount }}'),
    ]);
    const delayed = await trigger(a, 'restart-delay', 'ada');
    const d1 = await trigger(a, 'restart-digest', 'ada');
    await a.close();

    // Down for 90 minutes: the delay came due meanwhile; the digest's window is still open.
    const b = fileService(file, start + 90 * MIN);
    await b.runner.idle();
    const n = await event(b, delayed);
    expect(statuses(n)).toEqual(['completed', 'completed']);
    expect(await messages(b, `transactionId=${delayed}`)).toHaveLength(1);
    const d2 = await trigger(b, 'restart-digest', 'ada');
    expect(statuses(await event(b, d2))).toEqual(['merged', 'merged']);
    await b.close();

    const c = fileService(file, start + 3 * 3_600_000);
    await c.runner.idle();
    expect((await messages(c, `transactionId=${d1}`)).map((m) => m.content)).toEqual(['2']);
    // Exactly once: nothing ran twice across the restarts.
    expect(await messages(c, `transactionId=${delayed}`)).toHaveLength(1);
    expect((await events(c, delayed))[0].jobs[0].executionDetails.filter((d: any) => d.detail.startsWith('Delay finished'))).toHaveLength(1);
    await c.close();
  });
});
