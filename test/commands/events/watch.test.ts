// svc events watch: polls a stub whose feed changes between polls and prints each event once.
import { describe, expect, test } from 'vitest';
import { job, notification, page } from '../../helpers/activity.js';
import { stubbedService } from '../../helpers/command-test.js';
import { Chalk } from 'chalk';
import { line } from '../../../src/io/watch-line.js';
import { runSvc } from '../../helpers/run.js';

const svc = stubbedService();

describe('events watch', () => {
  test('prints each new event once, in order, as NDJSON when piped; Ctrl-C gives 130 and a --since hint, not an error line', async () => {
    const ev = (i: number) => ({ ...notification(`u${i}`, []), createdAt: `2026-11-22T10:00:0${i}.000Z`, transactionId: `t${i}` });
    svc.stub.on('GET', '/v1/notifications', (_req, n) => page(n === 1 ? [ev(2), ev(1)] : n === 2 ? [ev(3), ev(2)] : [ev(3)]));
    const controller = new AbortController();
    const running = runSvc(['events', 'watch', '--interval', '50ms', '--since', '2026-11-22T09:00:00Z'], { env: svc.env, signal: controller.signal });
    while (svc.stub.requests.filter((q) => q.method === 'GET').length < 3) await new Promise((r) => setTimeout(r, 20));
    controller.abort();
    const r = await running;
    expect(r.code).toBe(130);
    const lines = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => l.transactionId)).toEqual(['t1', 't2', 't3']);
    expect(r.stderr).toContain('stopped watching; to continue from here: svc events watch --since 2026-11-22T10:00:03.000Z');
    // Ctrl-C is how a watch ends: a note, not an error.
    expect(r.stderr).not.toMatch(/^error:/m);
    const gets = svc.stub.requests.filter((q) => q.method === 'GET');
    expect(gets[0]!.query.get('after')).toBe('2026-11-22T09:00:00.000Z');
    expect(gets[1]!.query.get('after')).toBe('2026-11-22T10:00:02.000Z');
  });

  test('--status prints an event once it settles into that status, however many polls that takes', async () => {
    const at = (i: number) => `2026-11-22T10:00:0${i}.000Z`;
    const ev = (i: number, jobs: unknown[]) => ({ ...notification(`u${i}`, jobs), createdAt: at(i), transactionId: `t${i}` });
    const pending = [job('email', 'queued', 'Step queued')];
    const failed = [job('email', 'failed', 'Subscriber does not have an email address')];
    const sent = [job('email', 'completed', 'Message sent')];
    // Poll 1: t1 pending, t2 delivered. Poll 2: t1 still pending. Poll 3 and later: t1 failed, t3 failed at once.
    svc.stub.on('GET', '/v1/notifications', (_req, n) =>
      page(n === 1 ? [ev(2, sent), ev(1, pending)] : n === 2 ? [ev(2, sent), ev(1, pending)] : [ev(3, failed), ev(2, sent), ev(1, failed)]),
    );
    const controller = new AbortController();
    const running = runSvc(['events', 'watch', '--status', 'failed', '--interval', '30ms', '--since', '2026-11-22T09:00:00Z'], {
      env: svc.env,
      signal: controller.signal,
    });
    while (svc.stub.requests.length < 4) await new Promise((r) => setTimeout(r, 20));
    controller.abort();
    const r = await running;
    expect(r.code).toBe(130);
    const printed = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(printed.map((l) => [l.transactionId, l.derived.status])).toEqual([
      ['t1', 'failed'],
      ['t3', 'failed'],
    ]);
    // The poll reached back to the event still followed (t1), not only after the newest one seen.
    expect(svc.stub.requests[2]!.query.get('after')).toBe(at(1));
  });

  test('--dry-run prints the first poll and returns without sending', async () => {
    const r = await runSvc(['events', 'watch', '--dry-run', '--since', '2026-11-22T09:00:00Z', '--subscriber', 'u1'], { env: svc.env });
    expect(r.code).toBe(0);
    const printed = JSON.parse(r.stdout);
    expect(printed.method).toBe('GET');
    expect(printed.url).toContain('/v1/notifications?');
    expect(printed.url).toContain('after=2026-11-22T09%3A00%3A00.000Z');
    expect(svc.stub.requests).toHaveLength(0);
  });

  test('polls for as long as it runs without piling up listeners; -o table uses the events layout', async () => {
    const ev = { ...notification('u1', [job('in_app', 'completed', 'Message sent')]), createdAt: '2026-11-22T10:00:01.000Z', transactionId: 't-table' };
    svc.stub.on('GET', '/v1/notifications', page([ev]));
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(`${w.name}: ${w.message}`);
    process.on('warning', onWarning);
    try {
      const controller = new AbortController();
      const running = runSvc(['events', 'watch', '--interval', '10ms', '--since', '2026-11-22T09:00:00Z', '-o', 'table'], {
        env: svc.env,
        signal: controller.signal,
      });
      while (svc.stub.requests.filter((q) => q.method === 'GET').length < 30) await new Promise((r) => setTimeout(r, 10));
      controller.abort();
      const r = await running;
      expect(r.code).toBe(130);
      expect(r.stdout).toMatch(/TRANSACTION/);
      expect(r.stdout).toContain('t-table');
      expect(r.stdout).not.toMatch(/_ENVIRONMENTID|_ORGANIZATIONID/);
      await new Promise((r) => setImmediate(r));
      expect(warnings.filter((w) => /MaxListeners/.test(w))).toEqual([]);
    } finally {
      process.off('warning', onWarning);
    }
  });
});

describe('a watch line on a terminal', () => {
  const e = {
    _id: '6b06f64dd2e92723b6500637',
    createdAt: new Date(Date.now() - 1000).toISOString(),
    transactionId: '01a21332-1e42-7717-9e7f-c22b7a5dd5ea',
    subscriber: { subscriberId: 'alan' },
    template: { name: 'Incident', triggers: [{ identifier: 'incident' }] },
    jobs: [{ type: 'chat', status: 'failed', executionDetails: [{ status: 'Failed', detail: 'Subscriber has no chat destination for slack' }] }],
  };
  const plain = new Chalk({ level: 0 });
  const none = (_c: unknown, s: string) => s;
  test('fits 80 columns: time, the end of the id, workflow, subscriber, status and the reason cut to fit', () => {
    const l = line(e, plain, none, { width: 80, wide: false, utc: true });
    expect(l.length).toBeLessThanOrEqual(80);
    expect(l).toMatch(/^\d\d:\d\d:\d\dZ +b6500637 +incident +alan +failed +chat: Subscriber .*…$/);
    expect(l).toHaveLength(80);
  });
  test('--wide (or not a terminal): the whole id, full time, the transaction and the whole reason', () => {
    const l = line(e, plain, none, { width: undefined, wide: true, utc: true });
    expect(l).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\dZ {2}6b06f64dd2e92723b6500637/);
    expect(l).toContain('01a21332-1e42-7717-9e7f-c22b7a5dd5ea');
    expect(l).toContain('chat: Subscriber has no chat destination for slack');
  });
});
