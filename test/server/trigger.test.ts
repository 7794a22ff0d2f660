// The trigger: statuses, recipients, upserts, contexts, deduplication, jobs and execution details.
import { beforeEach, describe, expect, it } from 'vitest';
import { operations } from '../../src/api/operations.js';
import { testService, type TestService } from '../helpers/service.js';
import { novuClient } from '../helpers/sdk.js';

let svc: TestService;
beforeEach(() => {
  svc = testService();
  return () => svc.close();
});

const trigger = (body: unknown) => svc.request('POST', '/v1/events/trigger', { body });
const events = async (q = '') => (await svc.request('GET', `/v1/notifications${q}`)).body;
const subscriber = async (id: string) => (await svc.request('GET', `/v2/subscribers?subscriberId=${encodeURIComponent(id)}`)).body.data[0];

describe('trigger', () => {
  it('answers 201 processed with a generated transactionId before the jobs run', async () => {
    const r = await trigger({ name: 'welcome', to: 'ada' });
    expect(r.status).toBe(201);
    const result = operations.triggerEvent.response.parse(r.body.data);
    expect(result).toMatchObject({ acknowledged: true, status: 'processed' });
    expect(result.transactionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(result.activityFeedLink).toContain(`transactionId=${result.transactionId}`);
    // Not yet run: only the first job is queued.
    const before = (await events()).data[0];
    expect(before.jobs.map((j: any) => j.status)).toEqual(['queued', 'pending']);
    await svc.runner.idle();
    const after = (await events()).data[0];
    expect(after.jobs.map((j: any) => j.status)).toEqual(['completed', 'completed']);
    expect(after.jobs[0].executionDetails.map((d: any) => [d.detail, d.status])).toEqual([
      ['Step queued', 'Pending'],
      ['Start sending message', 'Pending'],
      ['Message created', 'Pending'],
      ['Message sent', 'Success'],
    ]);
    expect(after.jobs[1].providerId).toBe('sendgrid');
  });

  it('unknown workflow → 422 workflow_not_found', async () => {
    const r = await trigger({ name: 'nope', to: 'ada' });
    expect(r.status).toBe(422);
    expect(r.body.message).toBe('workflow_not_found');
  });

  it('a repeated transactionId answers the same 201 and creates nothing', async () => {
    const first = await trigger({ name: 'otp', to: 'ada', transactionId: 'tx-1', payload: { code: '1' } });
    const again = await trigger({ name: 'otp', to: ['ada', 'grace'], transactionId: 'tx-1', payload: { code: '2' } });
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect((await events('?transactionId=tx-1')).data).toHaveLength(1);
  });

  it('topics fan out, less exclude and the actor; duplicates collapse', async () => {
    const r = await trigger({
      name: 'otp',
      to: [{ type: 'Topic', topicKey: 'engineering', exclude: ['alan'] }, 'ada', { subscriberId: 'ada', firstName: 'Ada' }],
      actor: 'grace',
      transactionId: 'fan',
    });
    expect(r.body.data.status).toBe('processed');
    const list = (await events('?transactionId=fan')).data;
    expect(list.map((n: any) => n.subscriber.subscriberId)).toEqual(['ada']);
    expect(list[0].topics).toEqual([{ _topicId: expect.any(String), topicKey: 'engineering' }]);
    expect((await events('?topicKey=engineering')).data).toHaveLength(1);
  });

  it('an unknown topic alone → invalid_recipients', async () => {
    const r = await trigger({ name: 'otp', to: { type: 'Topic', topicKey: 'ghosts' } });
    expect(r.body.data).toMatchObject({ status: 'invalid_recipients', error: ["Topic with key 'ghosts' not found"] });
  });

  it('upserts subscribers with only the fields sent; data is replaced whole; channels merge credentials', async () => {
    await trigger({ name: 'otp', to: { subscriberId: 'ada', lastName: 'Byron', data: { only: 1 } } });
    const ada = await subscriber('ada');
    expect(ada).toMatchObject({ firstName: 'Ada', lastName: 'Byron', email: 'ada@example.com', data: { only: 1 } });
    await trigger({ name: 'otp', to: { subscriberId: 'ada', channels: [{ providerId: 'fcm', credentials: { deviceTokens: ['t2'] } }] } });
    const fcm = (await subscriber('ada')).channels.find((c: any) => c.providerId === 'fcm');
    expect(fcm.credentials.deviceTokens).toEqual(['demo-device-token-ada', 't2']);
    await trigger({ name: 'otp', to: { subscriberId: 'newbie', email: 'n@example.com' } });
    expect(await subscriber('newbie')).toMatchObject({ subscriberId: 'newbie', email: 'n@example.com', firstName: null });
  });

  it('a new actor object creates a subscriber', async () => {
    await trigger({ name: 'otp', to: 'ada', actor: { subscriberId: 'boss', firstName: 'Big' } });
    expect(await subscriber('boss')).toMatchObject({ firstName: 'Big' });
  });

  it('tenant must exist; an existing one is updated with the details given', async () => {
    const missing = await trigger({ name: 'otp', to: 'ada', tenant: 'nobody' });
    expect(missing.status).toBe(201);
    expect(missing.body.data.status).toBe('no_tenant_found');
    const ok = await trigger({ name: 'otp', to: 'ada', tenant: { identifier: 'acme', name: 'Acme 2' } });
    expect(ok.body.data.status).toBe('processed');
    expect(svc.store.tenants.find(svc.environment.id, 'acme')?.name).toBe('Acme 2');
  });

  it('an inactive workflow → trigger_not_active; no steps → no_workflow_steps_defined', async () => {
    await svc.request('POST', '/v2/workflows', { body: { name: 'Off', workflowId: 'off', steps: [{ name: 'S', type: 'sms' }] } });
    expect((await trigger({ name: 'off', to: 'ada' })).body.data.status).toBe('trigger_not_active');
    await svc.request('POST', '/v2/workflows', { body: { name: 'Empty', workflowId: 'empty', active: true, steps: [] } });
    expect((await trigger({ name: 'empty', to: 'ada' })).body.data.status).toBe('no_workflow_steps_defined');
  });

  it('contexts are found or created and their keys stored on the notification, jobs and messages', async () => {
    const r = await trigger({ name: 'welcome', to: 'ada', context: { tenant: 'acme', app: { id: 'web', data: { v: 2 } } } });
    expect(r.body.data.status).toBe('processed');
    await svc.runner.idle();
    expect(svc.store.contexts.find(svc.environment.id, 'app', 'web')?.data).toEqual({ v: 2 });
    const n = (await events('?contextKeys=app:web&contextKeys=tenant:acme')).data;
    expect(n).toHaveLength(1);
    expect(n[0].contextKeys).toEqual(['tenant:acme', 'app:web']);
    expect(n[0].jobs[0].contextKeys).toEqual(['tenant:acme', 'app:web']);
    const msgs = (await svc.request('GET', '/v1/messages?contextKeys=tenant:acme&contextKeys=app:web')).body.data;
    expect(msgs).toHaveLength(2);
    // Exact set: a subset matches nothing.
    expect((await events('?contextKeys=tenant:acme')).data).toHaveLength(0);
  });

  it('a context type (a key of the context map) is held to the rules of a context type → 422 naming it, nothing stored', async () => {
    const long = 'T'.repeat(101);
    for (const [type, message] of [
      ['a b!', 'context type must contain only letters, digits, "_" and "-"'],
      [long, 'context type must be shorter than or equal to 100 characters'],
      ['', 'context type must be longer than or equal to 1 characters'],
    ] as const) {
      const r = await trigger({ name: 'welcome', to: 'ada', context: { [type]: '1' }, transactionId: 'tx-bad-type' });
      expect(r.status).toBe(422);
      expect(r.body.errors).toEqual({ [`context.${type}`]: { messages: [message], value: type } });
    }
    // In a bulk trigger the event fails on its own.
    const bulk = await svc.request('POST', '/v1/events/trigger/bulk', { body: { events: [{ name: 'welcome', to: 'ada', context: { 'a b!': '1' } }] } });
    expect(bulk.body.data[0].status).toBe('error');
    expect((await events('?transactionId=tx-bad-type')).data).toHaveLength(0);
    expect((await events()).data).toHaveLength(0);
    expect(svc.store.contexts.find(svc.environment.id, 'a b!', '1')).toBeUndefined();
  });

  it('more than 5 contexts → 422', async () => {
    const context = Object.fromEntries(['a', 'b', 'c', 'd', 'e', 'f'].map((t) => [t, 'x']));
    expect((await trigger({ name: 'otp', to: 'ada', context })).status).toBe(422);
  });

  it('a channel without an integration fails its job with a clear detail, and the next step still runs', async () => {
    await svc.request('POST', '/v2/workflows', {
      body: {
        name: 'Two',
        workflowId: 'two',
        active: true,
        steps: [
          { name: 'Chat', type: 'chat', controlValues: { body: 'hi' } },
          { name: 'Inbox', type: 'in_app', controlValues: { body: 'hi' } },
        ],
      },
    });
    // alan has no chat destination.
    await trigger({ name: 'two', to: 'alan' });
    await svc.runner.idle();
    const [n] = (await events()).data;
    expect(n.jobs.map((j: any) => j.status)).toEqual(['failed', 'completed']);
    expect(n.jobs[0].executionDetails.at(-1)).toMatchObject({ status: 'Failed', detail: 'Subscriber does not have a configured channel' });
  });

  it('MISSING_INTEGRATION when the environment has no email integration', async () => {
    const empty = testService({ empty: true });
    try {
      await empty.request('POST', '/v2/workflows', {
        body: { name: 'Mail', workflowId: 'mail', active: true, steps: [{ name: 'E', type: 'email', controlValues: { subject: 's', body: 'b' } }] },
      });
      await empty.request('POST', '/v1/events/trigger', { body: { name: 'mail', to: { subscriberId: 'x', email: 'x@example.com' } } });
      await empty.runner.idle();
      const [n] = (await empty.request('GET', '/v1/notifications')).body.data;
      expect(n.jobs[0].status).toBe('failed');
      expect(n.jobs[0].executionDetails.at(-1)).toMatchObject({
        status: 'Failed',
        detail: 'MISSING_INTEGRATION: Missing active Email integration provider: add or activate one in this environment',
      });
    } finally {
      await empty.close();
    }
  });

  it('flow-control steps run: a digest holds its event, the step after it waits', async () => {
    await trigger({ name: 'comment-digest', to: 'ada', payload: { postId: 'p1', postTitle: 'P' } });
    await svc.runner.idle();
    const [n] = (await events()).data;
    expect(n.jobs.map((j: any) => j.status)).toEqual(['delayed', 'pending']);
    expect(n.jobs[0].executionDetails.at(-1).detail).toMatch(/^Step digested: collecting events for digest key payload.postId = "p1" until /);
  });

  it('validatePayload with a payload schema → 400 PAYLOAD_VALIDATION_ERROR', async () => {
    await svc.request('POST', '/v2/workflows', {
      body: {
        name: 'Strict',
        workflowId: 'strict',
        active: true,
        validatePayload: true,
        payloadSchema: { type: 'object', required: ['code'], properties: { code: { type: 'string' } } },
        steps: [{ name: 'S', type: 'sms', controlValues: { body: '{{ payload.code }}' } }],
      },
    });
    const bad = await trigger({ name: 'strict', to: 'ada', payload: {} });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ statusCode: 400, error: 'Bad Request', type: 'PAYLOAD_VALIDATION_ERROR', path: '/v1/events/trigger' });
    expect(bad.body.errors).toEqual([{ field: 'code', message: "must have required property 'code'", schemaPath: '#/required' }]);
    const wrongType = await trigger({ name: 'strict', to: 'ada', payload: { code: 7 } });
    expect(wrongType.body.errors).toEqual([{ field: 'code', message: 'must be string', value: 7, schemaPath: '#/properties/code/type' }]);
    expect((await trigger({ name: 'strict', to: 'ada', payload: { code: '1' } })).body.data.status).toBe('processed');
  });

  it('bulk: one result per event, a failing event gets status error', async () => {
    const r = await svc.request('POST', '/v1/events/trigger/bulk', {
      body: {
        events: [
          { name: 'otp', to: 'ada' },
          { name: 'missing', to: 'ada', transactionId: 'b2' },
          { name: 'welcome', to: 'grace' },
        ],
      },
    });
    expect(r.status).toBe(201);
    const results = operations.triggerBulk.response.parse(r.body.data);
    expect(results.map((x) => x.status)).toEqual(['processed', 'error', 'processed']);
    expect(results[1]).toMatchObject({ error: ['workflow_not_found'], transactionId: 'b2' });
  });

  it('bulk: an event that fails validation answers status error with the reason; the others are processed', async () => {
    const r = await svc.request('POST', '/v1/events/trigger/bulk', {
      body: {
        events: [
          { name: 'otp', to: 'ada' },
          { name: 'welcome', transactionId: 'no-to' },
          { name: 'welcome', to: [] },
          { name: 'welcome', to: 'grace' },
        ],
      },
    });
    expect(r.status).toBe(201);
    const results = operations.triggerBulk.response.parse(r.body.data);
    expect(results.map((x) => x.status)).toEqual(['processed', 'error', 'error', 'processed']);
    expect(results[1]).toEqual({ acknowledged: true, status: 'error', error: [expect.stringMatching(/^to /)], transactionId: 'no-to' });
    expect(results[2]!.error).toEqual(['to needs at least one recipient']);
    expect((await events()).data).toHaveLength(2);
  });

  it("bulk: more than 100 events (or none) is 422 in the service's wording, and nothing is triggered", async () => {
    const many = Array.from({ length: 101 }, (_, i) => ({ name: 'otp', to: `u${i}` }));
    const r = await svc.request('POST', '/v1/events/trigger/bulk', { body: { events: many } });
    expect(r.status).toBe(422);
    expect(r.body).toMatchObject({ statusCode: 422, message: 'Validation Error' });
    expect(r.body.errors.events.messages).toEqual(['events must contain no more than 100 elements']);
    const none = await svc.request('POST', '/v1/events/trigger/bulk', { body: { events: [] } });
    expect(none.status).toBe(422);
    expect(none.body.errors.events.messages).toEqual(['events should not be empty']);
    expect((await events()).data).toHaveLength(0);
    const exactly100 = await svc.request('POST', '/v1/events/trigger/bulk', { body: { events: many.slice(0, 100) } });
    expect(exactly100.status).toBe(201);
    expect(exactly100.body.data).toHaveLength(100);
  });

  it("attachments: their file content is not stored; the event keeps name and mime, its messages' payloads none (as the service)", async () => {
    const file = Buffer.from('%PDF-1.4 a small invoice').toString('base64');
    const r = await trigger({
      name: 'welcome',
      to: 'ada',
      transactionId: 'att',
      payload: { company: 'Acme', attachments: [{ name: 'invoice.pdf', mime: 'application/pdf', file }] },
    });
    expect(r.status).toBe(201);
    await svc.runner.idle();
    const n = (await events('?transactionId=att')).data[0];
    expect(n.payload).toEqual({ company: 'Acme', attachments: [{ name: 'invoice.pdf', mime: 'application/pdf' }] });
    const messages = (await svc.request('GET', '/v1/messages?transactionId=att')).body.data;
    expect(messages.length).toBeGreaterThan(0);
    for (const m of messages) expect(m.payload).toEqual({ company: 'Acme' });
    const raw = svc.store.db.prepare('SELECT group_concat(doc) AS d FROM (SELECT doc FROM notifications UNION ALL SELECT doc FROM messages)').get() as {
      d: string;
    };
    expect(raw.d).not.toContain(file);
  });
});

describe('bulk trigger and attachments through the official SDK (@novu/api)', () => {
  it('one bad event does not fail the call; over 100 events is a 422 the SDK reports; attachments are stripped', async () => {
    await svc.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = svc.app.server.address() as { port: number };
    const novu = novuClient(`http://127.0.0.1:${port}`, 'sk_test_0123456789abcdef');
    const bulk = await novu.triggerBulk({
      events: [
        { workflowId: 'otp', to: 'ada', payload: { code: '1' } },
        { workflowId: 'no-such-workflow', to: 'ada', transactionId: 'sdk-bad' },
        { workflowId: 'welcome', to: 'grace', payload: { attachments: [{ name: 'a.txt', mime: 'text/plain', file: 'aGVsbG8=' }] }, transactionId: 'sdk-att' },
      ],
    });
    expect(bulk.result.map((x) => x.status)).toEqual(['processed', 'error', 'processed']);
    expect(bulk.result[1]).toMatchObject({ error: ['workflow_not_found'], transactionId: 'sdk-bad' });
    const list = await novu.notifications.list({ transactionId: 'sdk-att', limit: 10, page: 0 });
    expect(list.result.data[0]!.payload).toEqual({ attachments: [{ name: 'a.txt', mime: 'text/plain' }] });
    const tooMany = Array.from({ length: 101 }, (_, i) => ({ workflowId: 'otp', to: `sdk-${i}` }));
    const err = await novu.triggerBulk({ events: tooMany }).then(
      () => undefined,
      (e: unknown) => e as { statusCode?: number; message?: string; body?: string },
    );
    expect(err?.statusCode).toBe(422);
    expect(String(err?.body ?? err?.message)).toContain('events must contain no more than 100 elements');
  });
});
