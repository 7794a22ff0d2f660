// Failures on purpose through the service (manual clock, the demo's integrations): a trigger to each
// simulator address, number and token, then the job's status, its timeline, the message row and
// the derived status the activity feed shows (core/status.ts, judged from the same jobs).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { judge } from '../../../src/core/status.js';
import { testService } from '../../helpers/service.js';
import { createWorkflow, event, messages, trigger } from './helpers.js';

const svc = testService();
afterAll(() => svc.close());

beforeAll(async () => {
  await createWorkflow(svc, 'sim-email', [{ name: 'Mail', type: 'email', controlValues: { subject: 'Hi', body: '<p>Hello {{ subscriber.firstName }}</p>' } }]);
  await createWorkflow(svc, 'sim-sms', [{ name: 'Text', type: 'sms', controlValues: { body: 'Your code is 123456' } }]);
  await createWorkflow(svc, 'sim-push', [{ name: 'Push', type: 'push', controlValues: { subject: 'Hi', body: 'Something happened' } }]);
});

let n = 0;
async function send(workflow: string, to: Record<string, unknown>) {
  const tx = await trigger(svc, workflow, { subscriberId: `sim-${++n}`, firstName: 'Sim', ...to });
  const ev = await event(svc, tx);
  const [job] = ev.jobs;
  const [message] = await messages(svc, `transactionId=${tx}`);
  return { ev, job, message, judged: judge(ev.jobs), tx };
}

/** The job's own details, without the runner's progress (queued, running). */
const own = (job: any): any[] => job.executionDetails.filter((d: any) => !/^Step (queued|running)\b/.test(d.detail));
const ownDetails = (job: any): string[] => own(job).map((d: any) => d.detail);
const lastFailed = (job: any) => [...job.executionDetails].reverse().find((d: any) => d.status === 'Failed');

describe('email at simulator.svc.test', () => {
  it('success@: delivered, the timeline says to whom', async () => {
    const { job, message, judged } = await send('sim-email', { email: 'success@simulator.svc.test' });
    expect(job.status).toBe('completed');
    expect(ownDetails(job)).toEqual(['Message created', 'Message sent: delivered to success@simulator.svc.test (250 2.6.0 Message received)']);
    expect(JSON.parse(own(job)[1].raw)).toMatchObject({ notificationType: 'Delivery' });
    expect(message).toMatchObject({ status: 'sent', email: 'success@simulator.svc.test', providerId: 'sendgrid' });
    expect(judged.status).toBe('delivered');
  });

  it('bounce@: the email step fails once, not retried; the message is kept with status error', async () => {
    const { job, message, judged } = await send('sim-email', { email: 'bounce@simulator.svc.test' });
    expect(job.status).toBe('failed');
    // One attempt: created, then the failure; no retry note in between.
    expect(own(job).map((d: any) => d.status)).toEqual(['Pending', 'Failed']);
    const failed = lastFailed(job);
    expect(failed.detail).toMatch(/^Message not delivered: hard bounce from bounce@simulator\.svc\.test .*550 5\.1\.1 user unknown; not retried$/);
    expect(failed.providerId).toBe('sendgrid');
    expect(JSON.parse(failed.raw)).toMatchObject({ notificationType: 'Bounce', bounce: { bounceType: 'Permanent' } });
    expect(message).toMatchObject({ status: 'error', errorId: 'unexpected_email_error', errorText: failed.detail });
    expect(message.deliveredAt).toBeUndefined();
    expect(judged.status).toBe('failed');
    expect(judged.reason).toBe(`email: ${failed.detail}`);
  });

  it('complaint@: delivered, then a complaint is recorded on the timeline', async () => {
    const { job, message, judged } = await send('sim-email', { email: 'complaint@simulator.svc.test' });
    expect(job.status).toBe('completed');
    const last = own(job).at(-1);
    expect(last).toMatchObject({
      status: 'Warning',
      detail: expect.stringMatching(/^Complaint from complaint@simulator\.svc\.test: the recipient marked the message as spam/),
    });
    expect(JSON.parse(last.raw)).toMatchObject({ notificationType: 'Complaint', complaint: { complaintFeedbackType: 'abuse' } });
    expect(message.status).toBe('sent');
    expect(judged.status).toBe('delivered');
    // The activity feed's reason says what came back after delivery.
    expect(judged.reason).toMatch(/^email: Complaint from complaint@simulator\.svc\.test/);
  });

  it('ooto@: delivered, with the out-of-office reply noted', async () => {
    const { job, judged } = await send('sim-email', { email: 'ooto@simulator.svc.test' });
    expect(job.status).toBe('completed');
    expect(ownDetails(job).at(-1)).toMatch(/^Automatic reply from ooto@simulator\.svc\.test: out of the office/);
    expect(judged.status).toBe('delivered');
    expect(judged.reason).toMatch(/^email: Automatic reply from ooto@simulator\.svc\.test/);
  });

  it('suppressionlist@: fails as an address on the suppression list, not retried', async () => {
    const { job, message, judged } = await send('sim-email', { email: 'suppressionlist@simulator.svc.test' });
    expect(job.status).toBe('failed');
    expect(own(job).map((d: any) => d.status)).toEqual(['Pending', 'Failed']);
    expect(lastFailed(job).detail).toMatch(/suppressionlist@simulator\.svc\.test is on the suppression list/);
    expect(JSON.parse(lastFailed(job).raw)).toMatchObject({ bounce: { bounceSubType: 'Suppressed' } });
    expect(message.status).toBe('error');
    expect(judged).toMatchObject({ status: 'failed', reason: expect.stringMatching(/^email: .*suppression list/) });
  });

  it('ratelimit@: a 429, tried again after the backoff (the manual clock standing still), then delivered', async () => {
    const before = svc.clock.now();
    const { job, message, judged } = await send('sim-email', { email: 'ratelimit@simulator.svc.test' });
    expect(svc.clock.now()).toBe(before);
    expect(job.status).toBe('completed');
    const [created, throttled, sent] = own(job);
    expect(created.detail).toBe('Message created');
    expect(throttled).toMatchObject({
      status: 'Warning',
      detail: expect.stringMatching(/429 TooManyRequestsException .*Maximum sending rate exceeded\. \(attempt 1 of 3; tried again after 250 ms\)$/),
    });
    expect(JSON.parse(throttled.raw)).toMatchObject({ status: 429 });
    expect(sent).toMatchObject({ status: 'Success', detail: expect.stringMatching(/^Message sent: delivered to ratelimit@simulator\.svc\.test/) });
    expect(own(job)).toHaveLength(3);
    expect(ownDetails(job).filter((d) => /429/.test(d))).toHaveLength(1);
    expect(message.status).toBe('sent');
    expect(judged.status).toBe('delivered');
  });

  it('an ordinary address is sent as before', async () => {
    const { job } = await send('sim-email', { email: 'ada@example.com' });
    expect(ownDetails(job)).toEqual(['Message created', 'Message sent']);
  });
});

describe("SMS to Twilio's test numbers", () => {
  it('+15005550006: delivered', async () => {
    const { job, message, judged } = await send('sim-sms', { phone: '+15005550006' });
    expect(job.status).toBe('completed');
    expect(ownDetails(job).at(-1)).toMatch(/^Message sent: Twilio queued SM[0-9a-f]{32} to \+15005550006$/);
    expect(message).toMatchObject({ status: 'sent', phone: '+15005550006', providerId: 'twilio' });
    expect(judged.status).toBe('delivered');
  });

  it.each([
    ['+15005550001', /Twilio error 21211 \(invalid number\): The 'To' number \+15005550001 is not a valid phone number\./],
    ['+15005550009', /Twilio error 21614 \(cannot route: not a mobile number\)/],
  ])('%s: failed with the Twilio error as the reason', async (phone, words) => {
    const { job, message, judged } = await send('sim-sms', { phone });
    expect(job.status).toBe('failed');
    expect(lastFailed(job).detail).toMatch(words);
    expect(JSON.parse(lastFailed(job).raw)).toMatchObject({ status: 400, body: { status: 400 } });
    expect(message).toMatchObject({ status: 'error', errorId: 'unexpected_sms_error' });
    expect(judged.status).toBe('failed');
    expect(judged.reason).toMatch(words);
  });
});

describe('push to simulator-unregistered', () => {
  const tokens = (deviceTokens: string[]) => ({ channels: [{ providerId: 'fcm', credentials: { deviceTokens } }] });

  it('the only token: failed, unregistered, in FCM words', async () => {
    const { job, message, judged } = await send('sim-push', tokens(['simulator-unregistered']));
    expect(job.status).toBe('failed');
    expect(lastFailed(job).detail).toMatch(/^Message not delivered: FCM answered 404 UNREGISTERED for device token simulator-unregistered/);
    expect(JSON.parse(lastFailed(job).raw)).toMatchObject({ status: 404, body: { error: { details: [{ errorCode: 'UNREGISTERED' }] } } });
    expect(message).toMatchObject({ status: 'error', deviceTokens: ['simulator-unregistered'], errorId: 'unexpected_push_error' });
    expect(judged).toMatchObject({ status: 'failed', reason: expect.stringMatching(/^push: .*UNREGISTERED/) });
  });

  it('beside a good token: sent to that one, the refusal a warning on the timeline', async () => {
    const { job, message, judged } = await send('sim-push', tokens(['good-token', 'simulator-unregistered']));
    expect(job.status).toBe('completed');
    expect(own(job).map((d: any) => d.status)).toEqual(['Pending', 'Warning', 'Success']);
    expect(ownDetails(job).slice(1)).toEqual([
      expect.stringMatching(/UNREGISTERED for device token simulator-unregistered/),
      'Message sent to 1 of 2 destinations',
    ]);
    expect(message.status).toBe('sent');
    expect(judged.status).toBe('delivered');
  });
});
