// The simulator's mapping, destination → the provider's answer: each documented address, number and
// token, the variants a person writes (case, `+label`, spaces in a number), and what it leaves alone.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isSimulated, simulatorAnswer, type SimulatorInput } from '../../src/server/simulator.js';

const at = '2026-01-02T03:04:05.000Z';
const ask = (channel: SimulatorInput['channel'], to: string, more: Partial<SimulatorInput> = {}) =>
  simulatorAnswer({ channel, to, providerId: 'sendgrid', attempt: 1, messageId: '65f0c0ffee0000000000abcd', at, ...more });

describe('email at simulator.svc.test (after the SES mailbox simulator)', () => {
  it('success@ is delivered, with a delivery notification', () => {
    const a = ask('email', 'success@simulator.svc.test');
    expect(a).toMatchObject({
      outcome: 'delivered',
      after: [],
      raw: { notificationType: 'Delivery', delivery: { recipients: ['success@simulator.svc.test'] } },
    });
  });

  it('bounce@ is a hard bounce: failed for good, with SES bounce words', () => {
    const a = ask('email', 'bounce@simulator.svc.test');
    expect(a?.outcome).toBe('failed');
    if (a?.outcome !== 'failed') return;
    expect(a.reason).toMatch(/hard bounce.*550 5\.1\.1 user unknown.*not retried/);
    expect(a.errorId).toBe('unexpected_email_error');
    expect(a.raw).toMatchObject({
      notificationType: 'Bounce',
      bounce: { bounceType: 'Permanent', bounceSubType: 'General', bouncedRecipients: [{ status: '5.1.1', diagnosticCode: 'smtp; 550 5.1.1 user unknown' }] },
    });
    // Not retried: a second attempt answers the same.
    expect(ask('email', 'bounce@simulator.svc.test', { attempt: 2 })?.outcome).toBe('failed');
  });

  it('complaint@ is delivered, then a complaint (abuse) is reported', () => {
    const a = ask('email', 'complaint@simulator.svc.test');
    expect(a?.outcome).toBe('delivered');
    if (a?.outcome !== 'delivered') return;
    expect(a.after).toHaveLength(1);
    expect(a.after[0]).toMatchObject({ status: 'Warning', raw: { notificationType: 'Complaint', complaint: { complaintFeedbackType: 'abuse' } } });
    expect(a.after[0]!.detail).toMatch(/^Complaint from complaint@simulator\.svc\.test: .*spam/);
  });

  it('ooto@ is delivered, with an out-of-office automatic reply', () => {
    const a = ask('email', 'ooto@simulator.svc.test');
    expect(a?.outcome).toBe('delivered');
    if (a?.outcome !== 'delivered') return;
    expect(a.after[0]).toMatchObject({ status: 'Success', raw: { headers: { 'Auto-Submitted': 'auto-replied' } } });
    expect(a.after[0]!.detail).toMatch(/out of the office/);
  });

  it('suppressionlist@ fails as an address on the suppression list', () => {
    const a = ask('email', 'suppressionlist@simulator.svc.test');
    expect(a?.outcome).toBe('failed');
    if (a?.outcome !== 'failed') return;
    expect(a.reason).toMatch(/suppression list.*not retried/);
    expect(a.raw).toMatchObject({ bounce: { bounceType: 'Permanent', bounceSubType: 'Suppressed' } });
  });

  it('ratelimit@ answers 429 at the first attempt, and is delivered when tried again', () => {
    const first = ask('email', 'ratelimit@simulator.svc.test');
    expect(first).toMatchObject({ outcome: 'retry', raw: { status: 429, body: { __type: 'TooManyRequestsException' } } });
    expect(ask('email', 'ratelimit@simulator.svc.test', { attempt: 2 })?.outcome).toBe('delivered');
  });

  it('takes the address as SES does: any case, a +label, surrounding spaces', () => {
    expect(ask('email', 'Bounce+signup@Simulator.SVC.test')?.outcome).toBe('failed');
    expect(ask('email', ' success+x@simulator.svc.test ')?.outcome).toBe('delivered');
  });

  it('an unknown mailbox of the domain bounces, naming the simulator addresses', () => {
    const a = ask('email', 'bunce@simulator.svc.test');
    expect(a?.outcome).toBe('failed');
    if (a?.outcome === 'failed') expect(a.reason).toMatch(/not a simulator address: success, bounce, complaint, ooto, suppressionlist, ratelimit/);
  });

  it('leaves every other address alone', () => {
    expect(ask('email', 'ada@example.com')).toBeUndefined();
    expect(ask('email', 'bounce@simulator.svc.test.example.com')).toBeUndefined();
    expect(ask('email', 'bounce@notsimulator.svc.test')).toBeUndefined();
    expect(isSimulated('email', 'ada@example.com')).toBe(false);
    expect(isSimulated('email', 'ooto@simulator.svc.test')).toBe(true);
  });
});

describe("SMS to Twilio's test numbers", () => {
  it('+15005550006 is delivered (queued, a Twilio message sid)', () => {
    const a = ask('sms', '+15005550006', { providerId: 'twilio' });
    expect(a).toMatchObject({ outcome: 'delivered', raw: { status: 'queued', to: '+15005550006' } });
    if (a?.outcome === 'delivered') expect(a.raw.sid).toMatch(/^SM[0-9a-f]{32}$/);
  });

  it.each([
    ['+15005550001', 21211, /invalid number.*The 'To' number \+15005550001 is not a valid phone number\./],
    ['+15005550002', 21612, /cannot route.*Twilio cannot route to this number\./],
    ['+15005550009', 21614, /cannot route.*incapable of receiving SMS messages/],
    ['+15005550004', 21610, /blocked/],
    ['+15005550003', 21408, /Permission to send an SMS has not been enabled/],
  ])('%s fails with Twilio error %i, in its words', (to, code, words) => {
    const a = ask('sms', to, { providerId: 'twilio' });
    expect(a?.outcome).toBe('failed');
    if (a?.outcome !== 'failed') return;
    expect(a.reason).toContain(`Twilio error ${code}`);
    expect(a.reason).toMatch(words);
    expect(a.errorId).toBe('unexpected_sms_error');
    expect(a.raw).toEqual({ status: 400, body: expect.objectContaining({ code, status: 400, more_info: `https://www.twilio.com/docs/errors/${code}` }) });
  });

  it('reads a number written with spaces and dashes, and leaves other numbers alone', () => {
    expect(ask('sms', '+1 500-555-0001')?.outcome).toBe('failed');
    expect(ask('sms', '+15005550005')).toBeUndefined();
    expect(ask('sms', '+14155550100')).toBeUndefined();
  });
});

describe('push to simulator-unregistered', () => {
  it('FCM answers 404 UNREGISTERED', () => {
    const a = ask('push', 'simulator-unregistered', { providerId: 'fcm' });
    expect(a?.outcome).toBe('failed');
    if (a?.outcome !== 'failed') return;
    expect(a.reason).toMatch(/FCM answered 404 UNREGISTERED for device token simulator-unregistered/);
    expect(a.raw).toMatchObject({ status: 404, body: { error: { status: 'NOT_FOUND', details: [{ errorCode: 'UNREGISTERED' }] } } });
  });

  it('APNs answers 410 Unregistered', () => {
    const a = ask('push', 'simulator-unregistered', { providerId: 'apns' });
    expect(a?.outcome).toBe('failed');
    if (a?.outcome === 'failed') expect(a.raw).toMatchObject({ status: 410, body: { reason: 'Unregistered' } });
  });

  it('leaves other tokens alone', () => {
    expect(ask('push', 'demo-device-token-ada', { providerId: 'fcm' })).toBeUndefined();
  });
});

describe('the documented table', () => {
  const table = (file: string) => {
    const text = readFileSync(join(process.cwd(), file), 'utf8');
    const start = text.indexOf('| Destination | What happens |');
    expect(start, `the simulator table in ${file}`).toBeGreaterThan(-1);
    return text.slice(start, text.indexOf('\n\n', start));
  };

  it('is the same in the README and docs/testing.md, and every destination in it is answered as it says', () => {
    const rows = table('docs/testing.md');
    expect(table('README.md')).toBe(rows);
    const listed = rows.split('\n').slice(2);
    expect(listed.length).toBeGreaterThanOrEqual(14);
    for (const row of listed) {
      const [, where, what] = row.split('|').map((c) => c.trim());
      const to = /`([^`]+)`/.exec(where!)?.[1];
      if (!to || to.startsWith('…')) continue;
      const channel = to.includes('@') ? 'email' : to.startsWith('+') ? 'sms' : 'push';
      const a = ask(channel, to, { providerId: 'fcm' });
      expect(a, row).toBeDefined();
      const said = /^(delivered|answers 429)/.test(what!) ? (what!.startsWith('answers') ? 'retry' : 'delivered') : 'failed';
      expect(a!.outcome, row).toBe(said);
    }
  });
});
