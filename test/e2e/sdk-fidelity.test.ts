// Fidelity with the hosted service, each point checked through the service's official
// TypeScript SDK (@novu/api) pointed at the built `svc dev`: the SDK validates every answer with its
// own schemas, so a field of the wrong shape fails here. Each `describe` is one point of the issue.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Novu } from '@novu/api';
import { api, startDev, type DevProcess } from '../helpers/dev.js';
import { novuClient, sdkFailure } from '../helpers/sdk.js';

let dev: DevProcess;
let novu: Novu;
/** Set by a test to change a request's JSON body after the SDK built it (to send what the SDK would refuse). */
let rewriteBody: ((body: Record<string, unknown>) => Record<string, unknown>) | undefined;

// Besides the demo data: a second integration of sms, push and chat for the integrationIdentifier
// overrides, and an email integration with conditions for set-primary.
const SEED = `integrations:
  - { identifier: plivo-alt, providerId: plivo, channel: sms }
  - { identifier: expo-alt, providerId: expo, channel: push }
  - { identifier: discord-alt, providerId: discord, channel: chat }
  - identifier: mailjet-cond
    providerId: mailjet
    channel: email
    conditions:
      - children: [{ on: subscriber, field: data.plan, operator: EQUAL, value: pro }]
`;

beforeAll(async () => {
  const seed = join(mkdtempSync(join(tmpdir(), 'svc-sdk-fidelity-')), 'seed.yaml');
  writeFileSync(seed, SEED);
  dev = await startDev({ args: ['--quiet', '--seed', seed] });
  novu = novuClient(dev.baseUrl, dev.apiKey, { rewriteBody: () => rewriteBody });
});
afterAll(async () => {
  await dev?.stop();
});

const failure = sdkFailure;

/** The event of a transaction, once every job has ended. */
async function settled(transactionId: string) {
  // A deadline (20 s), not a count of turns: a loaded machine runs the jobs late.
  for (const deadline = Date.now() + 20_000; Date.now() < deadline; ) {
    const list = await novu.notifications.list({ transactionId, limit: 10, page: 0 });
    const n = list.result.data[0];
    if (n?.jobs?.length && n.jobs.every((j) => ['completed', 'failed', 'skipped', 'canceled'].includes(j.status))) {
      return (await novu.notifications.retrieve(n.id!)).result;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`transaction ${transactionId} did not settle`);
}

const emailStep = (controlValues: Record<string, unknown>) => ({ name: 'Mail', type: 'email' as const, controlValues });

describe('trigger: overrides', () => {
  test('email.toRecipient replaces the address; email.integrationIdentifier routes through that integration', async () => {
    await novu.workflows.create({ workflowId: 'ov-mail', name: 'Overrides', active: true, steps: [emailStep({ subject: 'Hi', body: '<p>Hi</p>' })] });
    const t = await novu.trigger({
      workflowId: 'ov-mail',
      to: 'ada',
      overrides: { email: { toRecipient: 'elsewhere@example.com', integrationIdentifier: 'postmark' } },
    });
    const event = await settled(t.result.transactionId!);
    expect(event.jobs?.[0]).toMatchObject({ status: 'completed', providerId: 'postmark' });
    const messages = await novu.messages.retrieve({ transactionId: [t.result.transactionId!], channel: 'email' });
    expect(messages.result.data[0]).toMatchObject({ email: 'elsewhere@example.com', providerId: 'postmark' });
    // Without overrides: the subscriber's address and the primary integration.
    const plain = await novu.trigger({ workflowId: 'ov-mail', to: 'ada' });
    await settled(plain.result.transactionId!);
    const m2 = await novu.messages.retrieve({ transactionId: [plain.result.transactionId!], channel: 'email' });
    expect(m2.result.data[0]).toMatchObject({ email: 'ada@example.com', providerId: 'sendgrid' });
  });

  test('sms, push and chat integrationIdentifier route through that integration (job and message record its providerId)', async () => {
    await novu.workflows.create({
      workflowId: 'ov-channels',
      name: 'Overrides per channel',
      active: true,
      steps: [
        { name: 'Sms', type: 'sms', controlValues: { body: 'Code 1' } },
        { name: 'Push', type: 'push', controlValues: { subject: 'Hi', body: 'Push' } },
        { name: 'Chat', type: 'chat', controlValues: { body: 'Chat' } },
      ],
    });
    const to = {
      subscriberId: 'ov-channels-sub',
      phone: '+15550001111',
      channels: [
        { providerId: 'expo' as const, credentials: { deviceTokens: ['ExponentPushToken[ov]'] } },
        { providerId: 'discord' as const, credentials: { webhookUrl: 'https://discord.example/ov' } },
      ],
    };
    const routed = await novu.trigger({
      workflowId: 'ov-channels',
      to,
      overrides: { sms: { integrationIdentifier: 'plivo-alt' }, push: { integrationIdentifier: 'expo-alt' }, chat: { integrationIdentifier: 'discord-alt' } },
    });
    const event = await settled(routed.result.transactionId!);
    expect(event.jobs?.map((j) => [j.type, j.status, j.providerId])).toEqual([
      ['sms', 'completed', 'plivo'],
      ['push', 'completed', 'expo'],
      ['chat', 'completed', 'discord'],
    ]);
    const messages = await novu.messages.retrieve({ transactionId: [routed.result.transactionId!] });
    expect(Object.fromEntries(messages.result.data.map((m) => [m.channel, m.providerId]))).toEqual({ sms: 'plivo', push: 'expo', chat: 'discord' });
    // Without overrides the sms goes through the channel's primary (twilio), and push and chat through
    // the integrations the subscriber's credentials name (as the service sends), not the channel's first.
    const plain = await settled((await novu.trigger({ workflowId: 'ov-channels', to: 'ov-channels-sub' })).result.transactionId!);
    expect(plain.jobs?.map((j) => [j.status, j.providerId])).toEqual([
      ['completed', 'twilio'],
      ['completed', 'expo'],
      ['completed', 'discord'],
    ]);
  });

  test('layout overrides (steps.<id>.layoutId first, then channels.email.layoutId, then layoutIdentifier), severity, providers kept', async () => {
    await novu.workflows.create({
      workflowId: 'ov-layout',
      name: 'Layout overrides',
      active: true,
      severity: 'low',
      steps: [emailStep({ subject: 'Hi', body: '<p>Body</p>', editorType: 'html' })],
    });
    const send = async (overrides: Parameters<typeof novu.trigger>[0]['overrides']) => {
      const t = await novu.trigger({ workflowId: 'ov-layout', to: 'ada', overrides });
      const event = await settled(t.result.transactionId!);
      const m = (await novu.messages.retrieve({ transactionId: [t.result.transactionId!], channel: 'email' })).result.data[0]!;
      return { event, m, content: m.content as string };
    };
    // No override: an html body without a layoutId is sent as written.
    expect((await send(undefined)).content).toBe('<p>Body</p>');
    const wrapped = await send({ channels: { email: { layoutId: 'promo' } } });
    expect(wrapped.content).toMatch(/^<!DOCTYPE html>[\s\S]*<p>Body<\/p>/);
    expect((await send({ layoutIdentifier: 'legacy' })).content).toMatch(/^<!DOCTYPE html>/);
    expect((await send({ steps: { mail: { layoutId: null } }, channels: { email: { layoutId: 'promo' } } })).content).toBe('<p>Body</p>');
    // severity replaces the workflow's on the event; provider-specific values are kept as sent.
    const last = await send({ severity: 'high', providers: { sendgrid: { templateId: 'tpl-1' } } });
    expect(last.event.severity).toBe('high');
    expect(last.m.overrides).toEqual({ severity: 'high', providers: { sendgrid: { templateId: 'tpl-1' } } });
    expect(wrapped.event.severity).toBe('low');
    const listed = await novu.notifications.list({ severity: ['high'], limit: 50, page: 0 });
    expect(listed.result.data.map((n) => n.id)).toContain(last.event.id);
    expect(listed.result.data.map((n) => n.id)).not.toContain(wrapped.event.id);
  });

  test('an invalid severity override is refused with a 422 naming the field; the other members are not checked', async () => {
    rewriteBody = (body) => ({ ...body, overrides: { severity: 'urgent' } });
    const r = await failure(novu.trigger({ workflowId: 'ov-layout', to: 'ada' })).finally(() => {
      rewriteBody = undefined;
    });
    expect(r.status).toBe(422);
    expect(Object.keys(r.body.errors)).toEqual(['overrides.severity']);
    // As the service, which checks only that overrides is an object: odd members are kept as sent.
    rewriteBody = (body) => ({ ...body, overrides: { steps: 'not-an-object', custom: [1] } });
    const t = await novu.trigger({ workflowId: 'ov-layout', to: 'ada' }).finally(() => {
      rewriteBody = undefined;
    });
    expect(t.result.status).toBe('processed');
    expect((await settled(t.result.transactionId!)).jobs?.[0]?.overrides).toEqual({ steps: 'not-an-object', custom: [1] });
  });

  test('an integrationIdentifier naming no integration of the channel fails the step, saying so', async () => {
    const t = await novu.trigger({ workflowId: 'ov-mail', to: 'ada', overrides: { email: { integrationIdentifier: 'twilio' } } });
    const event = await settled(t.result.transactionId!);
    expect(event.jobs?.[0]?.status).toBe('failed');
    expect(event.jobs?.[0]?.executionDetails.at(-1)?.detail).toMatch(/overrides\.email\.integrationIdentifier is a sms integration, not email/);
  });
});

describe('trigger: email rendering', () => {
  test('html editor without layoutId: the body as written; subject entities decoded; body escapes < > & only', async () => {
    await novu.workflows.create({
      workflowId: 'html-mail',
      name: 'HTML mail',
      active: true,
      steps: [emailStep({ subject: 'Hello {{ payload.x }} &amp;', body: '<p>Hello {{ payload.x }}</p>', editorType: 'html' })],
    });
    const t = await novu.trigger({ workflowId: 'html-mail', to: 'ada', payload: { x: `< > & " '` } });
    await settled(t.result.transactionId!);
    const m = (await novu.messages.retrieve({ transactionId: [t.result.transactionId!], channel: 'email' })).result.data[0]!;
    expect(m.subject).toBe(`Hello < > & " ' &`);
    expect(m.content).toBe(`<p>Hello &lt; &gt; &amp; " '</p>`);
  });
});

describe('trigger: skip rules', () => {
  test("the rule editor's operators (containsAny, startsWith, ...) skip a step", async () => {
    await novu.workflows.create({
      workflowId: 'skip-ops',
      name: 'Skip ops',
      active: true,
      steps: [
        {
          name: 'Inbox',
          type: 'in_app',
          controlValues: {
            body: 'Hi',
            skip: { or: [{ containsAny: [{ var: 'payload.tags' }, ['vip', 'beta']] }, { startsWith: [{ var: 'payload.code' }, 'X-'] }] },
          },
        },
      ],
    });
    const statusOf = async (payload: Record<string, unknown>) =>
      (await settled((await novu.trigger({ workflowId: 'skip-ops', to: 'ada', payload })).result.transactionId!)).jobs?.[0]?.status;
    expect(await statusOf({ tags: ['beta'], code: 'A-1' })).toBe('skipped');
    expect(await statusOf({ tags: ['plain'], code: 'X-9' })).toBe('skipped');
    expect(await statusOf({ tags: ['plain'], code: 'A-1' })).toBe('completed');
  });

  test('the service\'s own operators and comparisons (between, notIn, "true" == true, string operators on strings only)', async () => {
    await novu.workflows.create({
      workflowId: 'skip-service-ops',
      name: 'Skip service ops',
      active: true,
      steps: [
        {
          name: 'Inbox',
          type: 'in_app',
          controlValues: {
            body: 'Hi',
            skip: {
              or: [
                { and: [{ '<=': [1, { var: 'payload.n' }, 10] }, { notIn: [{ var: 'payload.plan' }, ['pro']] }] },
                { '==': [{ var: 'payload.muted' }, 'true'] },
                { contains: [{ var: 'payload.tags' }, 'vip'] },
              ],
            },
          },
        },
      ],
    });
    const statusOf = async (payload: Record<string, unknown>) =>
      (await settled((await novu.trigger({ workflowId: 'skip-service-ops', to: 'ada', payload })).result.transactionId!)).jobs?.[0]?.status;
    expect(await statusOf({ n: 5, plan: 'free' })).toBe('skipped');
    expect(await statusOf({ n: 5, plan: 'pro' })).toBe('completed');
    expect(await statusOf({ n: 11, plan: 'free' })).toBe('completed');
    expect(await statusOf({ muted: true })).toBe('skipped');
    // `contains` is the service's string operator: an array never contains anything with it.
    expect(await statusOf({ tags: ['vip'] })).toBe('completed');
    // The workflow has no issue for these operators.
    expect((await novu.workflows.get('skip-service-ops')).result.steps[0]?.issues).toBeUndefined();
  });

  test("a rule that cannot be evaluated fails the step, with the reason in the detail's raw", async () => {
    await api(dev, 'POST', '/v2/workflows', {
      workflowId: 'skip-bad',
      name: 'Skip bad',
      active: true,
      steps: [{ name: 'Inbox', type: 'in_app', controlValues: { body: 'Hi', skip: { nope: [1] } } }],
    });
    const event = await settled((await novu.trigger({ workflowId: 'skip-bad', to: 'ada' })).result.transactionId!);
    const failed = event.jobs?.[0]?.executionDetails.find((d) => d.status === 'Failed');
    expect(event.jobs?.[0]?.status).toBe('failed');
    expect(JSON.parse(failed!.raw!)).toEqual({ rule: { nope: [1] }, reason: 'Failed to evaluate rule: Unrecognized operation nope' });
  });
});

describe('workflows', () => {
  test('create enforces the limits of name, description and tags (422 naming the field)', async () => {
    const steps = [{ name: 'Inbox', type: 'in_app' as const, controlValues: { body: 'Hi' } }];
    const cases: [string, { name?: string; description?: string; tags?: string[] }][] = [
      ['name', { name: 'n'.repeat(65) }],
      ['description', { description: 'd'.repeat(257) }],
      ['tags', { tags: Array.from({ length: 17 }, (_, i) => `t${i}`) }],
      ['tags', { tags: ['x'.repeat(49)] }],
      ['tags', { tags: ['same', 'same'] }],
    ];
    for (const [field, extra] of cases) {
      const r = await failure(novu.workflows.create({ workflowId: 'limits', name: 'Limits', steps, ...extra }));
      expect(r.status).toBe(422);
      expect(Object.keys(r.body.errors)).toEqual([field]);
    }
    const ok = await novu.workflows.create({
      workflowId: 'limits',
      name: 'n'.repeat(64),
      description: 'd'.repeat(256),
      tags: Array.from({ length: 16 }, (_, i) => `t${i}`),
      steps,
    });
    expect(ok.result.workflowId).toBe('limits');
  });

  test('a second workflow with a taken workflowId gets a suffixed one; a 404 carries ctx.workflowId', async () => {
    const body = { workflowId: 'twin', name: 'Twin', steps: [] };
    const first = await novu.workflows.create(body);
    const second = await novu.workflows.create(body);
    expect(first.result.workflowId).toBe('twin');
    expect(second.result.workflowId).toMatch(/^twin-[a-z0-9]{6}$/);
    const notFound = { status: 404, body: { message: 'Workflow cannot be found', ctx: { workflowId: 'no-such-workflow' } } };
    expect(await failure(novu.workflows.get('no-such-workflow'))).toMatchObject(notFound);
    expect(await failure(novu.workflows.patch({ active: true }, 'no-such-workflow'))).toMatchObject(notFound);
    expect(await failure(novu.workflows.update({ name: 'X', origin: 'novu-cloud', preferences: {}, steps: [] }, 'no-such-workflow'))).toMatchObject(notFound);
    expect(await failure(novu.workflows.delete('no-such-workflow'))).toMatchObject(notFound);
  });

  test('a control that does not compile names the offending variable', async () => {
    const wf = await novu.workflows.create({
      workflowId: 'broken',
      name: 'Broken',
      steps: [{ name: 'Inbox', type: 'in_app', controlValues: { body: 'Hi {{ payload.name' } }],
    });
    expect(wf.result.steps[0]?.issues?.controls?.body?.[0]).toMatchObject({ issueType: 'ILLEGAL_VARIABLE_IN_CONTROL_VALUE', variableName: 'payload.name' });
  });

  test('list (search, paging), update, patch (activate/deactivate) and delete', async () => {
    for (const n of [1, 2, 3]) await novu.workflows.create({ workflowId: `paged-${n}`, name: `Paged ${n}`, tags: ['paged'], steps: [] });
    const page1 = await novu.workflows.list({ query: 'paged', limit: 2, offset: 0, orderBy: 'name', orderDirection: 'ASC' });
    expect(page1.result.totalCount).toBe(3);
    expect(page1.result.workflows.map((w) => w.workflowId)).toEqual(['paged-1', 'paged-2']);
    const page2 = await novu.workflows.list({ query: 'paged', limit: 2, offset: 2, orderBy: 'name', orderDirection: 'ASC' });
    expect(page2.result.workflows.map((w) => w.workflowId)).toEqual(['paged-3']);

    const updated = await novu.workflows.update(
      { name: 'Paged one', origin: 'novu-cloud', preferences: {}, steps: [{ name: 'Inbox', type: 'in_app', controlValues: { body: 'New' } }] },
      'paged-1',
    );
    expect(updated.result).toMatchObject({ name: 'Paged one', workflowId: 'paged-1' });
    expect(updated.result.steps.map((s) => (s.controlValues as { body?: string } | undefined)?.body)).toEqual(['New']);

    expect((await novu.workflows.patch({ active: true }, 'paged-1')).result).toMatchObject({ active: true, status: 'ACTIVE' });
    expect((await novu.workflows.patch({ active: false }, 'paged-1')).result).toMatchObject({ active: false, status: 'INACTIVE' });

    await novu.workflows.delete('paged-1');
    expect((await failure(novu.workflows.get('paged-1'))).status).toBe(404);
    expect((await novu.workflows.list({ query: 'paged' })).result.totalCount).toBe(2);
  });
});

describe('preview', () => {
  test("the example has steps (digest eventCount and events), the service's subscriber shape, and a schema of all three", async () => {
    await novu.workflows.create({
      workflowId: 'digest-preview',
      name: 'Digest preview',
      active: true,
      steps: [
        { name: 'Digest', type: 'digest', controlValues: { amount: 5, unit: 'minutes' } },
        { name: 'Inbox', type: 'in_app', controlValues: { body: '{{ steps.digest.eventCount }} new' } },
      ],
    });
    const p = await novu.workflows.steps.generatePreview({ workflowId: 'digest-preview', stepId: 'inbox', generatePreviewRequestDto: {} });
    const example = p.result.previewPayloadExample;
    const digest = example.steps?.digest as { eventCount: number; events: unknown[] };
    expect(digest.eventCount).toBe(digest.events.length);
    expect(digest.events.length).toBeGreaterThan(0);
    // The service's example subscriber, less the subscriberId the spec's partial subscriber lacks.
    expect(example.subscriber).toEqual({
      firstName: 'John',
      lastName: 'Doe',
      email: 'user@example.com',
      phone: '+1234567890',
      avatar: 'https://example.com/avatar.png',
      locale: 'en_US',
      timezone: 'America/New_York',
      data: {},
    });
    // As the service's: yesterday at noon (UTC here), then five minutes earlier each.
    const times = (digest.events as { time: string }[]).map((e) => Date.parse(e.time));
    expect(new Date(times[0]!).getUTCHours()).toBe(12);
    expect(times[0]! - times[1]!).toBe(5 * 60_000);
    expect(Object.keys((p.result.schema as { properties: object }).properties)).toEqual(['payload', 'subscriber', 'steps']);
    expect(p.result.result).toMatchObject({ type: 'in_app', preview: { body: '3 new' } });
  });

  test('an unknown workflow or step answers 201 with an empty preview', async () => {
    for (const [workflowId, stepId] of [
      ['no-such-workflow', 'x'],
      ['digest-preview', 'no-such-step'],
    ] as const) {
      const p = await novu.workflows.steps.generatePreview({ workflowId, stepId, generatePreviewRequestDto: {} });
      expect(p.result).toEqual({ result: { preview: {} }, previewPayloadExample: {}, schema: null });
    }
  });
});

describe('subscribers', () => {
  test('create, retrieve, patch and delete (v2)', async () => {
    const created = await novu.subscribers.create({ subscriberId: 'sdk-new', firstName: 'New', email: 'new@example.com', phone: '+15557654321' });
    expect(created.result).toMatchObject({ subscriberId: 'sdk-new', firstName: 'New', email: 'new@example.com' });
    expect((await novu.subscribers.retrieve('sdk-new')).result.email).toBe('new@example.com');
    const patched = await novu.subscribers.patch({ lastName: 'Person', data: { plan: 'pro' } }, 'sdk-new');
    expect(patched.result).toMatchObject({ firstName: 'New', lastName: 'Person', data: { plan: 'pro' } });
    const exists = await failure(novu.subscribers.create({ subscriberId: 'sdk-new' }, true));
    expect(exists).toMatchObject({ status: 409, body: { message: 'Subscriber: sdk-new already exists' } });
    expect((await novu.subscribers.delete('sdk-new')).result).toEqual({ acknowledged: true, status: 'deleted' });
  });

  test("an unknown subscriber is a 404 in each use case's own words", async () => {
    expect(await failure(novu.subscribers.retrieve('sdk-gone'))).toMatchObject({ status: 404, body: { message: 'Subscriber: sdk-gone was not found' } });
    expect(await failure(novu.subscribers.patch({ firstName: 'X' }, 'sdk-gone'))).toMatchObject({
      status: 404,
      body: { message: 'Subscriber sdk-gone was not found' },
    });
    expect(await failure(novu.subscribers.delete('sdk-gone'))).toMatchObject({
      status: 404,
      body: { message: 'Subscriber was not found', externalSubscriberId: 'sdk-gone', ctx: { externalSubscriberId: 'sdk-gone' } },
    });
    expect(await failure(novu.subscribers.properties.updateOnlineFlag({ isOnline: true }, 'sdk-gone'))).toMatchObject({
      status: 404,
      body: { message: 'Subscriber not found' },
    });
    expect(await failure(novu.subscribers.messages.markAllAs({ messageId: '0123456789abcdef01234567', markAs: 'read' }, 'sdk-gone'))).toMatchObject({
      status: 404,
      body: { message: 'Subscriber sdk-gone not found' },
    });
  });

  test('phone search matches the whole stored number, not a part of it (the service e2e)', async () => {
    await novu.subscribers.create({ subscriberId: 'sdk-phone', phone: '+15559876543' });
    expect((await novu.subscribers.search({ phone: '+1555987' })).result.data).toEqual([]);
    expect((await novu.subscribers.search({ phone: '+15559876543' })).result.data.map((s) => s.subscriberId)).toEqual(['sdk-phone']);
  });
});

describe('integrations', () => {
  test("set-primary: malformed id → 422 with errors.integrationId; unknown id → 404 in the service's words", async () => {
    const bad = await failure(novu.integrations.setAsPrimary('not-an-id'));
    expect(bad.status).toBe(422);
    expect(bad.body.errors.integrationId).toMatchObject({ value: 'not-an-id' });
    const missing = await failure(novu.integrations.setAsPrimary('ffffffffffffffffffffffff'));
    expect(missing).toMatchObject({ status: 404, body: { message: 'Integration with id ffffffffffffffffffffffff not found' } });
  });

  test('set-primary clears the conditions of the integration it makes primary', async () => {
    const active = async (identifier: string) => (await novu.integrations.listActive()).result.find((i) => i.identifier === identifier)!;
    const before = await active('mailjet-cond');
    // The seeded condition, in the service's full StepFilter shape (the SDK requires every member).
    expect(before.conditions).toEqual([
      { isNegated: false, type: 'GROUP', value: 'AND', children: [{ on: 'subscriber', field: 'data.plan', operator: 'EQUAL', value: 'pro' }] },
    ]);
    const r = await novu.integrations.setAsPrimary(before.id!);
    expect(r.result).toMatchObject({ identifier: 'mailjet-cond', primary: true, active: true, conditions: [] });
    expect(await active('mailjet-cond')).toMatchObject({ primary: true, conditions: [] });
    expect((await active('sendgrid')).primary).toBe(false);
    await novu.integrations.setAsPrimary((await active('sendgrid')).id!);
  });
});

describe('messages', () => {
  test('mark-as without messageId → 400 "messageId is required" (an ErrorDto, not a validation 422)', async () => {
    // The SDK will not send a mark-as without messageId: it is taken out after the SDK built the
    // request, and the SDK then parses the answer as its ErrorDto.
    rewriteBody = ({ messageId: _m, ...rest }) => rest;
    const r = await failure(novu.subscribers.messages.markAllAs({ messageId: '0123456789abcdef01234567', markAs: 'read' }, 'ada')).finally(() => {
      rewriteBody = undefined;
    });
    expect(r).toMatchObject({ status: 400, body: { statusCode: 400, message: 'messageId is required' } });
    expect(r.body.errors).toBeUndefined();
  });
});

describe('channel connections', () => {
  test('a context without subscriberId or connectionMode is accepted as a workspace shared by the context', async () => {
    const c = await novu.channelConnections.create({
      integrationIdentifier: 'slack',
      context: { tenant: 'shared-acme' },
      workspace: { id: 'T-shared' },
      auth: { accessToken: 'xoxb-shared-0001' },
    });
    expect(c.result).toMatchObject({ subscriberId: null, contextKeys: ['tenant:shared-acme'], workspace: { id: 'T-shared' } });
  });
});

describe('activity', () => {
  test('an in-app job logs "Start sending message" among its execution details', async () => {
    const t = await novu.trigger({ workflowId: 'skip-ops', to: 'ada', payload: { tags: [], code: '' } });
    const event = await settled(t.result.transactionId!);
    expect(event.jobs?.[0]?.executionDetails.map((d) => d.detail)).toEqual(['Step queued', 'Start sending message', 'Message created', 'Message sent']);
  });
});
