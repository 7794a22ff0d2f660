// The timeline of `events get` and the `trigger --wait` report at 80 columns.
import { stripVTControlCharacters } from 'node:util';
import { Chalk } from 'chalk';
import { describe, expect, it } from 'vitest';
import { channelsOf, renderTimeline, renderWaitReport, stepChanges } from '../../src/io/timeline.js';

const plain = new Chalk({ level: 0 });
const colour = new Chalk({ level: 1 });
const LONG = "Subscriber has no chat destination for slack (integration 'slack'): a channels[].credentials.webhookUrl or a channel endpoint";
const event = {
  _id: '6b057651a5d94bd2f7aa2955',
  transactionId: '21f40285-db44-4941-8e46-3def11c2ef4b',
  createdAt: '2026-11-24T11:34:41.473Z',
  channels: ['digest', 'chat', 'push'],
  template: { triggers: [{ identifier: 'incident' }] },
  subscriber: { subscriberId: 'alan' },
  jobs: [
    { type: 'digest', status: 'completed', executionDetails: [{ status: 'Success', detail: 'Digest complete', createdAt: '2026-11-24T11:34:41.473Z' }] },
    {
      type: 'chat',
      status: 'failed',
      providerId: 'slack',
      step: { name: 'Chat alert' },
      executionDetails: [
        { status: 'Pending', detail: 'Step queued', createdAt: '2026-11-24T11:34:41.473Z' },
        {
          status: 'Failed',
          detail: LONG,
          createdAt: '2026-11-24T11:34:41.533Z',
          raw: `{"ok":false,"error":"channel_not_found","response_metadata":{"messages":["${'x'.repeat(120)}"]}}`,
        },
      ],
    },
    {
      type: 'push',
      status: 'completed',
      providerId: 'fcm',
      executionDetails: [{ status: 'Success', detail: 'Message sent', createdAt: '2026-11-24T11:34:41.600Z' }],
    },
  ],
};

describe('events get timeline at 80 columns', () => {
  const text = renderTimeline(plain, event, { width: 80, utc: true });
  const lines = text.trimEnd().split('\n');
  it('no line is wider than the terminal', () => {
    for (const l of lines) expect(l.length).toBeLessThanOrEqual(80);
  });
  it('wrapped details continue under their column, never at column 0; the raw answer is folded to one line', () => {
    const at = lines.findIndex((l) => l.includes('Failed  Subscriber has no chat'));
    const col = lines[at]!.indexOf('Subscriber');
    expect(lines[at + 1]!.search(/\S/)).toBe(col);
    const raw = lines.findIndex((l) => l.trimStart().startsWith('raw: '));
    expect(raw).toBeGreaterThan(at);
    expect(lines[raw]!.trim()).toBe('raw: 198 B folded (--raw shows it)');
    expect(text).not.toContain('channel_not_found');
  });
  it('--raw shows the raw answer whole, wrapped under its column', () => {
    const whole = renderTimeline(plain, event, { width: 80, utc: true, raw: true }).trimEnd().split('\n');
    const at = whole.findIndex((l) => l.includes('Failed  Subscriber has no chat'));
    const col = whole[at]!.indexOf('Subscriber');
    const raw = whole.findIndex((l) => l.trimStart().startsWith('raw: {"ok":false,"error":"channel_not_found"'));
    expect(raw).toBeGreaterThan(at);
    expect(whole[raw + 1]!.search(/\S/)).toBeGreaterThan(col);
    for (const l of whole) expect(l.length).toBeLessThanOrEqual(80);
  });
  it('the failure is one line at the top, and whole once at its step', () => {
    const reason = lines.find((l) => l.startsWith('Reason'))!;
    expect(reason).toMatch(/^Reason {6}chat: Subscriber has no chat destination for slack \(integration 'sl…$/);
    expect(reason.length).toBe(80);
    // The whole text, once: the top line is cut before its end.
    expect(text.split('endpoint').length - 1).toBe(1);
  });
  it('Channels lists only the channel steps; times are UTC with Z', () => {
    expect(lines.find((l) => l.startsWith('Channels'))).toBe('Channels    chat, push');
    expect(channelsOf({ channels: ['delay', 'throttle', 'email'] })).toEqual(['email']);
    expect(text).toContain('2026-11-24 11:34:41Z');
    expect(text).toContain('11:34:41.533Z');
    expect(lines.find((l) => l.startsWith('Status'))).toMatch(/failed \(1 of 3 steps\)/);
  });
  it('failed rows are red', () => {
    const c = renderTimeline(colour, event, { width: 80, utc: true }).split('\n');
    const head = c.find((l) => stripVTControlCharacters(l).startsWith('2. chat'))!;
    expect(head).toContain('\u001b[31m');
    const ok = c.find((l) => stripVTControlCharacters(l).startsWith('3. push'))!;
    expect(ok).not.toContain('\u001b[31m');
    const next = c[c.findIndex((l) => l.includes('Failed') && l.includes('Subscriber has no chat')) + 1]!;
    expect(next).toContain('\u001b[31m');
  });
  it('an event where nothing went out says why', () => {
    const skipped = {
      ...event,
      jobs: [{ type: 'email', status: 'skipped', executionDetails: [{ status: 'Success', detail: 'Step skipped: its skip condition holds: {"==":[1,1]}' }] }],
    };
    const t = renderTimeline(plain, skipped, { width: 80, utc: true });
    expect(t).toMatch(/Status\s+skipped\nReason\s+Step skipped: its skip condition holds/);
  });
  it('an email skipped beside a delivered in-app is partial, never a bare delivered, with each channel’s outcome', () => {
    const partial = {
      ...event,
      jobs: [
        { type: 'in_app', status: 'completed', executionDetails: [{ status: 'Success', detail: 'Message sent' }] },
        {
          type: 'email',
          status: 'skipped',
          executionDetails: [{ status: 'Warning', detail: 'Step filtered by subscriber preferences: the subscriber turned the email channel off' }],
        },
      ],
    };
    const t = renderTimeline(plain, partial, { width: 80, utc: true });
    expect(t).toMatch(
      /Status\s+partial\nReason\s+email skipped: Step filtered by subscriber preferences: the subscri…\nOutcomes\s+in_app delivered, email skipped/,
    );
    expect(renderTimeline(plain, partial, { width: 80, utc: true, scope: { channels: ['email'] } })).toMatch(/Status\s+skipped\n/);
  });
});

describe('trigger --wait report', () => {
  it('nothing delivered is said plainly, and lines fit 80 columns', () => {
    const t = renderWaitReport(
      plain,
      {
        trigger: { status: 'processed', transactionId: 'tx-1', activityFeedLink: `http://127.0.0.1:3000/v1/notifications?transactionId=${'a'.repeat(36)}` },
        outcome: 'skipped',
        waitedMs: 1200,
        recipients: [
          {
            subscriberId: 'ada',
            notificationId: 'n1',
            outcome: 'skipped',
            steps: [{ type: 'email', status: 'skipped', providerId: null, detail: `Step skipped: ${'because '.repeat(20)}` }],
          },
        ],
      },
      { width: 80 },
    );
    expect(t).toContain('nothing delivered (skipped) after 1.2s · 1 recipient');
    expect(t).toContain('   email    skipped    Step skipped: because');
    // Every line fits, but the link: it is whole on its line (a break inside it opens another page).
    const link = `http://127.0.0.1:3000/v1/notifications?transactionId=${'a'.repeat(36)}`;
    expect(t.split('\n')).toContain(`  activity: ${link}`);
    for (const l of t.split('\n').filter((x) => !x.includes(link))) expect(l.length).toBeLessThanOrEqual(80);
  });
  it('each channel says its outcome, and a skip or failure its reason, not the next timeline line', () => {
    const t = renderWaitReport(
      plain,
      {
        trigger: { status: 'processed', transactionId: 'tx-2' },
        outcome: 'partial',
        waitedMs: 800,
        recipients: [
          {
            subscriberId: 'ada',
            notificationId: 'n2',
            outcome: 'partial',
            reason: 'email skipped: Step filtered by subscriber preferences: off',
            steps: [
              { type: 'in_app', status: 'completed', outcome: 'delivered', providerId: 'svc', detail: 'Message sent', reason: null },
              {
                type: 'email',
                status: 'skipped',
                outcome: 'skipped',
                providerId: null,
                detail: 'Step queued',
                reason: 'Step filtered by subscriber preferences: off',
              },
            ],
          },
        ],
      },
      { width: 80 },
    );
    expect(t).toContain('partial (some channels not delivered) after 0.8s · 1 recipient');
    expect(t).toContain('   in_app   delivered via svc  Message sent');
    expect(t).toContain('   email    skipped    Step filtered by subscriber preferences: off');
    expect(t).not.toContain('Step queued');
  });
  it('step changes are reported once each', () => {
    const seen = new Map<string, string>();
    const r = (status: string) => [{ subscriberId: 'ada', notificationId: 'n1', steps: [{ type: 'email', status, providerId: 'sendgrid' }] }];
    expect(stepChanges(seen, r('queued'))).toEqual(['ada  1. email  queued via sendgrid']);
    expect(stepChanges(seen, r('queued'))).toEqual([]);
    expect(stepChanges(seen, r('completed'))).toEqual(['ada  1. email  completed via sendgrid']);
  });
});
