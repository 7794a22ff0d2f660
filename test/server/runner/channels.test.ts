// Channel steps through the engine: rendered content, provider choice, destinations, template errors,
// preferences, step filters, and the in-app state later steps read.
import { afterAll, describe, expect, it } from 'vitest';
import { parseSeed } from '../../../src/server/seed/load.js';
import { testService } from '../../helpers/service.js';
import { createWorkflow, details, event, messages, statuses, trigger } from './helpers.js';

const svc = testService();
afterAll(() => svc.close());

describe('rendered channel content', () => {
  it('in_app: subject, body, avatar, actions, redirect and data become the message', async () => {
    await createWorkflow(svc, 'inbox', [
      {
        name: 'Inbox',
        type: 'in_app',
        controlValues: {
          subject: 'Hi {{ subscriber.firstName }}',
          body: '{{ actor.firstName }} commented on <b>{{ payload.post.title }}</b> in {{ context.tenant.data.name }}',
          avatar: '{{ actor.avatar }}',
          primaryAction: { label: 'Open {{ payload.post.title }}', redirect: { url: '/posts/{{ payload.post.id }}', target: '_blank' } },
          secondaryAction: { label: 'Mute' },
          redirect: { url: 'https://app.example.com/p/{{ payload.post.id }}' },
          data: { postId: '{{ payload.post.id }}' },
        },
      },
    ]);
    const tx = await trigger(
      svc,
      'inbox',
      'ada',
      { post: { id: 7, title: 'Launch' } },
      {
        actor: { subscriberId: 'grace', avatar: 'https://example.com/grace.png' },
        context: { tenant: 'acme' },
      },
    );
    const [m] = await messages(svc, `transactionId=${tx}`);
    // A button keeps where it leads.
    expect(m.cta.action.buttons).toEqual([
      { type: 'primary', content: 'Open Launch', url: '/posts/7', target: '_blank' },
      { type: 'secondary', content: 'Mute' },
    ]);
    expect(m).toMatchObject({
      channel: 'in_app',
      subject: 'Hi Ada',
      content: 'Grace commented on <b>Launch</b> in Acme Corp',
      avatar: 'https://example.com/grace.png',
      data: { postId: '7' },
      cta: {
        type: 'redirect',
        data: { url: 'https://app.example.com/p/7' },
        action: { status: 'pending' },
      },
      read: false,
      seen: false,
      status: 'sent',
      providerId: 'svc',
    });
    expect(m.deliveredAt).toEqual([m.createdAt]);
  });

  it('email: subject and HTML body in the default layout, a block-editor body, and layoutId null', async () => {
    await createWorkflow(svc, 'mails', [
      {
        name: 'Html',
        type: 'email',
        controlValues: { subject: 'Order {{ payload.order }}', body: '<p>Hi {{ subscriber.firstName }}</p><script>x()</script>' },
      },
      {
        name: 'Blocks',
        type: 'email',
        controlValues: {
          subject: 'Blocks',
          layoutId: null,
          body: JSON.stringify({
            type: 'doc',
            content: [
              {
                type: 'paragraph',
                content: [
                  { type: 'text', text: 'Total: ' },
                  { type: 'variable', attrs: { id: 'payload.total' } },
                ],
              },
            ],
          }),
        },
      },
    ]);
    const tx = await trigger(svc, 'mails', 'ada', { order: 'A-1', total: '42 EUR' });
    const [blocks, html] = await messages(svc, `transactionId=${tx}`);
    expect(html).toMatchObject({ channel: 'email', subject: 'Order A-1', email: 'ada@example.com', providerId: 'sendgrid' });
    expect(html.content).toMatch(/^<!DOCTYPE html>/);
    expect(html.content).toContain('<p>Hi Ada</p>');
    expect(html.content).not.toContain('<script>');
    expect(blocks.content).toContain('Total: 42 EUR');
    expect(blocks.content).not.toMatch(/<html/i);
  });

  it("sms, push and chat bodies; push through the subscriber's device tokens, chat to their webhook URL", async () => {
    await createWorkflow(svc, 'alerts', [
      { name: 'Sms', type: 'sms', controlValues: { body: 'Code {{ payload.code }}' } },
      { name: 'Push', type: 'push', controlValues: { subject: '{{ payload.service }} down', body: 'Since {{ payload.since }}' } },
      { name: 'Chat', type: 'chat', controlValues: { body: '{{ payload.service | upcase }} is down' } },
    ]);
    const tx = await trigger(svc, 'alerts', 'ada', { code: '123', service: 'api', since: '10:00' });
    const byChannel = Object.fromEntries((await messages(svc, `transactionId=${tx}`)).map((m) => [m.channel, m]));
    expect(byChannel.sms).toMatchObject({ content: 'Code 123', phone: '+15550100001', providerId: 'twilio' });
    expect(byChannel.push).toMatchObject({ title: 'api down', content: 'Since 10:00', deviceTokens: ['demo-device-token-ada'], providerId: 'fcm' });
    expect(byChannel.chat).toMatchObject({
      content: 'API is down',
      directWebhookUrl: 'https://hooks.slack.com/services/T000/B000/local-demo',
      providerId: 'slack',
    });
  });

  it('a missing destination fails that step (a push step without credentials is skipped, as the service does), and the next step still runs', async () => {
    const tx = await trigger(svc, 'alerts', 'alan', { code: '1', service: 'api' });
    const n = await event(svc, tx);
    expect(statuses(n)).toEqual(['failed', 'skipped', 'failed']);
    expect(n.jobs[0].executionDetails.at(-1)).toMatchObject({ status: 'Failed', detail: 'Subscriber does not have a phone number', source: 'Credentials' });
    expect(n.jobs[1].executionDetails.at(-1)).toMatchObject({ status: 'Warning', detail: 'Subscriber does not have a configured channel' });
    expect(n.jobs[2].executionDetails.at(-1)).toMatchObject({ status: 'Failed', detail: 'Subscriber does not have a configured channel' });
    expect(JSON.parse(n.jobs[2].executionDetails.at(-1).raw).reason).toMatch(/^Subscriber has no chat destination for slack/);
  });

  it('variables printed with no value are listed in the raw of "Message created"; tested or defaulted ones are not', async () => {
    await createWorkflow(svc, 'partial', [
      { name: 'Inbox', type: 'in_app', controlValues: { body: 'Hi {{ payload.name }}{% if payload.vip %}!{% endif %} {{ payload.team | default: "team" }}' } },
    ]);
    const n = await event(svc, await trigger(svc, 'partial', 'ada'));
    const created = n.jobs[0].executionDetails.find((d: any) => d.detail === 'Message created');
    expect(JSON.parse(created.raw)).toEqual({ variablesWithoutValue: 'payload.name (body, line 1, column 7)' });
  });
});

describe('template errors and issues', () => {
  it('a Liquid error fails the job naming control, line and column; the workflow shows the issue and status ERROR', async () => {
    await createWorkflow(svc, 'broken', [
      { name: 'Inbox', type: 'in_app', controlValues: { body: 'Hello\n{% if payload.vip %}VIP' } },
      { name: 'Mail', type: 'email', controlValues: { subject: 'ok', body: '<p>ok</p>' } },
    ]);
    const n = await event(svc, await trigger(svc, 'broken', 'ada', { name: 'x' }));
    expect(statuses(n)).toEqual(['failed', 'completed']);
    const failed = n.jobs[0].executionDetails.at(-1);
    expect(failed.status).toBe('Failed');
    expect(failed.detail).toContain("Step 'inbox' has issues");
    expect(failed.detail).toContain('body: Content compilation error: tag {% if payload.vip %} not closed (line 2, column 1)');
    const wf = (await svc.request('GET', '/v2/workflows/broken')).body.data;
    expect(wf.status).toBe('ERROR');
    expect(wf.steps[0].issues.controls.body[0]).toMatchObject({ issueType: 'ILLEGAL_VARIABLE_IN_CONTROL_VALUE' });
    expect(wf.steps[1].issues).toBeUndefined();
  });

  it('an illegal variable fails the job with the variable named', async () => {
    await createWorkflow(svc, 'illegal', [{ name: 'Sms', type: 'sms', controlValues: { body: 'Hi {{ user.name }}' } }]);
    const n = await event(svc, await trigger(svc, 'illegal', 'ada'));
    expect(details(n.jobs[0]).at(-1)).toContain('body: Variable "user.name" is not supported');
  });

  it('a render-time error (what only running the template finds) fails the job with the control and location', async () => {
    await createWorkflow(svc, 'render-error', [{ name: 'Sms', type: 'sms', controlValues: { body: 'Total: {% include "totals" %}' } }]);
    const n = await event(svc, await trigger(svc, 'render-error', 'ada'));
    const last = n.jobs[0].executionDetails.at(-1);
    expect(n.jobs[0].status).toBe('failed');
    expect(last).toMatchObject({ status: 'Failed', source: 'Payload' });
    expect(last.detail).toBe('Template error: body (line 1, column 8): ENOENT: Failed to lookup "totals" in "." in "{% include "totals" %}"');
  });
});

describe('provider choice', () => {
  it('email goes through the primary integration; MISSING_INTEGRATION when the channel has none', async () => {
    const empty = testService({ empty: true });
    try {
      await createWorkflow(empty, 'push-only', [{ name: 'Push', type: 'push', controlValues: { subject: 's', body: 'b' } }]);
      const n = await event(empty, await trigger(empty, 'push-only', { subscriberId: 'x' }));
      expect(n.jobs[0].executionDetails.at(-1)).toMatchObject({
        status: 'Failed',
        detail: expect.stringMatching(/^MISSING_INTEGRATION: Missing active Push integration provider/),
      });
      const wf = (await empty.request('GET', '/v2/workflows/push-only')).body.data;
      expect(wf.steps[0].issues.integration.push[0].issueType).toBe('MISSING_INTEGRATION');
    } finally {
      await empty.close();
    }
  });
});

describe('integration conditions', () => {
  it('an integration whose conditions reject the subscriber is passed over; none left → MISSING_INTEGRATION', async () => {
    const proOnly = [{ value: 'AND', children: [{ on: 'subscriber', field: 'data.plan', operator: 'EQUAL', value: 'pro' }] }];
    const s = testService({
      empty: true,
      seed: parseSeed(
        {
          integrations: [
            { identifier: 'vip-mail', providerId: 'postmark', channel: 'email', primary: true, conditions: proOnly },
            { identifier: 'bulk-mail', providerId: 'mailgun', channel: 'email' },
            { identifier: 'vip-sms', providerId: 'twilio', channel: 'sms', conditions: proOnly },
          ],
          subscribers: [
            { subscriberId: 'pro', email: 'pro@example.com', phone: '+15550000001', data: { plan: 'pro' } },
            { subscriberId: 'free', email: 'free@example.com', phone: '+15550000002', data: { plan: 'free' } },
          ],
        },
        'test',
      ),
    });
    try {
      await createWorkflow(s, 'notice', [
        { name: 'Mail', type: 'email', controlValues: { subject: 's', body: '<p>b</p>' } },
        { name: 'Sms', type: 'sms', controlValues: { body: 'b' } },
      ]);
      const pro = await event(s, await trigger(s, 'notice', 'pro'));
      expect(pro.jobs.map((j: any) => [j.status, j.providerId])).toEqual([
        ['completed', 'postmark'],
        ['completed', 'twilio'],
      ]);
      const free = await event(s, await trigger(s, 'notice', 'free'));
      expect(free.jobs.map((j: any) => [j.status, j.providerId])).toEqual([
        ['completed', 'mailgun'],
        ['failed', 'twilio'],
      ]);
      expect(details(free.jobs[1]).at(-1)).toBe("MISSING_INTEGRATION: No active SMS integration's conditions match this subscriber and payload (vip-sms)");
    } finally {
      await s.close();
    }
  });
});

describe('preferences and filters', () => {
  const off = { workflow: { all: { enabled: true, readOnly: false }, channels: { email: { enabled: false } } } };

  it('a channel turned off in the workflow preferences skips its step with a detail; a critical workflow sends anyway', async () => {
    const steps = [
      { name: 'Mail', type: 'email', controlValues: { subject: 's', body: '<p>b</p>' } },
      { name: 'Sms', type: 'sms', controlValues: { body: 'b' } },
    ];
    await createWorkflow(svc, 'prefs', steps, { preferences: off });
    await createWorkflow(svc, 'prefs-critical', steps, { preferences: off, critical: true });
    const n = await event(svc, await trigger(svc, 'prefs', 'ada'));
    expect(statuses(n)).toEqual(['skipped', 'completed']);
    expect(details(n.jobs[0]).at(-1)).toBe("Step filtered by preferences: the email channel is turned off in the workflow's preferences");
    const critical = await event(svc, await trigger(svc, 'prefs-critical', 'ada'));
    expect(statuses(critical)).toEqual(['completed', 'completed']);
  });

  it('step filters on subscriber and payload skip the step, naming the filter', async () => {
    await createWorkflow(svc, 'filtered', [
      {
        name: 'Inbox',
        type: 'in_app',
        controlValues: { body: 'pro news' },
        filters: [
          {
            value: 'AND',
            children: [
              { on: 'subscriber', field: 'data.plan', operator: 'EQUAL', value: 'pro' },
              { on: 'payload', field: 'n', operator: 'LARGER', value: '2' },
            ],
          },
        ],
      },
    ]);
    expect(statuses(await event(svc, await trigger(svc, 'filtered', 'ada', { n: 3 })))).toEqual(['completed']);
    const skipped = await event(svc, await trigger(svc, 'filtered', 'ada', { n: 1 }));
    expect(statuses(skipped)).toEqual(['skipped']);
    expect(details(skipped.jobs[0]).at(-1)).toBe(
      'Step filtered: the step\'s filters do not match this subscriber and payload: (subscriber.data.plan EQUAL "pro" AND payload.n LARGER "2")',
    );
    expect(skipped.jobs[0].step.filters).toHaveLength(1);
    const bad = await svc.request('POST', '/v2/workflows', {
      body: {
        name: 'B',
        workflowId: 'bad-filter',
        steps: [
          { name: 'I', type: 'in_app', controlValues: { body: 'x' }, filters: [{ children: [{ on: 'nowhere', field: 'a', operator: 'EQUAL', value: '1' }] }] },
        ],
      },
    });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.errors)[0]).toMatch(/^steps\.0\.filters\.0\.children\.0\.on/);
  });

  it('skip conditions (JSON logic) skip the step, naming the condition', async () => {
    await createWorkflow(svc, 'skippy', [
      { name: 'Inbox', type: 'in_app', controlValues: { body: 'x', skip: { '==': [{ var: 'payload.muted' }, true] } } },
      { name: 'Sms', type: 'sms', controlValues: { body: 'y' } },
    ]);
    const n = await event(svc, await trigger(svc, 'skippy', 'ada', { muted: true }));
    expect(statuses(n)).toEqual(['skipped', 'completed']);
    expect(n.jobs[0].executionDetails.at(-1)).toMatchObject({
      status: 'Success',
      detail: 'Step skipped: its skip condition holds: {"==":[{"var":"payload.muted"},true]}',
    });
    expect(statuses(await event(svc, await trigger(svc, 'skippy', 'ada', { muted: false })))).toEqual(['completed', 'completed']);
  });
});

describe('in-app state', () => {
  it('marking read adds a ReadConfirmation detail and later steps read steps.<id>.read', async () => {
    await createWorkflow(svc, 'nudge', [
      { stepId: 'note', name: 'Note', type: 'in_app', controlValues: { body: 'Please read' } },
      { name: 'Wait', type: 'delay', controlValues: { amount: 1, unit: 'hours' } },
      { name: 'Nudge', type: 'sms', controlValues: { body: 'Unread reminder', skip: { '==': [{ var: 'steps.note.read' }, true] } } },
    ]);
    const read = await trigger(svc, 'nudge', 'ada');
    const unread = await trigger(svc, 'nudge', 'grace');
    const [m] = await messages(svc, `transactionId=${read}&channel=in_app`);
    const r = await svc.request('POST', '/v1/subscribers/ada/messages/mark-as', { body: { messageId: m._id, markAs: 'read' } });
    expect(r.body.data[0]).toMatchObject({ read: true, seen: true, lastReadDate: expect.any(String) });
    svc.clock.advance(3_600_000);
    await svc.runner.idle();
    const n = await event(svc, read);
    expect(n.jobs[0].executionDetails.at(-1)).toMatchObject({ status: 'ReadConfirmation', detail: 'Message read' });
    expect(statuses(n)).toEqual(['completed', 'completed', 'skipped']);
    // Grace never read hers: the reminder is sent.
    expect(statuses(await event(svc, unread))).toEqual(['completed', 'completed', 'completed']);
    expect(await messages(svc, `transactionId=${unread}&channel=sms`)).toHaveLength(1);
  });
});
