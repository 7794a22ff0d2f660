// The subscriber's delivery schedule (their global preference's `schedule`), honoured as the service's
// job runner does: outside it, a channel step other than in-app is skipped with the reason; a delay
// that asks to be extended to the schedule is held until the schedule's next time; a critical
// workflow ignores it. The schedule's arithmetic is tested on its own in engine/schedule.test.ts.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { testService, type TestService } from '../../helpers/service.js';
import { advance, createWorkflow, details, event, statuses, trigger } from './helpers.js';

// 2026-01-01T00:00Z is a Thursday, 01:00 in Paris: outside a working-hours schedule.
const day = (isEnabled: boolean) => ({ isEnabled, hours: [{ start: '09:00 AM', end: '05:00 PM' }] });
const WORKING_HOURS = {
  isEnabled: true,
  weeklySchedule: {
    monday: day(true),
    tuesday: day(true),
    wednesday: day(true),
    thursday: day(true),
    friday: day(true),
    saturday: day(false),
    sunday: day(false),
  },
};

let svc: TestService;
beforeEach(async () => {
  svc = testService();
  const s = await svc.request('POST', '/v2/subscribers', {
    body: { subscriberId: 'night-owl', email: 'owl@example.com', phone: '+15550001', timezone: 'Europe/Paris' },
  });
  expect(s.status, JSON.stringify(s.body)).toBe(201);
  const p = await svc.request('PATCH', '/v2/subscribers/night-owl/preferences', { body: { schedule: WORKING_HOURS } });
  expect(p.status, JSON.stringify(p.body)).toBeLessThan(300);
});
afterEach(async () => {
  await svc.runner.stop();
  svc.close();
});

const steps = [
  { name: 'Inbox', type: 'in_app', controlValues: { body: 'hello' } },
  { name: 'Mail', type: 'email', controlValues: { subject: 'hi', body: 'hello' } },
  { name: 'Wait', type: 'delay', controlValues: { type: 'regular', amount: 1, unit: 'minutes', extendToSchedule: true } },
  { name: 'Text', type: 'sms', controlValues: { body: 'hello' } },
];

describe("the subscriber's delivery schedule", () => {
  it('outside it: in-app delivered, email skipped saying why, the delay held until the schedule opens, then the SMS sent', async () => {
    await createWorkflow(svc, 'office-hours', steps);
    const tx = await trigger(svc, 'office-hours', 'night-owl');
    let n = await event(svc, tx);
    expect(statuses(n).slice(0, 3)).toEqual(['completed', 'skipped', 'delayed']);
    expect(details(n.jobs[1]).at(-1)).toBe("Step skipped: outside the subscriber's delivery schedule (it is Thursday 01:00 in Europe/Paris)");
    await advance(svc, 60_000);
    n = await event(svc, tx);
    expect(n.jobs[2].status).toBe('delayed');
    expect(details(n.jobs[2]).at(-1)).toBe(
      "Step extended to the subscriber's delivery schedule: it is Thursday 01:01 in Europe/Paris, held until 2026-01-01T08:00:00.000Z (extension 1 of 3)",
    );
    // 09:00 in Paris: the delay ends, and the SMS goes out inside the schedule.
    await advance(svc, Date.parse('2026-01-01T08:00:00.000Z') - svc.clock.now());
    n = await event(svc, tx);
    expect(statuses(n)).toEqual(['completed', 'skipped', 'completed', 'completed']);
  });

  it('a critical workflow ignores it', async () => {
    await createWorkflow(svc, 'alarm', steps.slice(0, 2), { critical: true });
    const tx = await trigger(svc, 'alarm', 'night-owl');
    expect(statuses(await event(svc, tx))).toEqual(['completed', 'completed']);
  });
});
