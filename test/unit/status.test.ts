import { describe, expect, it } from 'vitest';
import { CHANNELS, TERMINAL_JOB_STATUSES } from '../../src/api/enum-values.js';
import {
  CHANNEL_TYPES,
  eventStatus,
  jobStatusesNeeded,
  judge,
  matchesStatus,
  nothingDelivered,
  reasonOf,
  SETTLED_JOB_STATUSES,
  type StatusJob,
  statusesFor,
} from '../../src/core/status.js';

const d = (status: string, detail: string) => ({ status, detail });
const PREFS = 'Step filtered by subscriber preferences: the subscriber turned the email channel off for this workflow';

describe('derived event status', () => {
  it('an event whose email was skipped by preferences beside a delivered in-app is partial, with the reason', () => {
    const jobs = [
      { type: 'in_app', status: 'completed', executionDetails: [d('Success', 'Message sent')] },
      { type: 'email', status: 'skipped', step: { stepId: 'email' }, executionDetails: [d('Pending', 'Step queued'), d('Warning', PREFS)] },
    ];
    const j = judge(jobs);
    expect(j.status).toBe('partial');
    expect(j.reason).toBe(`email skipped: ${PREFS}`);
    expect(j.channels).toEqual([
      { channel: 'in_app', outcome: 'delivered' },
      { stepId: 'email', channel: 'email', outcome: 'skipped', reason: PREFS },
    ]);
  });
  it('--channel judges that channel’s own step', () => {
    const jobs = [
      { type: 'in_app', status: 'completed' },
      { type: 'email', status: 'skipped', executionDetails: [d('Success', 'Step skipped: its skip condition holds: {"==":[1,1]}')] },
    ];
    expect(eventStatus(jobs, { channels: ['email'] })).toBe('skipped');
    expect(reasonOf(jobs, { channels: ['email'] })).toBe('Step skipped: its skip condition holds: {"==":[1,1]}');
    expect(eventStatus(jobs, { channels: ['in_app'] })).toBe('delivered');
    expect(eventStatus(jobs, { channels: ['sms'] })).toBe('none');
  });
  it('a delivered event keeps what the provider reported after sending as its reason (a complaint), and stays delivered', () => {
    const complaint = 'Complaint from complaint@simulator.svc.test: the recipient marked the message as spam (feedback type abuse)';
    const jobs = [
      { type: 'in_app', status: 'completed', executionDetails: [d('Success', 'Message sent')] },
      { type: 'email', status: 'completed', executionDetails: [d('Pending', 'Step queued'), d('Success', 'Message sent: delivered'), d('Warning', complaint)] },
    ];
    expect(judge(jobs)).toMatchObject({ status: 'delivered', reason: `email: ${complaint}` });
    // A 429 before the message was sent is not news once it is delivered.
    const retried = [
      { type: 'email', status: 'completed', executionDetails: [d('Warning', '429 TooManyRequests (attempt 1 of 3)'), d('Success', 'Message sent')] },
    ];
    expect(judge(retried)).toEqual({ status: 'delivered', channels: [{ channel: 'email', outcome: 'delivered' }] });
    // What the subscriber did with it afterwards is not a reason.
    const read = [
      {
        type: 'in_app',
        status: 'completed',
        executionDetails: [d('Success', 'Message sent'), d('ReadConfirmation', 'Message read'), d('Success', 'Message unsnoozed')],
      },
    ];
    expect(judge(read).reason).toBeUndefined();
  });
  it('every channel delivered is delivered', () => {
    expect(
      eventStatus([
        { type: 'delay', status: 'completed' },
        { type: 'in_app', status: 'completed' },
        { type: 'email', status: 'completed' },
      ]),
    ).toBe('delivered');
  });
  it('every channel step merged into a digest is merged, not completed', () => {
    const jobs = [
      { type: 'digest', status: 'merged', executionDetails: [d('Success', 'Step digested: merged into the digest of notification x')] },
      { type: 'in_app', status: 'merged', executionDetails: [d('Warning', 'Step not run: this event was merged')] },
    ];
    expect(eventStatus(jobs)).toBe('merged');
    expect(reasonOf(jobs)).toBe('Step not run: this event was merged');
    expect(nothingDelivered('merged')).toBe(false);
  });
  it('a throttle step that held the rest back is throttled', () => {
    const jobs = [
      { type: 'throttle', status: 'completed', executionDetails: [d('Warning', 'Throttled: 3 executions already in the window')] },
      { type: 'email', status: 'skipped', executionDetails: [d('Warning', "Step skipped: throttled by step 'throttle' (threshold 3 reached)")] },
    ];
    expect(eventStatus(jobs)).toBe('throttled');
    expect(reasonOf(jobs)).toMatch(/^Throttled: 3 executions/);
    expect(judge(jobs).channels[0]!.outcome).toBe('throttled');
    expect(nothingDelivered('throttled')).toBe(true);
  });
  it('skip conditions on every channel step make it skipped, with the skip as the reason (not a later line)', () => {
    const jobs = [
      { type: 'delay', status: 'completed' },
      { type: 'sms', status: 'skipped', executionDetails: [d('Pending', 'Step queued'), d('Success', 'Step skipped: its skip condition holds')] },
    ];
    expect(eventStatus(jobs)).toBe('skipped');
    expect(reasonOf(jobs)).toBe('Step skipped: its skip condition holds');
    expect(nothingDelivered('skipped')).toBe(true);
  });
  it('failed wins, then pending', () => {
    expect(
      eventStatus([
        { type: 'email', status: 'completed' },
        { type: 'sms', status: 'failed' },
      ]),
    ).toBe('failed');
    expect(
      eventStatus([
        { type: 'digest', status: 'delayed' },
        { type: 'in_app', status: 'pending' },
      ]),
    ).toBe('pending');
    expect(eventStatus([])).toBe('none');
  });
  it('action-only workflows that finished are completed', () => {
    expect(eventStatus([{ type: 'http_request', status: 'completed' }])).toBe('completed');
  });
  it('the failure is one line naming the step type, from its failed detail', () => {
    const jobs = [
      { type: 'chat', status: 'failed', executionDetails: [d('Pending', 'Step queued'), d('Failed', 'No chat\ndestination'), d('Warning', 'later')] },
      { type: 'push', status: 'failed', executionDetails: [d('Failed', 'no tokens')] },
    ];
    expect(reasonOf(jobs)).toBe('chat: No chat destination');
  });
  it('--status completed covers every finished outcome', () => {
    expect(matchesStatus('skipped', 'completed')).toBe(true);
    expect(matchesStatus('partial', 'completed')).toBe(true);
    expect(matchesStatus('failed', 'completed')).toBe(false);
    expect(matchesStatus('failed', 'failed')).toBe(true);
    expect(matchesStatus('partial', 'delivered')).toBe(false);
  });
  it('its lists are the API’s (without importing them)', () => {
    expect([...CHANNEL_TYPES]).toEqual([...CHANNELS]);
    expect([...SETTLED_JOB_STATUSES].sort()).toEqual([...TERMINAL_JOB_STATUSES].sort());
  });
  it('the store’s quick test never rules out an event judge() would keep', () => {
    // Every combination of two jobs of a few types and every job status: an event of status S always
    // has a job whose status is among jobStatusesNeeded(S).
    const types = ['in_app', 'email', 'throttle', 'delay'];
    const statuses = ['pending', 'queued', 'running', 'completed', 'failed', 'delayed', 'canceled', 'merged', 'skipped'];
    const details = [undefined, 'Throttled: 3 executions', "Step skipped: throttled by step 't'"];
    const jobs: StatusJob[] = [];
    for (const type of types)
      for (const status of statuses) for (const detail of details) jobs.push({ type, status, ...(detail && { executionDetails: [{ detail }] }) });
    for (const a of jobs) {
      for (const b of jobs) {
        for (const scope of [{}, { channels: ['email'] }]) {
          const status = eventStatus([a, b], scope);
          const needed = jobStatusesNeeded(status);
          if (!needed) continue;
          const inScope = [a, b].filter((j) => !('channels' in scope) || j.type === 'email');
          expect(
            inScope.some((j) => needed.includes(j.status!)),
            `${JSON.stringify([a, b])} ${status}`,
          ).toBe(true);
        }
      }
    }
    expect(statusesFor('completed')).toContain('partial');
  });
});
