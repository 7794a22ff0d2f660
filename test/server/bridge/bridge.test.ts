// Code-first workflows written with the real @novu/framework, served on loopback, registered with
// POST /v1/bridge/sync and run by svc dev's engine: discovery, each step executed with a valid signature
// and the state so far, messages equal to the bridge's outputs, delay and digest driven by the bridge,
// digest events fed forward, a throwing step in the timeline, a skip, and the preview.
import http from 'node:http';
import { workflow } from '@novu/framework';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { testService, TEST_KEY, type TestService } from '../../helpers/service.js';
import { startBridgeApp, validSignature, type BridgeApp } from './app.js';

const nameSchema = {
  type: 'object',
  properties: { name: { type: 'string' }, mute: { type: 'boolean' } },
  required: ['name'],
  additionalProperties: false,
} as const;

const welcome = workflow(
  'welcome-code',
  async ({ step, payload }) => {
    const note = await step.inApp('hello', async () => ({
      subject: 'Hello',
      body: `Hi ${payload.name}`,
      primaryAction: { label: 'Open', redirect: { url: '/inbox' } },
      data: { kind: 'greeting' },
    }));
    await step.email('mail', async (controls) => ({ subject: controls.subject, body: `<p>Welcome ${payload.name}, read=${note.read}</p>` }), {
      controlSchema: {
        type: 'object',
        properties: { subject: { type: 'string', default: 'Welcome aboard' } },
        additionalProperties: false,
      } as const,
    });
  },
  { payloadSchema: nameSchema, name: 'Welcome (code)' },
);

const digestFlow = workflow(
  'digest-code',
  async ({ step }) => {
    const waited = await step.delay('wait', async () => ({ type: 'regular', amount: 1, unit: 'minutes' }));
    const { events } = await step.digest('collect', async () => ({ amount: 1, unit: 'hours' }));
    await step.inApp('summary', async () => ({
      body: `${events.length} events: ${events.map((e) => (e.payload as { name: string }).name).join(', ')} after ${waited.duration >= 0 ? 'waiting' : '?'}`,
    }));
  },
  { payloadSchema: nameSchema },
);

const failing = workflow(
  'fails-code',
  async ({ step }) => {
    await step.custom('boom', async () => {
      throw new Error('database is down');
    });
    await step.sms('after', async () => ({ body: 'still here' }));
  },
  { payloadSchema: nameSchema },
);

const skipping = workflow(
  'skip-code',
  async ({ step, payload }) => {
    await step.inApp('maybe', async () => ({ body: 'not muted' }), { skip: () => payload.mute === true });
    await step.chat('always', async () => ({ body: `chat for ${payload.name}` }));
  },
  { payloadSchema: nameSchema },
);

const throttling = workflow(
  'throttle-code',
  async ({ step, payload }) => {
    await step.throttle('th', async () => ({ type: 'fixed', amount: 1, unit: 'minutes', threshold: 1 }), { skip: () => payload.name === 'unthrottled' });
    await step.inApp('after', async () => ({ body: `for ${payload.name}` }));
  },
  { payloadSchema: nameSchema },
);

let svc: TestService;
let app: BridgeApp;

beforeEach(async () => {
  // The framework logs every execution to the console; the tests read what it answered instead.
  vi.spyOn(console, 'log').mockImplementation(() => {});
  vi.spyOn(console, 'error').mockImplementation(() => {});
  svc = testService();
  app = await startBridgeApp([welcome, digestFlow, failing, skipping, throttling], TEST_KEY);
});
afterEach(async () => {
  await svc.runner.stop();
  svc.close();
  await app.close();
  vi.restoreAllMocks();
});

const sync = () => svc.request('POST', '/v1/bridge/sync?source=cli', { body: { bridgeUrl: app.url } });
const trigger = (name: string, payload: Record<string, unknown>, to: unknown = 'ada') =>
  svc.request('POST', '/v1/events/trigger', { body: { name, to, payload } });
const events = async (wf: string) =>
  ((await svc.request('GET', '/v1/notifications?limit=50')).body.data as any[]).filter(
    (n) => n.template?.triggers?.[0]?.identifier === wf || n.templateIdentifier === wf,
  );
const messages = async (channel?: string) => (await svc.request('GET', `/v1/messages?limit=100${channel ? `&channel=${channel}` : ''}`)).body.data as any[];
const executes = () => app.received.filter((r) => r.action === 'execute');

describe('registering a bridge', () => {
  it('discovers the workflows (signed over {}) and stores them with origin external', async () => {
    const res = await sync();
    expect(res.status).toBe(201);
    expect(res.body.data.workflows.map((w: any) => w.workflowId).sort()).toEqual(['digest-code', 'fails-code', 'skip-code', 'throttle-code', 'welcome-code']);
    expect(res.body.data.sdkVersion).toMatch(/^\d+\.\d+\.\d+/);
    const discover = app.received.find((r) => r.action === 'discover')!;
    expect(discover.status).toBe(200);
    expect(validSignature(discover.signature, {}, TEST_KEY)).toBe(true);
    expect(discover.xSignature).toBe(discover.signature);
    const list = await svc.request('GET', '/v2/workflows?limit=50');
    const mine = list.body.data.workflows.find((w: any) => w.workflowId === 'welcome-code');
    expect(mine).toMatchObject({ origin: 'external', name: 'Welcome (code)', status: 'ACTIVE', stepTypeOverviews: ['in_app', 'email'] });
    const one = await svc.request('GET', '/v2/workflows/welcome-code');
    expect(one.body.data.origin).toBe('external');
    expect(one.body.data.bridgeUrl).toBe(app.url);
    expect(one.body.data.steps[1].controls.dataSchema.properties.subject.default).toBe('Welcome aboard');
  });

  it('an unreachable URL is refused naming it, and nothing is stored', async () => {
    const before = (await svc.request('GET', '/v2/workflows?limit=50')).body.data.totalCount;
    // A port that was free a moment ago: nothing listens there.
    const gone = await startBridgeApp([], TEST_KEY);
    await gone.close();
    const dead = gone.url;
    const res = await svc.request('POST', '/v1/bridge/sync', { body: { bridgeUrl: dead } });
    expect(res.status).toBe(400);
    expect(res.body.message).toContain(dead);
    expect(res.body.message).toMatch(/not reachable: ECONNREFUSED/);
    expect(res.body.ctx.code).toBe('BRIDGE_UNREACHABLE');
    expect((await svc.request('GET', '/v2/workflows?limit=50')).body.data.totalCount).toBe(before);
  });

  it('a URL that is not a framework bridge is refused with what answered', async () => {
    const notBridge = app.url.replace('/api/novu', '/elsewhere');
    const res = await svc.request('POST', '/v1/bridge/sync', { body: { bridgeUrl: notBridge } });
    expect(res.status).toBe(422);
    expect(res.body.message).toContain(notBridge);
    // What answered, never its body: status and content type.
    expect(res.body.message).toBe(`Bridge ${notBridge} did not answer its health check as a framework bridge: HTTP 404 (text/html, 39 bytes)`);
    expect(res.body.message).not.toContain('doctype');
  });

  it('a discover answer that breaks the schema is refused with the path of the bad field, and nothing is stored', async () => {
    const server = http.createServer((req, res) => {
      const health = req.url?.includes('health-check');
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify(
          health
            ? { status: 'ok', sdkVersion: '9.9.9', frameworkVersion: 'x', discovered: { workflows: 1, steps: 1 } }
            : {
                workflows: [
                  {
                    workflowId: 'odd',
                    payload: { schema: {} },
                    steps: [{ stepId: 's', type: 'in_app', controls: { schema: {} }, outputs: {}, results: { schema: {} } }],
                  },
                ],
              },
        ),
      );
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/api/novu`;
      const res = await svc.request('POST', '/v1/bridge/sync', { body: { bridgeUrl: url } });
      expect(res.status).toBe(422);
      expect(res.body.message).toContain(url);
      expect(res.body.message).toContain('workflows.0.steps.0.outputs.schema');
      expect((await svc.request('GET', '/v2/workflows/odd')).status).toBe(404);
    } finally {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
  });

  it('a bridge whose app has another secret key: discovery is refused (401) and said so', async () => {
    const other = await startBridgeApp([welcome], 'sk_someone_else');
    try {
      const res = await svc.request('POST', '/v1/bridge/sync', { body: { bridgeUrl: other.url } });
      expect(res.status).toBe(422);
      expect(res.body.message).toMatch(/HTTP 401.*SignatureMismatch|Signature/);
      expect(res.body.message).toContain('NOVU_SECRET_KEY');
    } finally {
      await other.close();
    }
  });
});

describe('running code-first workflows', () => {
  it('in-app with payload, then email with its control default: signed, with the state so far, messages equal to the outputs', async () => {
    await sync();
    const t = await trigger('welcome-code', { name: 'Ada' });
    expect(t.status).toBe(201);
    await svc.runner.idle();
    const calls = executes();
    expect(calls.map((c) => `${c.workflowId}/${c.stepId}`)).toEqual(['welcome-code/hello', 'welcome-code/mail']);
    for (const c of calls) {
      expect(validSignature(c.signature, c.body, TEST_KEY)).toBe(true);
      expect(c.xSignature).toBe(c.signature);
      expect(c.status).toBe(200);
      expect(c.body.payload).toEqual({ name: 'Ada' });
      expect(c.body.subscriber.subscriberId).toBe('ada');
    }
    expect(calls[0]!.body.state).toEqual([{ stepId: 'trigger', outputs: { name: 'Ada' }, state: { status: 'completed' } }]);
    expect(calls[1]!.body.state[1]).toEqual({
      stepId: 'hello',
      outputs: { seen: false, read: false, lastSeenDate: null, lastReadDate: null },
      state: { status: 'completed' },
    });
    const inApp = (await messages('in_app')).find((m) => m.templateIdentifier === 'welcome-code')!;
    const hello = calls[0]!.answer.outputs;
    expect(inApp.content).toBe(hello.body);
    expect(inApp.subject).toBe(hello.subject);
    expect(inApp.data).toEqual({ kind: 'greeting' });
    expect(inApp.cta.action.buttons).toEqual([{ type: 'primary', content: 'Open', url: '/inbox', target: '_self' }]);
    const email = (await messages('email')).find((m) => m.templateIdentifier === 'welcome-code')!;
    const mail = calls[1]!.answer.outputs;
    expect(mail.subject).toBe('Welcome aboard');
    expect(email.subject).toBe(mail.subject);
    expect(email.content).toBe(mail.body);
    expect(email.email).toBe('ada@example.com');
    expect(email.status).toBe('sent');
  });

  it('a delay and a digest driven by the bridge: the digest events fed forward to the next step', async () => {
    await sync();
    await trigger('digest-code', { name: 'one' });
    await trigger('digest-code', { name: 'two' });
    await svc.runner.idle();
    // Both events wait a minute (the bridge said so), then the first opens the digest, the second joins it.
    expect(executes().filter((c) => c.stepId === 'wait')).toHaveLength(2);
    svc.clock.advance(60_000);
    await svc.runner.idle();
    const digestCalls = executes().filter((c) => c.stepId === 'collect');
    expect(digestCalls).toHaveLength(2);
    expect(digestCalls[0]!.body.state[1]).toMatchObject({ stepId: 'wait', outputs: { duration: 60_000 } });
    expect(executes().filter((c) => c.stepId === 'summary')).toHaveLength(0);
    svc.clock.advance(3_600_000);
    await svc.runner.idle();
    const summary = executes().filter((c) => c.stepId === 'summary');
    expect(summary).toHaveLength(1);
    const fed = summary[0]!.body.state.find((s: any) => s.stepId === 'collect');
    expect(fed.outputs.eventCount).toBe(2);
    expect(fed.outputs.events.map((e: any) => e.payload.name)).toEqual(['one', 'two']);
    for (const e of fed.outputs.events) expect(Object.keys(e).sort()).toEqual(['id', 'payload', 'time']);
    const inApp = (await messages('in_app')).filter((m) => m.templateIdentifier === 'digest-code');
    expect(inApp).toHaveLength(1);
    expect(inApp[0].content).toBe(summary[0]!.answer.outputs.body);
    expect(inApp[0].content).toBe('2 events: one, two after waiting');
  });

  it('a step that throws: failed in the timeline with the bridge answer as raw, retried, and the next step still runs', async () => {
    await sync();
    await trigger('fails-code', { name: 'x' });
    await svc.runner.idle();
    const boom = executes().filter((c) => c.stepId === 'boom');
    // One attempt and three retries: a 5xx is retried as the service retries it.
    expect(boom).toHaveLength(4);
    expect(boom[0]!.status).toBe(502);
    const [event] = await events('fails-code');
    const job = event.jobs.find((j: any) => j.step.stepId === 'boom' || j.step?.template?.name === 'boom' || j.type === 'custom');
    expect(job.status).toBe('failed');
    const failed = job.executionDetails.find((d: any) => d.status === 'Failed');
    expect(failed.detail).toContain("executing step 'boom'");
    expect(failed.detail).toContain('HTTP 502: StepExecutionFailedError');
    expect(failed.detail).toContain('after 4 attempts');
    const raw = JSON.parse(failed.raw);
    expect(raw.statusCode).toBe(502);
    expect(raw.body.code).toBe('StepExecutionFailedError');
    expect(raw.body.message).toContain('boom');
    const after = event.jobs.find((j: any) => j.type === 'sms');
    expect(after.status).toBe('completed');
  });

  it('a skip in the code skips the step, and the next one runs with the skipped step in its state', async () => {
    await sync();
    await trigger('skip-code', { name: 'quiet', mute: true });
    await svc.runner.idle();
    const [event] = await events('skip-code');
    const maybe = event.jobs.find((j: any) => j.type === 'in_app');
    expect(maybe.status).toBe('skipped');
    expect(maybe.executionDetails.map((d: any) => d.detail).join('\n')).toMatch(/Step skipped: its skip condition in the app's code holds/);
    const chat = executes().find((c) => c.stepId === 'always')!;
    expect(chat.body.state[1]).toEqual({
      stepId: 'maybe',
      outputs: { seen: false, read: false, lastSeenDate: null, lastReadDate: null },
      state: { status: 'skipped' },
    });
    const chatMsg = (await messages('chat')).find((m) => m.templateIdentifier === 'skip-code')!;
    expect(chatMsg.content).toBe('chat for quiet');
    expect((await messages('in_app')).filter((m) => m.templateIdentifier === 'skip-code')).toHaveLength(0);
  });

  it("a throttle: the next step runs with the throttle's result in its state (the framework checks its shape), passed, skipped or throttled", async () => {
    await sync();
    await trigger('throttle-code', { name: 'first' });
    await svc.runner.idle();
    await trigger('throttle-code', { name: 'unthrottled' });
    await svc.runner.idle();
    await trigger('throttle-code', { name: 'second' });
    await svc.runner.idle();
    const after = executes().filter((c) => c.stepId === 'after');
    // The third trigger is throttled: its in-app step is skipped, the bridge not asked.
    expect(after.map((c) => c.status)).toEqual([200, 200]);
    expect(after[0]!.body.state[1]).toMatchObject({
      stepId: 'th',
      outputs: { throttled: false, executionCount: 1, threshold: 1 },
      state: { status: 'completed' },
    });
    expect(after[0]!.body.state[1].outputs.windowStart).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    expect(after[1]!.body.state[1]).toEqual({ stepId: 'th', outputs: { throttled: false }, state: { status: 'skipped' } });
    const contents = (await messages('in_app')).filter((m) => m.templateIdentifier === 'throttle-code').map((m) => m.content);
    expect(contents.sort()).toEqual(['for first', 'for unthrottled']);
    const [third] = (await events('throttle-code')).filter((n) => n.payload?.name === 'second');
    expect(third.jobs.map((j: any) => j.status)).toEqual(['completed', 'skipped']);
  });

  it('the step preview of a code-first workflow is asked of the bridge', async () => {
    await sync();
    const res = await svc.request('POST', '/v2/workflows/welcome-code/step/mail/preview', {
      body: { previewPayload: { payload: { name: 'Preview' } }, controlValues: { subject: 'Custom subject' } },
    });
    expect(res.status).toBe(201);
    const call = app.received.find((r) => r.action === 'preview')!;
    expect(validSignature(call.signature, call.body, TEST_KEY)).toBe(true);
    expect(res.body.data.result).toEqual({ type: 'email', preview: call.answer.outputs });
    expect(res.body.data.result.preview.subject).toBe('Custom subject');
    expect(res.body.data.result.preview.body).toContain('Welcome Preview');
  });

  it("a trigger's bridgeUrl is honoured: that bridge is discovered and the trigger runs through it", async () => {
    const t = await svc.request('POST', '/v1/events/trigger', { body: { name: 'welcome-code', to: 'ada', payload: { name: 'Via' }, bridgeUrl: app.url } });
    expect(t.status).toBe(201);
    await svc.runner.idle();
    expect(executes().map((c) => c.stepId)).toEqual(['hello', 'mail']);
    expect((await messages('in_app')).find((m) => m.templateIdentifier === 'welcome-code')!.content).toBe('Hi Via');
  });

  it("a bulk trigger honours each event's bridgeUrl: each bridge discovered once, an unusable one fails only its events", async () => {
    const gone = await startBridgeApp([], TEST_KEY);
    await gone.close();
    const res = await svc.request('POST', '/v1/events/trigger/bulk', {
      body: {
        events: [
          { name: 'welcome-code', to: 'ada', payload: { name: 'Bulk' }, bridgeUrl: app.url, transactionId: 'bulk-1' },
          { name: 'welcome-code', to: 'ada', payload: { name: 'Lost' }, bridgeUrl: gone.url, transactionId: 'bulk-2' },
          { name: 'welcome-code', to: 'bob', payload: { name: 'Bulk' }, bridgeUrl: app.url, transactionId: 'bulk-3' },
          { name: 'welcome-code', to: 'ada', payload: { name: 'Odd' }, bridgeUrl: 7, transactionId: 'bulk-4' },
        ],
      },
    });
    expect(res.status).toBe(201);
    const results = res.body.data as any[];
    expect(results.map((r) => r.transactionId)).toEqual(['bulk-1', 'bulk-2', 'bulk-3', 'bulk-4']);
    expect(results.map((r) => r.status)).toEqual(['processed', 'error', 'processed', 'error']);
    expect(results[1].error[0]).toContain(gone.url);
    expect(results[3].error).toEqual(['bridgeUrl must be a URL']);
    expect(app.received.filter((r) => r.action === 'discover')).toHaveLength(1);
    await svc.runner.idle();
    expect(
      executes()
        .map((c) => `${c.body.subscriber.subscriberId}/${c.stepId}`)
        .sort(),
    ).toEqual(['ada/hello', 'ada/mail', 'bob/hello', 'bob/mail']);
    const inApp = (await messages('in_app')).filter((m) => m.templateIdentifier === 'welcome-code');
    expect(inApp.map((m) => m.content)).toEqual(['Hi Bulk', 'Hi Bulk']);
  });

  it("a bulk trigger naming two bridges that serve the same workflow keeps it with the first named, and refuses the other's events", async () => {
    const first = await startBridgeApp([welcome], TEST_KEY);
    const second = await startBridgeApp([welcome], TEST_KEY);
    try {
      const res = await svc.request('POST', '/v1/events/trigger/bulk', {
        body: {
          events: [
            { name: 'welcome-code', to: 'ada', payload: { name: 'One' }, bridgeUrl: first.url },
            { name: 'welcome-code', to: 'bob', payload: { name: 'Two' }, bridgeUrl: second.url },
          ],
        },
      });
      expect(res.status).toBe(201);
      const results = res.body.data as any[];
      expect(results.map((r) => r.status)).toEqual(['processed', 'error']);
      expect(results[1].error[0]).toBe(`workflow 'welcome-code' is also served by ${first.url} in this request`);
      const wf = (await svc.request('GET', '/v2/workflows/welcome-code')).body.data;
      expect(JSON.stringify(wf)).toContain(first.url);
      expect(JSON.stringify(wf)).not.toContain(second.url);
    } finally {
      await first.close();
      await second.close();
    }
  });

  it("workflow.trigger() in the app reaches svc dev with NOVU_API_URL and NOVU_SECRET_KEY, and runs through the app's bridge", async () => {
    await svc.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = svc.app.server.address() as { port: number };
    const saved = { url: process.env.NOVU_API_URL, key: process.env.NOVU_SECRET_KEY, origin: process.env.NOVU_BRIDGE_ORIGIN };
    process.env.NOVU_API_URL = `http://127.0.0.1:${port}`;
    process.env.NOVU_SECRET_KEY = TEST_KEY;
    // The framework sends `${NOVU_BRIDGE_ORIGIN}/api/novu` as the trigger's bridgeUrl.
    process.env.NOVU_BRIDGE_ORIGIN = new URL(app.url).origin;
    try {
      const res = await welcome.trigger({ to: 'ada', payload: { name: 'From the app' } });
      expect(res.data).toMatchObject({ data: { acknowledged: true, status: 'processed' } });
    } finally {
      for (const [k, v] of [
        ['NOVU_API_URL', saved.url],
        ['NOVU_SECRET_KEY', saved.key],
        ['NOVU_BRIDGE_ORIGIN', saved.origin],
      ] as const) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
    }
    await svc.runner.idle();
    expect(app.received.some((r) => r.action === 'discover')).toBe(true);
    expect((await messages('in_app')).find((m) => m.templateIdentifier === 'welcome-code')!.content).toBe('Hi From the app');
  });

  it('outputs that do not fit the step type fail the step, naming the field, with the answer as raw', async () => {
    const schema = { schema: { type: 'object' } };
    const server = http.createServer(async (req, res) => {
      for await (const _ of req);
      const action = new URL(req.url!, 'http://x').searchParams.get('action');
      const answers: Record<string, unknown> = {
        'health-check': { status: 'ok', sdkVersion: '0.0.0', frameworkVersion: 'x', discovered: { workflows: 1, steps: 1 } },
        discover: {
          workflows: [
            { workflowId: 'odd-code', payload: schema, steps: [{ stepId: 'mail', type: 'email', controls: schema, outputs: schema, results: schema }] },
          ],
        },
        execute: { outputs: { subject: 42 }, providers: {}, options: { skip: false } },
      };
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(answers[action ?? '']));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/api/novu`;
      expect((await svc.request('POST', '/v1/bridge/sync', { body: { bridgeUrl: url } })).status).toBe(201);
      await trigger('odd-code', {});
      await svc.runner.idle();
      const [event] = await events('odd-code');
      const failed = event.jobs[0].executionDetails.find((d: any) => d.status === 'Failed');
      expect(failed.detail).toContain('its outputs do not fit a email step: subject:');
      expect(JSON.parse(failed.raw).body.outputs).toEqual({ subject: 42 });
      expect((await messages('email')).filter((m) => m.templateIdentifier === 'odd-code')).toHaveLength(0);
    } finally {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
  });
});
