// A read or a view through the Inbox's routes (what an app's <Inbox/> sends) shows in the event's
// timeline as the operator's mark-as does, once per change, and later steps see the in-app step's state.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type Listening, listening } from './helpers.js';

let s: Listening;
let ada: string;
afterAll(() => s.close());
beforeAll(async () => {
  s = await listening();
  ada = await s.session('ada');
});

async function triggerOne(): Promise<{ notificationId: string; eventId: string }> {
  const tx = `read-state-${Math.random().toString(36).slice(2)}`;
  await s.svc.request('POST', '/v1/events/trigger', { body: { name: 'welcome', to: 'ada', transactionId: tx } });
  await s.svc.runner.idle();
  const list = (await s.inbox('GET', '/notifications?limit=1', ada)).body.data as { id: string }[];
  const feed = await s.svc.request('GET', `/v1/notifications?transactionId=${tx}`);
  return { notificationId: list[0]!.id, eventId: (feed.body as { data: { _id: string }[] }).data[0]!._id };
}

async function inAppDetails(eventId: string): Promise<string[]> {
  const event = (await s.svc.request('GET', `/v1/notifications/${eventId}`)).body as {
    data: { jobs: { type: string; executionDetails: { detail: string }[] }[] };
  };
  return event.data.jobs.find((j) => j.type === 'in_app')!.executionDetails.map((d) => d.detail);
}

it('PATCH …/read adds "Message read" to the in-app job once; reading again adds nothing', async () => {
  const { notificationId, eventId } = await triggerOne();
  expect(await inAppDetails(eventId)).not.toContain('Message read');
  expect((await s.inbox('PATCH', `/notifications/${notificationId}/read`, ada)).status).toBe(200);
  await s.inbox('PATCH', `/notifications/${notificationId}/read`, ada);
  const details = await inAppDetails(eventId);
  expect(details.filter((d) => d === 'Message read')).toHaveLength(1);
});

it('POST …/seen and the bulk read record "Message seen" and "Message read"', async () => {
  const { notificationId, eventId } = await triggerOne();
  expect((await s.inbox('POST', '/notifications/seen', ada, { notificationIds: [notificationId] })).status).toBe(204);
  expect(await inAppDetails(eventId)).toContain('Message seen');
  expect((await s.inbox('POST', '/notifications/read', ada, {})).status).toBe(204);
  expect(await inAppDetails(eventId)).toContain('Message read');
});
