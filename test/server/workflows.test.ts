// Create and retrieve workflows; the step preview.
import { afterAll, describe, expect, it } from 'vitest';
import { operations } from '../../src/api/operations.js';
import { testService } from '../helpers/service.js';

const svc = testService();
afterAll(() => svc.close());

const body = {
  name: 'Order shipped',
  workflowId: 'order-shipped',
  active: true,
  tags: ['orders'],
  steps: [
    { name: 'Inbox note', type: 'in_app', controlValues: { body: 'Order {{ payload.orderId }} shipped' } },
    { stepId: 'mail', name: 'Mail', type: 'email', controlValues: { subject: 'Shipped', body: '<p>{{ payload.orderId }}</p>' } },
  ],
};

describe('workflows', () => {
  it('creates with the steps as given, each with a database id', async () => {
    const r = await svc.request('POST', '/v2/workflows', { body });
    expect(r.status).toBe(201);
    const wf = operations.createWorkflow.response.parse(r.body.data);
    expect(wf).toMatchObject({ workflowId: 'order-shipped', status: 'ACTIVE', origin: 'svc-cloud', severity: 'none' });
    expect(wf._id).toMatch(/^[0-9a-f]{24}$/);
    expect(wf.steps.map((s) => [s.stepId, s.type, s.controlValues])).toEqual([
      ['inbox-note', 'in_app', body.steps[0]!.controlValues],
      ['mail', 'email', body.steps[1]!.controlValues],
    ]);
    expect(wf.steps.every((s) => /^[0-9a-f]{24}$/.test(s._id) && s.workflowDatabaseId === wf._id)).toBe(true);
    // A workflowId already taken gets a suffix, as the service does, rather than a 409.
    const again = await svc.request('POST', '/v2/workflows', { body });
    expect(again.status).toBe(201);
    expect(again.body.data.workflowId).toMatch(/^order-shipped-[a-z0-9]{6}$/);
    await svc.request('DELETE', `/v2/workflows/${again.body.data.workflowId}`);
  });

  it('defaults to inactive (api-spec: active defaults to false); duplicate step ids → 400', async () => {
    const r = await svc.request('POST', '/v2/workflows', { body: { name: 'Quiet', workflowId: 'quiet', steps: [] } });
    expect(r.body.data).toMatchObject({ active: false, status: 'INACTIVE' });
    const dup = await svc.request('POST', '/v2/workflows', {
      body: {
        name: 'D',
        workflowId: 'd',
        steps: [
          { stepId: 'a', name: 'A', type: 'sms' },
          { stepId: 'a', name: 'B', type: 'sms' },
        ],
      },
    });
    expect(dup.status).toBe(400);
    expect((await svc.request('POST', '/v2/workflows', { body: { name: 'Bad id', workflowId: 'has space', steps: [] } })).status).toBe(422);
  });

  it('retrieves by trigger identifier, slug or database id; unknown → 404', async () => {
    const byId = (await svc.request('GET', '/v2/workflows/order-shipped')).body.data;
    for (const key of [byId.slug, byId._id]) {
      const r = await svc.request('GET', `/v2/workflows/${key}`);
      expect(operations.getWorkflow.response.parse(r.body.data)._id).toBe(byId._id);
    }
    const nope = await svc.request('GET', '/v2/workflows/nope');
    expect(nope).toMatchObject({ status: 404, body: { message: 'Workflow cannot be found', workflowId: 'nope', ctx: { workflowId: 'nope' } } });
    expect((await svc.request('GET', `/v2/workflows/order-shipped?environmentId=ffffffffffffffffffffffff`)).status).toBe(404);
  });

  it("answers the engine's full workflow shape: controls metadata, variables, payload example, preferences", async () => {
    const wf = operations.getWorkflow.response.parse((await svc.request('GET', '/v2/workflows/order-shipped')).body.data);
    const [inbox] = wf.steps;
    expect(inbox!.controls.uiSchema?.group).toBe('IN_APP');
    expect(inbox!.controls.dataSchema).toMatchObject({ type: 'object' });
    expect(Object.keys((inbox!.variables as { properties: object }).properties)).toEqual(
      expect.arrayContaining(['subscriber', 'payload', 'steps', 'actor', 'tenant', 'context']),
    );
    expect(wf.payloadExample).toEqual({ orderId: '{{payload.orderId}}' });
    expect(wf.preferences.default.channels.email).toEqual({ enabled: true });
    expect(inbox!.slug).toMatch(/^inbox-note_st_[0-9a-zA-Z]+$/);
    expect(wf.slug).toMatch(/^order-shipped_wf_[0-9a-zA-Z]+$/);
  });

  it('the demo workflows have no issues: ACTIVE', async () => {
    for (const id of ['welcome', 'comment-digest', 'otp', 'incident']) {
      const wf = (await svc.request('GET', `/v2/workflows/${id}`)).body.data;
      expect([id, wf.status, wf.steps.filter((s: any) => s.issues).map((s: any) => s.issues)]).toEqual([id, 'ACTIVE', []]);
    }
  });

  it('records lastTriggeredAt', async () => {
    await svc.request('POST', '/v1/events/trigger', { body: { name: 'order-shipped', to: 'ada', payload: { orderId: 1 } } });
    const wf = (await svc.request('GET', '/v2/workflows/order-shipped')).body.data;
    expect(wf.lastTriggeredAt).toBe(new Date(svc.clock.now()).toISOString());
  });

  it('previews a step rendered by the engine, as a valid PreviewResponse; unknown step or workflow → 201 and an empty preview', async () => {
    const r = await svc.request('POST', '/v2/workflows/order-shipped/step/mail/preview', {
      body: { controlValues: { subject: 'S {{ payload.x }}', body: '<p>B {{ subscriber.firstName }}</p>' }, previewPayload: { payload: { x: 1 } } },
    });
    expect(r.status).toBe(201);
    const p = operations.previewStep.response.parse(r.body.data);
    expect(p.result.type).toBe('email');
    expect(p.result.preview).toMatchObject({ subject: 'S 1', body: expect.stringContaining('<p>B John</p>') });
    // Wrapped in the default layout: the service's email previews are whole documents.
    expect(p.result.preview!.body).toMatch(/^<!DOCTYPE html>/);
    expect(p.previewPayloadExample.payload).toEqual({ x: 1 });
    const digest = await svc.request('POST', '/v2/workflows/comment-digest/step/digest/preview', { body: {} });
    expect(digest.body.data.result).toEqual({ type: 'digest', preview: { type: 'regular', amount: 10, unit: 'minutes', digestKey: 'payload.postId' } });
    const empty = { result: { preview: {} }, previewPayloadExample: {}, schema: null };
    const missing = await svc.request('POST', '/v2/workflows/order-shipped/step/nope/preview', { body: {} });
    expect(missing).toMatchObject({ status: 201, body: { data: empty } });
    const noWorkflow = await svc.request('POST', '/v2/workflows/nope/step/mail/preview', { body: {} });
    expect(noWorkflow).toMatchObject({ status: 201, body: { data: empty } });
  });

  it("a preview payload's context is held to the trigger's rules: a bad context type → 422 naming it", async () => {
    const r = await svc.request('POST', '/v2/workflows/order-shipped/step/mail/preview', { body: { previewPayload: { context: { 'a b': 'x' } } } });
    expect(r.status).toBe(422);
    expect(r.body.errors['previewPayload.context.a b'].messages).toEqual(['previewPayload.context type must contain only letters, digits, "_" and "-"']);
  });
});

describe("validation in the service's words", () => {
  const body = (extra: Record<string, unknown>) => ({ name: 'W', workflowId: 'words', steps: [], ...extra });
  it.each([
    ['an empty name', { name: '' }, 'name', 'name must be longer than or equal to 1 characters'],
    ['an empty tag', { tags: ['a', ''] }, 'tags', 'each value in tags must be longer than or equal to 1 and shorter than or equal to 32 characters'],
    ['a tag too long', { tags: ['x'.repeat(33)] }, 'tags', 'each value in tags must be longer than or equal to 1 and shorter than or equal to 32 characters'],
    ['a repeated tag', { tags: ['a', 'a'] }, 'tags', "All tags's elements must be unique"],
  ])('%s', async (_, extra, field, message) => {
    const r = await svc.request('POST', '/v2/workflows', { body: body(extra) });
    expect(r.status).toBe(422);
    expect(r.body.errors[field].messages).toEqual([message]);
  });
});

describe('preview as delivery', () => {
  it("an unset payload value read with a `default` filter shows the default, as delivery prints it; a given subscriber field is kept, the rest are the service's example", async () => {
    const r = await svc.request('POST', '/v2/workflows/welcome/step/email/preview', { body: { previewPayload: { subscriber: { firstName: 'Jane' } } } });
    expect(r.status).toBe(201);
    const p = operations.previewStep.response.parse(r.body.data);
    expect(p.result.preview!.body).toContain('Thanks for joining Acme.');
    expect(p.result.preview!.body).not.toContain('{{payload.appName}}');
    expect(p.previewPayloadExample.payload).toEqual({});
    expect(p.previewPayloadExample.subscriber).toEqual({
      firstName: 'Jane',
      lastName: 'Doe',
      email: 'user@example.com',
      phone: '+1234567890',
      avatar: 'https://example.com/avatar.png',
      locale: 'en_US',
      timezone: 'America/New_York',
      data: {},
    });
    // A value given is used; a variable read without a default still gets its placeholder.
    const given = await svc.request('POST', '/v2/workflows/welcome/step/email/preview', { body: { previewPayload: { payload: { appName: 'Zed' } } } });
    expect(given.body.data.result.preview.body).toContain('Thanks for joining Zed.');
    const mixed = await svc.request('POST', '/v2/workflows/welcome/step/email/preview', {
      body: { controlValues: { subject: 's', body: '<p>{{ payload.a | default: "x" }} {{ payload.a }}</p>', editorType: 'html' } },
    });
    expect(mixed.body.data.previewPayloadExample.payload).toEqual({ a: '{{payload.a}}' });
  });
});

describe('update, patch, delete', () => {
  const create = async (workflowId: string) =>
    (
      await svc.request('POST', '/v2/workflows', {
        body: { workflowId, name: workflowId, active: true, steps: [{ name: 'Inbox', type: 'in_app', controlValues: { body: 'v1 {{ payload.n }}' } }] },
      })
    ).body.data;
  const inboxBodies = async (subscriberId: string) => {
    await svc.runner.idle();
    const r = await svc.request('GET', `/v1/messages?subscriberId=${subscriberId}&channel=in_app`);
    return r.body.data.map((m: { content: string }) => m.content);
  };

  it('PUT keeps a step (and its database id) named by stepId, and the next trigger renders the new controls', async () => {
    const before = await create('versioned');
    await svc.request('POST', '/v1/events/trigger', { body: { name: 'versioned', to: 'vera', payload: { n: 1 } } });
    expect(await inboxBodies('vera')).toEqual(['v1 1']);
    const put = await svc.request('PUT', '/v2/workflows/versioned', {
      body: { name: 'Versioned', steps: [{ stepId: 'inbox', name: 'Inbox', type: 'in_app', controlValues: { body: 'v2 {{ payload.n }}' } }] },
    });
    expect(put.status).toBe(200);
    const after = operations.updateWorkflow.response.parse(put.body.data);
    expect(after).toMatchObject({ workflowId: 'versioned', name: 'Versioned', _id: before._id });
    expect(after.steps[0]!._id).toBe(before.steps[0]._id);
    // A patch in the same millisecond still changes what the engine runs.
    await svc.request('PATCH', '/v2/workflows/versioned', { body: { description: 'now v2' } });
    await svc.request('POST', '/v1/events/trigger', { body: { name: 'versioned', to: 'vera', payload: { n: 2 } } });
    expect(await inboxBodies('vera')).toEqual(['v2 2', 'v1 1']);
  });

  it('PATCH active deactivates (a trigger then answers trigger_not_active) and activates', async () => {
    await create('switch');
    const off = await svc.request('PATCH', '/v2/workflows/switch', { body: { active: false } });
    expect(off.body.data).toMatchObject({ active: false, status: 'INACTIVE' });
    const t = await svc.request('POST', '/v1/events/trigger', { body: { name: 'switch', to: 'vera' } });
    expect(t.body.data.status).toBe('trigger_not_active');
    const on = await svc.request('PATCH', '/v2/workflows/switch', { body: { active: true } });
    expect(on.body.data).toMatchObject({ active: true, status: 'ACTIVE' });
  });

  it('DELETE answers 204, then the workflow is gone (404 with ctx.workflowId); limits apply to PATCH too', async () => {
    await create('doomed');
    expect((await svc.request('PATCH', '/v2/workflows/doomed', { body: { name: 'x'.repeat(65) } })).status).toBe(422);
    expect((await svc.request('DELETE', '/v2/workflows/doomed')).status).toBe(204);
    const again = await svc.request('DELETE', '/v2/workflows/doomed');
    expect(again).toMatchObject({ status: 404, body: { ctx: { workflowId: 'doomed' } } });
    const list = await svc.request('GET', '/v2/workflows?query=doomed');
    expect(list.body).toEqual({ data: { workflows: [], totalCount: 0 } });
  });

  it('the list is wrapped in {data}: its envelope holds no data of its own', async () => {
    await create('listed');
    const r = await svc.request('GET', '/v2/workflows?query=listed');
    expect(r.status).toBe(200);
    expect(Object.keys(r.body)).toEqual(['data']);
    const list = operations.listWorkflows.response.parse(r.body.data);
    expect(list.totalCount).toBe(1);
    expect(list.workflows.map((w) => w.workflowId)).toEqual(['listed']);
  });
});
