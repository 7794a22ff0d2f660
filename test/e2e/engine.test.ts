// The workflow engine end to end: the built `svc dev --time-scale 600` (an hour of service time is six
// seconds) driven by the built `svc` binary, as a support person would: create workflows, trigger
// them, follow the timeline with `svc events get`, read messages, preview steps.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SIGNATURE_HEADER } from '../../src/server/runner/webhook.js';
import { verifySignature } from '../helpers/signature.js';
import { svcBin } from '../helpers/bin.js';
import { startDev, type DevProcess } from '../helpers/dev.js';

let dev: DevProcess;
const dir = mkdtempSync(join(tmpdir(), 'svc-e2e-engine-'));
beforeAll(async () => {
  dev = await startDev({ args: ['--time-scale', '600', '--no-save-profile', '--quiet'] });
});
afterAll(async () => {
  await dev?.stop();
});

/** `svc ...` against the dev service; JSON output unless the args say otherwise. */
async function svc(args: string[]) {
  const withOutput = args.includes('-o') ? args : [...args, '-o', 'json'];
  const r = await svcBin(withOutput, { env: { SVC_BASE_URL: dev.baseUrl, SVC_API_KEY: dev.apiKey } });
  return { code: r.exitCode, stdout: String(r.stdout), stderr: String(r.stderr), json: () => JSON.parse(String(r.stdout)) };
}

let files = 0;
function file(data: unknown): string {
  const f = join(dir, `data-${++files}.json`);
  writeFileSync(f, JSON.stringify(data));
  return `@${f}`;
}

async function createWorkflow(workflowId: string, steps: unknown[], extra: Record<string, unknown> = {}) {
  const r = await svc(['workflow', 'create', '--data', file({ name: workflowId, workflowId, active: true, steps, ...extra })]);
  expect(r.code, r.stderr).toBe(0);
  return r.json();
}

/** Polls `fn` (every 200 ms, up to 20 s) until it returns something. */
async function until<T>(fn: () => Promise<T | undefined>, what: string): Promise<T> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const v = await fn();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

async function eventsOf(transactionId: string): Promise<any[]> {
  const r = await svc(['events', 'list', '--transaction-id', transactionId]);
  expect(r.code, r.stderr).toBe(0);
  return r.json();
}

async function messagesOf(transactionId: string, channel?: string): Promise<any[]> {
  const r = await svc(['messages', 'list', '--transaction-id', transactionId, '--limit', '50', ...(channel ? ['--channel', channel] : [])]);
  expect(r.code, r.stderr).toBe(0);
  return r.json();
}

const terminal = new Set(['completed', 'failed', 'skipped', 'merged', 'canceled']);
const settled = (events: any[]) => events.length > 0 && events.every((e) => e.jobs.every((j: any) => terminal.has(j.status)));

describe('svc dev runs workflows through the engine (built binaries)', () => {
  it('welcome: in-app and email content rendered with the subscriber and payload', async () => {
    const t = await svc([
      'trigger',
      'welcome',
      '--to',
      'ada',
      '--payload',
      '{"appName":"E2E"}',
      '--transaction-id',
      'e2e-welcome',
      '--wait',
      '--wait-timeout',
      '20s',
    ]);
    expect(t.code, t.stderr).toBe(0);
    expect(t.json()).toMatchObject({ outcome: 'delivered' });
    const byChannel = Object.fromEntries((await messagesOf('e2e-welcome')).map((m) => [m.channel, m]));
    expect(byChannel.in_app).toMatchObject({ subject: 'Welcome to E2E', content: 'Welcome Ada! Your workspace is ready.' });
    expect(byChannel.in_app.cta.action.buttons.map((b: any) => b.content)).toEqual(['Get started', 'Read the guide']);
    expect(byChannel.email).toMatchObject({ subject: 'Welcome aboard, Ada', email: 'ada@example.com', providerId: 'sendgrid' });
    expect(byChannel.email.content).toContain('<p>Thanks for joining E2E.</p>');
    expect(byChannel.email.content).toContain('Your Pro features are switched on.');
    expect(byChannel.email.content).not.toContain('{{');
  });

  it('a digest merges 5 triggers into one in-app message listing them', async () => {
    await createWorkflow('e2e-digest', [
      { stepId: 'digest', name: 'Digest', type: 'digest', controlValues: { amount: 10, unit: 'minutes' } },
      {
        name: 'Summary',
        type: 'in_app',
        controlValues: {
          subject: '{{ steps.digest.eventCount }} comments',
          body: '{% for e in steps.digest.events %}{{ e.payload.author }}: {{ e.payload.text }}; {% endfor %}',
        },
      },
    ]);
    const authors = ['Ann', 'Bob', 'Cy', 'Di', 'Ed'];
    const events = authors.map((author, i) => ({
      name: 'e2e-digest',
      to: 'dg-user',
      transactionId: `e2e-dg-${i}`,
      payload: { author, text: `comment ${i + 1}` },
    }));
    const bulk = await svc(['api', 'POST', '/v1/events/trigger/bulk', '--data', file({ events })]);
    expect(bulk.code, bulk.stderr).toBe(0);
    expect(bulk.json().map((r: any) => r.status)).toEqual(Array(5).fill('processed'));
    const first = await until(async () => {
      const [e] = await eventsOf('e2e-dg-0');
      return e && e.jobs.every((j: any) => j.status === 'completed') ? e : undefined;
    }, 'the digest to close');
    const inApp = await messagesOf('e2e-dg-0', 'in_app');
    expect(inApp).toHaveLength(1);
    expect(inApp[0]).toMatchObject({ subject: '5 comments', content: 'Ann: comment 1; Bob: comment 2; Cy: comment 3; Di: comment 4; Ed: comment 5; ' });
    for (let i = 1; i < 5; i++) {
      const [e] = await eventsOf(`e2e-dg-${i}`);
      expect(e.jobs.map((j: any) => j.status)).toEqual(['merged', 'merged']);
      expect(e._digestedNotificationId).toBe(first._id);
      expect(await messagesOf(`e2e-dg-${i}`)).toEqual([]);
    }
  });

  it('a delay holds the next step for its time (service time), shown in the timeline', async () => {
    await createWorkflow('e2e-delay', [
      { name: 'Wait', type: 'delay', controlValues: { amount: 5, unit: 'minutes' } },
      { name: 'Note', type: 'in_app', controlValues: { body: 'after {{ steps.wait.duration }} ms' } },
    ]);
    const t = await svc(['trigger', 'e2e-delay', '--to', 'alan', '--transaction-id', 'e2e-delay-1', '--wait', '--wait-timeout', '20s']);
    expect(t.code, t.stderr).toBe(0);
    const [e] = await eventsOf('e2e-delay-1');
    const timeline = await svc(['events', 'get', e._id, '-o', 'table']);
    expect(timeline.stdout).toMatch(/Step delayed until \S+ \(5 minutes\)/);
    expect(timeline.stdout).toContain('Delay finished: waited 5 minutes');
    const [m] = await messagesOf('e2e-delay-1');
    expect(m.content).toBe('after 300000 ms');
    expect(Date.parse(m.createdAt) - Date.parse(e.createdAt)).toBeGreaterThanOrEqual(5 * 60_000);
  });

  it('a throttle lets 2 of 5 through', async () => {
    await createWorkflow('e2e-throttle', [
      { name: 'Gate', type: 'throttle', controlValues: { type: 'fixed', amount: 1, unit: 'hours', threshold: 2 } },
      { name: 'Alert', type: 'in_app', controlValues: { body: 'alert {{ payload.i }}' } },
    ]);
    const events = [1, 2, 3, 4, 5].map((i) => ({ name: 'e2e-throttle', to: 'th-user', transactionId: `e2e-th-${i}`, payload: { i } }));
    expect((await svc(['api', 'POST', '/v1/events/trigger/bulk', '--data', file({ events })])).code).toBe(0);
    const all = await until(async () => {
      const list = await Promise.all(events.map(async (e) => (await eventsOf(e.transactionId))[0]));
      return list.every((e) => e && settled([e])) ? list : undefined;
    }, 'the throttled events to settle');
    expect(all.map((e) => e.jobs[1].status)).toEqual(['completed', 'completed', 'skipped', 'skipped', 'skipped']);
    const sent = (await Promise.all(events.map((e) => messagesOf(e.transactionId)))).flat();
    expect(sent.map((m) => m.content)).toEqual(['alert 1', 'alert 2']);
    const timeline = await svc(['events', 'get', all[4]._id, '-o', 'table']);
    expect(timeline.stdout).toMatch(/Throttled: 2 executions already in the window since \S+, threshold 2/);
  });

  it('a skip condition skips its step, and the timeline names the condition', async () => {
    await createWorkflow('e2e-skip', [{ name: 'Note', type: 'in_app', controlValues: { body: 'hi', skip: { '==': [{ var: 'payload.muted' }, true] } } }]);
    const muted = await svc(['trigger', 'e2e-skip', '--to', 'ada', '--set', 'muted:=true', '--transaction-id', 'e2e-skip-1', '--wait']);
    // Nothing went out: --wait says so with its own exit code (10), not "delivered".
    expect(muted.code, muted.stderr).toBe(10);
    expect(muted.stderr).toMatch(/nothing delivered: every channel step was skipped/);
    const [e] = await eventsOf('e2e-skip-1');
    expect(e.jobs[0].status).toBe('skipped');
    expect((await svc(['events', 'get', e._id, '-o', 'table'])).stdout).toContain(
      'Step skipped: its skip condition holds: {"==":[{"var":"payload.muted"},true]}',
    );
    expect(await messagesOf('e2e-skip-1')).toEqual([]);
    expect((await svc(['trigger', 'e2e-skip', '--to', 'ada', '--set', 'muted:=false', '--transaction-id', 'e2e-skip-2', '--wait'])).code).toBe(0);
    expect(await messagesOf('e2e-skip-2')).toHaveLength(1);
  });

  it("a template error shows in the timeline and in the workflow's issues", async () => {
    await createWorkflow('e2e-broken', [{ name: 'Note', type: 'in_app', controlValues: { body: 'Hello {% if payload.vip %}VIP' } }]);
    const t = await svc(['trigger', 'e2e-broken', '--to', 'ada', '--transaction-id', 'e2e-broken-1', '--wait']);
    expect(t.code).toBe(9); // cli.md: trigger --wait with a failed job
    const [e] = await eventsOf('e2e-broken-1');
    const timeline = await svc(['events', 'get', e._id, '-o', 'table']);
    expect(timeline.stdout).toContain('body: Content compilation error: tag {% if payload.vip %} not closed (line 1, column 7)');
    const wf = await svc(['workflow', 'get', 'e2e-broken', '-o', 'table']);
    expect(wf.stdout).toMatch(/status\s+ERROR/);
    expect(wf.stdout).toContain('ILLEGAL_VARIABLE_IN_CONTROL_VALUE');
  });
});

describe('webhook step', () => {
  let server: Server;
  const received: { headers: IncomingHttpHeaders; raw: string; url: string }[] = [];
  beforeAll(async () => {
    server = createServer((req, res) => {
      let raw = '';
      req.on('data', (c: Buffer) => (raw += c.toString()));
      req.on('end', () => {
        received.push({ headers: req.headers, raw, url: req.url! });
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ticket: 'T-42' }));
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  });
  afterAll(() => new Promise((r) => server.close(r)));

  it('http_request delivers to a receiver with a verifiable signature; its answer feeds the next step', async () => {
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/tickets`;
    await createWorkflow('e2e-webhook', [
      {
        stepId: 'open',
        name: 'Open ticket',
        type: 'http_request',
        controlValues: { method: 'POST', url, body: '{"title": "{{ payload.title }}", "by": "{{ subscriber.firstName }}"}' },
      },
      { name: 'Note', type: 'in_app', controlValues: { body: 'Ticket {{ steps.open.body.ticket }} opened ({{ steps.open.status }})' } },
    ]);
    const t = await svc(['trigger', 'e2e-webhook', '--to', 'ada', '--set', 'title=Disk full', '--transaction-id', 'e2e-hook-1', '--wait']);
    expect(t.code, t.stderr).toBe(0);
    expect(received).toHaveLength(1);
    const [r] = received;
    expect(r!.url).toBe('/tickets');
    expect(JSON.parse(r!.raw)).toEqual({ title: 'Disk full', by: 'Ada' });
    expect(verifySignature(dev.apiKey, r!.headers[SIGNATURE_HEADER] as string, r!.raw, { now: Date.now() })).toMatchObject({ ok: true });
    expect(verifySignature('another-secret', r!.headers[SIGNATURE_HEADER] as string, r!.raw, { now: Date.now() }).ok).toBe(false);
    expect((await messagesOf('e2e-hook-1'))[0].content).toBe('Ticket T-42 opened (200)');
    const [e] = await eventsOf('e2e-hook-1');
    // The raw answer is folded in the timeline; --raw shows it.
    const timeline = await svc(['events', 'get', e._id, '-o', 'table', '--raw']);
    expect(timeline.stdout).toMatch(/HTTP request POST http:\/\/127\.0\.0\.1:\d+\/tickets answered 200/);
    expect(timeline.stdout).toContain('raw: {"ok":true');
  });
});

describe('svc workflow preview, every step type', () => {
  beforeAll(async () => {
    await createWorkflow('e2e-all', [
      { stepId: 'digest', name: 'Digest', type: 'digest', controlValues: { amount: 15, unit: 'minutes', digestKey: 'payload.postId' } },
      {
        stepId: 'in-app',
        name: 'Inbox',
        type: 'in_app',
        controlValues: {
          subject: 'Hi {{ subscriber.firstName }}',
          body: '{{ steps.digest.eventCount }} new',
          primaryAction: { label: 'Open', redirect: { url: '/p/{{ payload.postId }}' } },
        },
      },
      {
        stepId: 'email',
        name: 'Mail',
        type: 'email',
        controlValues: { subject: 'Post {{ payload.postId }}', body: '<p>{{ payload.title }}</p>', layoutId: null },
      },
      { stepId: 'sms', name: 'Sms', type: 'sms', controlValues: { body: 'Code {{ payload.code }}' } },
      { stepId: 'push', name: 'Push', type: 'push', controlValues: { subject: 'Push {{ payload.title }}', body: 'Body' } },
      { stepId: 'chat', name: 'Chat', type: 'chat', controlValues: { body: 'Chat {{ payload.title | upcase }}' } },
      { stepId: 'delay', name: 'Delay', type: 'delay', controlValues: { amount: 2, unit: 'hours' } },
      { stepId: 'throttle', name: 'Throttle', type: 'throttle', controlValues: { type: 'fixed', amount: 1, unit: 'days', threshold: 3 } },
      { stepId: 'custom', name: 'Custom', type: 'custom', controlValues: { custom: { greeting: 'Hello {{ subscriber.firstName }}' } } },
      {
        stepId: 'call',
        name: 'Call',
        type: 'http_request',
        controlValues: { method: 'POST', url: 'http://127.0.0.1:9/x', body: '{"post": "{{ payload.postId }}"}' },
      },
    ]);
  });

  const preview = async (step: string) => {
    const r = await svc([
      'workflow',
      'preview',
      'e2e-all',
      step,
      '--payload',
      '{"postId":"p1","title":"Launch","code":"123"}',
      '--subscriber',
      '{"firstName":"Zoe"}',
    ]);
    expect(r.code, r.stderr).toBe(0);
    return r.json();
  };

  it.each([
    ['in-app', { type: 'in_app', preview: { subject: 'Hi Zoe', body: '3 new', primaryAction: { label: 'Open', redirect: { url: '/p/p1' } } } }],
    ['email', { type: 'email', preview: { subject: 'Post p1', body: '<p>Launch</p>' } }],
    ['sms', { type: 'sms', preview: { body: 'Code 123' } }],
    ['push', { type: 'push', preview: { subject: 'Push Launch', body: 'Body' } }],
    ['chat', { type: 'chat', preview: { body: 'Chat LAUNCH' } }],
    ['digest', { type: 'digest', preview: { type: 'regular', amount: 15, unit: 'minutes', digestKey: 'payload.postId' } }],
    ['delay', { type: 'delay', preview: { type: 'regular', amount: 2, unit: 'hours' } }],
    ['throttle', { type: 'throttle', preview: { type: 'fixed', amount: 1, unit: 'days', threshold: 3 } }],
    ['custom', { type: 'custom', preview: { greeting: 'Hello Zoe' } }],
    ['call', { type: 'http_request', preview: { method: 'POST', url: 'http://127.0.0.1:9/x', body: { post: 'p1' } } }],
  ])('%s', async (step, result) => {
    const p = await preview(step);
    expect(p.result).toMatchObject(result);
    expect(p.previewPayloadExample.subscriber.firstName).toBe('Zoe');
    if (step === 'call') expect(verifySignature(dev.apiKey, p.svcSignature, JSON.stringify({ post: 'p1' }), { now: Date.now() }).ok).toBe(true);
  });

  it("a preview error is the spec's {title, message, hint}; an unknown step is an empty preview, as the service answers", async () => {
    const r = await svc(['workflow', 'preview', 'e2e-all', 'sms', '--controls', '{"body":"{% if x %}"}']);
    expect(r.code).toBe(0);
    expect(r.json().result.error).toMatchObject({
      title: 'Template syntax error',
      message: expect.stringContaining('line 1, column 1'),
      hint: expect.any(String),
    });
    // The service answers an unknown step with an empty preview (201); the CLI says which step is missing (exit 5).
    const missing = await svc(['workflow', 'preview', 'e2e-all', 'nope']);
    expect(missing.code).toBe(5);
    expect(missing.stderr).toMatch(/no step nope in e2e-all; its steps: .*sms/);
  });
});
