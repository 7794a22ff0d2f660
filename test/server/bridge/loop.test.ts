// The app's loop with real @novu/framework workflows on loopback: a digest keyed by the order the app
// computes groups per order; a payload the app's schema refuses is checked at trigger time when the
// workflow asks for it (and that choice outlives a new sync), else reported once; a step the
// subscriber turned off never reaches the app; control values stored through the dashboard's API are
// sent with executions and previews; the preview of a step after a digest sees example events.
import { workflow } from '@novu/framework';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TEST_KEY, testService, type TestService } from '../../helpers/service.js';
import { startBridgeApp, type BridgeApp } from './app.js';

const orderSchema = {
  type: 'object',
  properties: { orderId: { type: 'string' }, item: { type: 'string', default: 'Widget' } },
  required: ['orderId'],
  additionalProperties: false,
} as const;

const batch = workflow(
  'orders-code',
  async ({ step, payload }) => {
    const { events } = await step.digest('batch', async () => {
      // The first event's key comes last: a later event of its group reaches the digest first.
      if (payload.item === 'Lamp') await new Promise((resolve) => setTimeout(resolve, 100));
      return { amount: 5, unit: 'seconds', digestKey: payload.orderId };
    });
    await step.inApp('summary', async () => ({
      body: `${events.length} update(s) for ${events.map((e) => (e.payload as { orderId: string; item: string }).item).join(', ')}`,
    }));
  },
  { payloadSchema: orderSchema },
);

const mailer = workflow(
  'mailer-code',
  async ({ step, payload }) => {
    await step.email('mail', async (controls) => ({ subject: controls.subject, body: `<p>${controls.greeting}, order ${payload.orderId}</p>` }), {
      controlSchema: {
        type: 'object',
        properties: { subject: { type: 'string', default: 'Your order' }, greeting: { type: 'string', default: 'Hello' } },
        additionalProperties: false,
      } as const,
    });
    await step.inApp('note', async () => ({ body: `Order ${payload.orderId}` }));
    await step.sms('text', async () => ({ body: `Order ${payload.orderId}` }));
  },
  { payloadSchema: orderSchema },
);

let svc: TestService;
let app: BridgeApp;

beforeEach(async () => {
  vi.spyOn(console, 'log').mockImplementation(() => {});
  vi.spyOn(console, 'error').mockImplementation(() => {});
  svc = testService();
  app = await startBridgeApp([batch, mailer], TEST_KEY);
  expect((await svc.request('POST', '/v1/bridge/sync?source=cli', { body: { bridgeUrl: app.url } })).status).toBe(201);
});
afterEach(async () => {
  await svc.runner.stop();
  svc.close();
  await app.close();
  vi.restoreAllMocks();
});

const trigger = (name: string, payload: Record<string, unknown>, to = 'ada') => svc.request('POST', '/v1/events/trigger', { body: { name, to, payload } });
const eventOf = async (transactionId: string) => (await svc.request('GET', `/v1/notifications?transactionId=${transactionId}`)).body.data[0];
const inApp = async (wf: string) =>
  ((await svc.request('GET', '/v1/messages?limit=100&channel=in_app')).body.data as any[]).filter((m) => m.templateIdentifier === wf).map((m) => m.content);
const executes = (stepId?: string) => app.received.filter((r) => r.action === 'execute' && (stepId === undefined || r.stepId === stepId));
const details = (job: any) => (job.executionDetails as { detail: string; status: string; source: string }[]).map((d) => d.detail);

describe('a code-first digest keyed by what the app computes', () => {
  it('orders A-1 and B-2 within the window are two digests, two messages; a second A-1 joins the first, its events in trigger order whichever reached the digest first', async () => {
    const a1 = await trigger('orders-code', { orderId: 'A-1', item: 'Lamp' });
    const b2 = await trigger('orders-code', { orderId: 'B-2', item: 'Desk' });
    await trigger('orders-code', { orderId: 'A-1', item: 'Bulb' });
    await svc.runner.idle();
    const first = await eventOf(a1.body.data.transactionId);
    expect(details(first.jobs[0]).join('\n')).toContain('for digest key "A-1" (computed by the app\'s code)');
    const second = await eventOf(b2.body.data.transactionId);
    expect(second.jobs[0].status).toBe('delayed');
    svc.clock.advance(5_000);
    await svc.runner.idle();
    expect((await inApp('orders-code')).sort()).toEqual(['1 update(s) for Desk', '2 update(s) for Lamp, Bulb']);
  });
});

describe('a payload the app refuses', () => {
  it('with validatePayload on (kept across a new sync), the trigger is answered 400 naming the field, as the service does', async () => {
    const patched = await svc.request('PATCH', '/v2/workflows/mailer-code', { body: { validatePayload: true } });
    expect(patched.status).toBe(200);
    expect((await svc.request('POST', '/v1/bridge/sync?source=cli', { body: { bridgeUrl: app.url } })).status).toBe(201);
    expect((await svc.request('GET', '/v2/workflows/mailer-code')).body.data.validatePayload).toBe(true);
    const t = await trigger('mailer-code', { item: 'Lamp' });
    expect(t.status).toBe(400);
    expect(t.body.type).toBe('PAYLOAD_VALIDATION_ERROR');
    expect(JSON.stringify(t.body.errors)).toContain('orderId');
    expect(executes()).toHaveLength(0);
  });

  it('without it, the trigger is processed as the service processes it; the first step fails once naming the field, the others are not run', async () => {
    const t = await trigger('mailer-code', { item: 'Lamp' });
    expect(t.body.data.status).toBe('processed');
    await svc.runner.idle();
    // Asked once: a 400 is not tried again, and no later step is asked to fail the same way.
    expect(executes().map((c) => c.stepId)).toEqual(['mail']);
    const ev = await eventOf(t.body.data.transactionId);
    expect(ev.jobs.map((j: any) => j.status)).toEqual(['failed', 'canceled', 'canceled']);
    const failed = ev.jobs[0].executionDetails.filter((d: any) => d.status === 'Failed');
    expect(failed).toHaveLength(1);
    expect(failed[0].source).toBe('Payload');
    expect(failed[0].detail).toBe(
      "Payload refused by the app's payload schema for 'mailer-code': (payload): must have required property 'orderId' (ExecutionEventPayloadInvalidError; svc workflow get mailer-code shows the schema)",
    );
    for (const j of ev.jobs.slice(1)) expect(details(j).at(-1)).toBe("Step not run: the app refused this event's payload at step 'mail'");
  });
});

describe("a step the subscriber's preferences skip", () => {
  it('is not executed by the app; its last detail is the reason; the next steps run', async () => {
    const p = await svc.request('PATCH', '/v2/subscribers/ada/preferences', { body: { workflowId: 'mailer-code', channels: { email: false } } });
    expect(p.status).toBeLessThan(300);
    const t = await trigger('mailer-code', { orderId: 'A-1' });
    await svc.runner.idle();
    expect(executes().map((c) => c.stepId)).toEqual(['note', 'text']);
    const ev = await eventOf(t.body.data.transactionId);
    expect(ev.jobs.map((j: any) => j.status)).toEqual(['skipped', 'completed', 'completed']);
    expect(details(ev.jobs[0]).at(-1)).toBe('Step filtered by subscriber preferences: the subscriber turned the email channel off for this workflow');
  });
});

describe('control values of code-first steps', () => {
  const putControls = async (values: Record<string, unknown>) => {
    const wf = (await svc.request('GET', '/v2/workflows/mailer-code')).body.data;
    return svc.request('PUT', '/v2/workflows/mailer-code', {
      body: {
        name: wf.name,
        origin: 'external',
        steps: wf.steps.map((s: any) => ({ _id: s._id, stepId: s.stepId, name: s.name, type: s.type, ...(s.stepId === 'mail' && { controlValues: values }) })),
      },
    });
  };

  it('stored through PUT /v2/workflows, shown, sent with executions and previews, kept across a new sync', async () => {
    const put = await putControls({ subject: 'Shipped!' });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    expect(put.body.data.steps[0].controls.values).toEqual({ subject: 'Shipped!' });
    expect((await svc.request('POST', '/v1/bridge/sync?source=cli', { body: { bridgeUrl: app.url } })).status).toBe(201);
    expect((await svc.request('GET', '/v2/workflows/mailer-code')).body.data.steps[0].controls.values).toEqual({ subject: 'Shipped!' });

    await trigger('mailer-code', { orderId: 'A-1' });
    await svc.runner.idle();
    expect(executes('mail')[0]!.body.controls).toEqual({ subject: 'Shipped!' });
    expect(executes('note')[0]!.body.controls).toEqual({});
    const mail = ((await svc.request('GET', '/v1/messages?channel=email')).body.data as any[]).find((m) => m.templateIdentifier === 'mailer-code');
    expect(mail.subject).toBe('Shipped!');
    expect(mail.content).toContain('Hello, order A-1');

    const stored = await svc.request('POST', '/v2/workflows/mailer-code/step/mail/preview', { body: { previewPayload: { payload: { orderId: 'P-9' } } } });
    expect(stored.body.data.result.preview.subject).toBe('Shipped!');
    const given = await svc.request('POST', '/v2/workflows/mailer-code/step/mail/preview', { body: { controlValues: { greeting: 'Hi' } } });
    expect(app.received.filter((r) => r.action === 'preview').at(-1)!.body.controls).toEqual({ greeting: 'Hi' });
    expect(given.body.data.result.preview.body).toContain('Hi, order');
  });

  it('values the control schema refuses, and steps the app does not declare, are refused naming them', async () => {
    const bad = await putControls({ subject: 42 });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.errors)).toEqual(['steps.0.controlValues.subject']);
    const wf = (await svc.request('GET', '/v2/workflows/mailer-code')).body.data;
    const extra = await svc.request('PUT', '/v2/workflows/mailer-code', {
      body: { name: wf.name, steps: [{ stepId: 'invented', name: 'x', type: 'email', controlValues: {} }] },
    });
    expect(extra.status).toBe(422);
    expect(extra.body.errors['steps.0'].messages[0]).toContain("is not a email step of code-first workflow 'mailer-code'");
    expect((await svc.request('GET', '/v2/workflows/mailer-code')).body.data.steps.map((s: any) => s.stepId)).toEqual(['mail', 'note', 'text']);
  });
});

describe('the preview of a step after a digest', () => {
  it('sees example events built from the payload schema and the given payload, and the service example subscriber', async () => {
    const r = await svc.request('POST', '/v2/workflows/orders-code/step/summary/preview', {
      body: { previewPayload: { payload: { orderId: 'A-1' }, subscriber: { firstName: 'Ada' } } },
    });
    expect(r.status).toBe(201);
    expect(r.body.data.result.preview.body).toBe('3 update(s) for Widget, Widget, Widget');
    const example = r.body.data.previewPayloadExample;
    expect(example.payload).toEqual({ orderId: 'A-1', item: 'Widget' });
    expect(example.steps.batch.eventCount).toBe(3);
    expect(example.subscriber).toEqual({
      firstName: 'Ada',
      lastName: 'Doe',
      email: 'user@example.com',
      phone: '+1234567890',
      avatar: 'https://example.com/avatar.png',
      locale: 'en_US',
      timezone: 'America/New_York',
      data: {},
    });
  });
});

describe('a bridge URL that is not loopback', () => {
  it('is not called without svc dev --allow-remote-bridge: the step fails saying so, and nothing is sent', async () => {
    // As a store written by a svc dev started with the flag would hold it.
    const wf = svc.store.workflows.findByTrigger(svc.environment.id, 'mailer-code')!;
    const steps = wf.steps.map((st) => ({ stepId: st.stepId, name: st.name, type: st.type }));
    svc.store.tx(() =>
      svc.store.workflows.upsertExternal(
        svc.environment,
        { workflowId: wf.workflowId, name: wf.name, steps },
        { ...wf.bridge!, url: 'http://10.255.255.1/api/novu' },
      ),
    );
    const t = await trigger('mailer-code', { orderId: 'A-1' });
    await svc.runner.idle();
    expect(executes()).toHaveLength(0);
    const ev = await eventOf(t.body.data.transactionId);
    expect(ev.jobs[0].executionDetails.find((d: any) => d.status === 'Failed').detail).toBe(
      "Bridge: executing step 'mail' through http://10.255.255.1/api/novu failed: refusing to connect to 10.255.255.1: only loopback targets (127.0.0.0/8, ::1, localhost) are allowed; start svc dev with --allow-remote-bridge to allow others",
    );
  });
});
