// Failures on purpose, end to end: the built `svc dev` (a scaled clock, 600x) and the built `svc`, as a
// team's CI would use them. A trigger to each simulator address, number and token with
// `trigger --wait` (its exit code), then the activity feed's derived status and reason
// (`svc events list -o json`, field `derived`) and the timeline (`svc events get`).
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { svcBin } from '../helpers/bin.js';
import { startDev, type DevProcess } from '../helpers/dev.js';

let dev: DevProcess;
const dir = mkdtempSync(join(tmpdir(), 'svc-e2e-sim-'));

async function svc(args: string[]) {
  const withOutput = args.includes('-o') ? args : [...args, '-o', 'json'];
  const r = await svcBin(withOutput, { env: { SVC_BASE_URL: dev.baseUrl, SVC_API_KEY: dev.apiKey } });
  return { code: r.exitCode, stdout: String(r.stdout), stderr: String(r.stderr), json: () => JSON.parse(String(r.stdout)) };
}

async function createWorkflow(workflowId: string, steps: unknown[]) {
  const f = join(dir, `${workflowId}.json`);
  writeFileSync(f, JSON.stringify({ name: workflowId, workflowId, active: true, steps }));
  const r = await svc(['workflow', 'create', '--data', `@${f}`]);
  expect(r.code, r.stderr).toBe(0);
}

beforeAll(async () => {
  dev = await startDev({ args: ['--time-scale', '600', '--no-save-profile', '--quiet'] });
  await createWorkflow('e2e-sim-email', [{ name: 'Mail', type: 'email', controlValues: { subject: 'Hi', body: '<p>Hello</p>' } }]);
  await createWorkflow('e2e-sim-push', [{ name: 'Push', type: 'push', controlValues: { subject: 'Hi', body: 'Hello' } }]);
});
afterAll(async () => {
  await dev?.stop();
});

/** Triggers and waits for the outcome; the exit code says delivered (0) or failed (9). */
async function send(workflow: string, tx: string, to: Record<string, unknown>, extra: string[] = []) {
  const r = await svc(['trigger', workflow, '--to-json', JSON.stringify(to), '--transaction-id', tx, '--wait', '--wait-timeout', '20s', ...extra]);
  return r.code;
}

describe('failures on purpose through svc dev (built binaries)', () => {
  it('every simulator destination ends as its provider would answer, with the reason in the feed and the timeline', async () => {
    const cases: { tx: string; workflow: string; to: Record<string, unknown>; code: number; derived: string; reason?: RegExp; extra?: string[] }[] = [
      { tx: 'sim-success', workflow: 'e2e-sim-email', to: { subscriberId: 's1', email: 'success@simulator.svc.test' }, code: 0, derived: 'delivered' },
      {
        tx: 'sim-bounce',
        workflow: 'e2e-sim-email',
        to: { subscriberId: 's2', email: 'bounce@simulator.svc.test' },
        code: 9,
        derived: 'failed',
        reason: /^email: Message not delivered: hard bounce from bounce@simulator\.svc\.test .*550 5\.1\.1 user unknown; not retried$/,
      },
      {
        tx: 'sim-complaint',
        workflow: 'e2e-sim-email',
        to: { subscriberId: 's3', email: 'complaint@simulator.svc.test' },
        code: 0,
        derived: 'delivered',
        reason: /^email: Complaint from complaint@simulator\.svc\.test/,
      },
      {
        tx: 'sim-ooto',
        workflow: 'e2e-sim-email',
        to: { subscriberId: 's4', email: 'ooto@simulator.svc.test' },
        code: 0,
        derived: 'delivered',
        reason: /^email: Automatic reply from ooto@simulator\.svc\.test/,
      },
      {
        tx: 'sim-suppressed',
        workflow: 'e2e-sim-email',
        to: { subscriberId: 's5', email: 'suppressionlist@simulator.svc.test' },
        code: 9,
        derived: 'failed',
        reason: /^email: .*suppressionlist@simulator\.svc\.test is on the suppression list/,
      },
      { tx: 'sim-ratelimit', workflow: 'e2e-sim-email', to: { subscriberId: 's6', email: 'ratelimit@simulator.svc.test' }, code: 0, derived: 'delivered' },
      { tx: 'sim-sms-ok', workflow: 'otp', to: { subscriberId: 's7', phone: '+15005550006' }, code: 0, derived: 'delivered', extra: ['--set', 'code=123456'] },
      {
        tx: 'sim-sms-invalid',
        workflow: 'otp',
        to: { subscriberId: 's8', phone: '+15005550001' },
        code: 9,
        derived: 'failed',
        reason: /^sms: Message not delivered: Twilio error 21211 \(invalid number\)/,
        extra: ['--set', 'code=123456'],
      },
      {
        tx: 'sim-sms-route',
        workflow: 'otp',
        to: { subscriberId: 's9', phone: '+15005550009' },
        code: 9,
        derived: 'failed',
        reason: /^sms: Message not delivered: Twilio error 21614 \(cannot route/,
        extra: ['--set', 'code=123456'],
      },
      {
        tx: 'sim-push',
        workflow: 'e2e-sim-push',
        to: { subscriberId: 's10', channels: [{ providerId: 'fcm', credentials: { deviceTokens: ['simulator-unregistered'] } }] },
        code: 9,
        derived: 'failed',
        reason: /^push: Message not delivered: FCM answered 404 UNREGISTERED for device token simulator-unregistered/,
      },
    ];
    for (const c of cases) expect(await send(c.workflow, c.tx, c.to, c.extra), c.tx).toBe(c.code);

    const list = await svc(['events', 'list', '--limit', '50']);
    expect(list.code, list.stderr).toBe(0);
    const byTx = new Map<string, any>(list.json().map((e: any) => [e.transactionId, e]));
    for (const c of cases) {
      const e = byTx.get(c.tx);
      expect(e?.derived?.status, c.tx).toBe(c.derived);
      if (c.reason) expect(e.derived.reason, c.tx).toMatch(c.reason);
      else expect(e.derived.reason, c.tx).toBeNull();
    }

    // The timeline of the throttled email: one 429, tried again, then sent; the complaint recorded after the sending.
    const details = async (tx: string) => {
      const r = await svc(['events', 'get', byTx.get(tx)._id]);
      expect(r.code, r.stderr).toBe(0);
      return r.json().jobs[0].executionDetails.map((d: any) => `${d.status} ${d.detail}`) as string[];
    };
    const limited = await details('sim-ratelimit');
    const throttled = limited.findIndex((d) => /^Warning .*429 TooManyRequestsException/.test(d));
    const sent = limited.findIndex((d) => /^Success Message sent: delivered to ratelimit@simulator\.svc\.test/.test(d));
    expect(throttled, limited.join('\n')).toBeGreaterThan(-1);
    expect(sent).toBeGreaterThan(throttled);
    expect(limited.filter((d) => /429/.test(d))).toHaveLength(1);
    expect((await details('sim-complaint')).at(-1)).toMatch(/^Warning Complaint from complaint@simulator\.svc\.test: the recipient marked the message as spam/);
    expect((await details('sim-ooto')).at(-1)).toMatch(/^Success Automatic reply from ooto@simulator\.svc\.test: out of the office/);
    // Not retried: the bounce's timeline has its failure and nothing tried again.
    const bounced = await details('sim-bounce');
    expect(bounced.filter((d) => d.startsWith('Failed '))).toHaveLength(1);
    expect(bounced.filter((d) => d.startsWith('Warning '))).toEqual([]);
  });
});
