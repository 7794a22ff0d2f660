// Cancel (DELETE /v1/events/trigger/{transactionId}) on the manual clock: what has not run yet is
// canceled with a detail that says so, the runner never runs it (a delay's timer, a queued job, a
// digest's window), and the answer says whether anything was canceled.
import { afterAll, describe, expect, it } from 'vitest';
import { operations } from '../../src/api/operations.js';
import { CANCELED_BY_API } from '../../src/server/handlers/events.js';
import { testService } from '../helpers/service.js';
import { advance, createWorkflow, details, event, messages, statuses, trigger } from './runner/helpers.js';

const MIN = 60_000;
const svc = testService();
afterAll(() => svc.close());
const inbox = (body: string) => ({ name: 'Inbox', type: 'in_app', controlValues: { body } });

async function cancel(transactionId: string): Promise<boolean> {
  const r = await svc.request('DELETE', `/v1/events/trigger/${encodeURIComponent(transactionId)}`);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  // The service's envelope around a boolean, as the operation table reads it.
  expect(Object.keys(r.body)).toEqual(['data']);
  return operations.cancelEvent.response.parse(r.body.data);
}

describe('cancel', () => {
  it('a delay and the step after it: canceled, and the delay timer runs nothing when it fires', async () => {
    await createWorkflow(svc, 'later', [{ name: 'Wait', type: 'delay', controlValues: { amount: 30, unit: 'minutes' } }, inbox('Later')]);
    const tx = await trigger(svc, 'later', 'ada');
    expect(statuses(await event(svc, tx))).toEqual(['delayed', 'pending']);
    expect(await cancel(tx)).toBe(true);
    let n = await event(svc, tx);
    expect(statuses(n)).toEqual(['canceled', 'canceled']);
    expect(details(n.jobs[0]).at(-1)).toBe(CANCELED_BY_API);
    expect(n.jobs[1].executionDetails.at(-1)).toMatchObject({ status: 'Warning', detail: CANCELED_BY_API });
    await advance(svc, 31 * MIN);
    n = await event(svc, tx);
    expect(statuses(n)).toEqual(['canceled', 'canceled']);
    expect(await messages(svc, `transactionId=${tx}`)).toEqual([]);
    // Nothing is left to cancel: false, not an error.
    expect(await cancel(tx)).toBe(false);
  });

  it('an unknown transactionId answers false (200), as the service does', async () => {
    expect(await cancel('no-such-transaction')).toBe(false);
  });

  it('a job already due (queued) is not run once canceled', async () => {
    await createWorkflow(svc, 'now', [inbox('Now'), inbox('Second')]);
    await svc.runner.stop();
    try {
      const r = await svc.request('POST', '/v1/events/trigger', { body: { name: 'now', to: 'ada', transactionId: 'tx-queued-1' } });
      expect(r.status).toBe(201);
      expect(statuses(await event(svc, 'tx-queued-1'))).toEqual(['queued', 'pending']);
      expect(await cancel('tx-queued-1')).toBe(true);
    } finally {
      svc.runner.start();
    }
    await svc.runner.idle();
    expect(statuses(await event(svc, 'tx-queued-1'))).toEqual(['canceled', 'canceled']);
    expect(await messages(svc, 'transactionId=tx-queued-1')).toEqual([]);
  });

  it('steps that ran stay as they are; only the ones after them are canceled', async () => {
    await createWorkflow(svc, 'then-wait', [inbox('First'), { name: 'Wait', type: 'delay', controlValues: { amount: 5, unit: 'minutes' } }, inbox('Last')]);
    const tx = await trigger(svc, 'then-wait', 'ada');
    expect(statuses(await event(svc, tx))).toEqual(['completed', 'delayed', 'pending']);
    expect(await cancel(tx)).toBe(true);
    await advance(svc, 10 * MIN);
    const n = await event(svc, tx);
    expect(statuses(n)).toEqual(['completed', 'canceled', 'canceled']);
    expect(details(n.jobs[0])).not.toContain(CANCELED_BY_API);
    expect((await messages(svc, `transactionId=${tx}`)).map((m) => m.content)).toEqual(['First']);
  });

  it("another environment's key cancels nothing", async () => {
    const tx = await trigger(svc, 'later', 'grace');
    const other = await svc.request('DELETE', `/v1/events/trigger/${tx}`, { key: 'sk_not_this_environment' });
    expect(other.status).toBe(401);
    expect(statuses(await event(svc, tx))).toEqual(['delayed', 'pending']);
  });
});

describe('cancel a digest', () => {
  const summary = {
    name: 'Summary',
    type: 'in_app',
    controlValues: { subject: '{{ steps.digest.eventCount }} comments', body: '{% for e in steps.digest.events %}[{{ e.payload.text }}]{% endfor %}' },
  };

  it('a digest still collecting, alone: canceled, and nothing is sent when its window ends', async () => {
    await createWorkflow(svc, 'alone', [{ stepId: 'digest', name: 'Digest', type: 'digest', controlValues: { amount: 10, unit: 'minutes' } }, summary]);
    const tx = await trigger(svc, 'alone', 'alan', { text: 'a1' });
    expect(statuses(await event(svc, tx))).toEqual(['delayed', 'pending']);
    expect(await cancel(tx)).toBe(true);
    await advance(svc, 11 * MIN);
    expect(statuses(await event(svc, tx))).toEqual(['canceled', 'canceled']);
    expect(await messages(svc, 'channel=in_app&subscriberId=alan')).toEqual([]);
  });

  it('the digest leader canceled: its event is not sent; the oldest follower collects the rest until the same time', async () => {
    await createWorkflow(svc, 'led', [{ stepId: 'digest', name: 'Digest', type: 'digest', controlValues: { amount: 10, unit: 'minutes' } }, summary]);
    const start = svc.clock.now();
    const txs: string[] = [];
    for (let i = 1; i <= 3; i++) {
      txs.push(await trigger(svc, 'led', 'ada', { text: `c${i}` }));
      await advance(svc, MIN);
    }
    const leader = await event(svc, txs[0]!);
    expect(statuses(await event(svc, txs[1]!))).toEqual(['merged', 'merged']);
    expect(await cancel(txs[0]!)).toBe(true);
    expect(statuses(await event(svc, txs[0]!))).toEqual(['canceled', 'canceled']);
    const heir = await event(svc, txs[1]!);
    expect(statuses(heir)).toEqual(['delayed', 'pending']);
    expect(details(heir.jobs[0]).at(-1)).toBe(
      `Step digested: the digest of notification ${leader._id} was canceled, so this event collects the group's events until ${new Date(start + 10 * MIN).toISOString()}`,
    );
    expect((await event(svc, txs[2]!))._digestedNotificationId).toBe(heir._id);
    // The window ends when the canceled digest's would have.
    await advance(svc, 6 * MIN);
    expect(statuses(await event(svc, txs[1]!))).toEqual(['delayed', 'pending']);
    await advance(svc, MIN);
    expect(statuses(await event(svc, txs[1]!))).toEqual(['completed', 'completed']);
    const sent = (await messages(svc, 'channel=in_app&subscriberId=ada')).filter((m) => txs.includes(m.transactionId));
    expect(sent.map((m) => [m.transactionId, m.subject, m.content])).toEqual([[txs[1], '2 comments', '[c2][c3]']]);
  });

  it('a follower canceled: its event leaves the digest, the others go out', async () => {
    await createWorkflow(svc, 'followed', [{ stepId: 'digest', name: 'Digest', type: 'digest', controlValues: { amount: 10, unit: 'minutes' } }, summary]);
    const txs: string[] = [];
    for (let i = 1; i <= 3; i++) {
      txs.push(await trigger(svc, 'followed', 'grace', { text: `f${i}` }));
      await advance(svc, MIN);
    }
    expect(await cancel(txs[1]!)).toBe(true);
    expect(statuses(await event(svc, txs[1]!))).toEqual(['canceled', 'canceled']);
    await advance(svc, 10 * MIN);
    const sent = (await messages(svc, 'channel=in_app&subscriberId=grace')).filter((m) => txs.includes(m.transactionId));
    expect(sent.map((m) => [m.transactionId, m.content])).toEqual([[txs[0], '[f1][f3]']]);
    // Once the digest has gone out, a merged event is not "not run yet": nothing to cancel.
    expect(await cancel(txs[2]!)).toBe(false);
  });
});
