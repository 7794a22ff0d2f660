import { describe, expect, it } from 'vitest';
import { eventStatus, firstFailure, matchesStatus, nothingDelivered, reasonOf } from '../../src/core/status.js';

const d = (status: string, detail: string) => ({ status, detail });

describe('overall event status', () => {
  it('a delivered channel step makes the event delivered', () => {
    expect(
      eventStatus([
        { type: 'in_app', status: 'completed' },
        { type: 'email', status: 'skipped' },
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
    expect(nothingDelivered('throttled')).toBe(true);
  });
  it('skip conditions on every channel step make it skipped', () => {
    expect(
      eventStatus([
        { type: 'delay', status: 'completed' },
        { type: 'sms', status: 'skipped' },
      ]),
    ).toBe('skipped');
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
  it('the first failure is one line with the step type', () => {
    const jobs = [
      { type: 'chat', status: 'failed', executionDetails: [d('Pending', 'Step queued'), d('Failed', 'No chat\ndestination')] },
      { type: 'push', status: 'failed', executionDetails: [d('Failed', 'no tokens')] },
    ];
    expect(firstFailure(jobs)).toBe('chat: No chat destination');
  });
  it('--status completed covers every finished outcome', () => {
    expect(matchesStatus('skipped', 'completed')).toBe(true);
    expect(matchesStatus('failed', 'completed')).toBe(false);
    expect(matchesStatus('failed', 'failed')).toBe(true);
  });
});
