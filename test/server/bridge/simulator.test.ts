// The simulator for a code-first workflow (@novu/framework on loopback): the message the app's step
// returns goes to the simulator as any other, a 429 is tried again within the step's call, a bounce
// fails the step once.
import { workflow } from '@novu/framework';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { TEST_KEY, testService, type TestService } from '../../helpers/service.js';
import { startBridgeApp, type BridgeApp } from './app.js';

const mailer = workflow('sim-code', async ({ step }) => {
  await step.email('mail', async () => ({ subject: 'Hi', body: '<p>Hello from the app</p>' }));
});

let svc: TestService;
let app: BridgeApp;

beforeAll(async () => {
  vi.spyOn(console, 'log').mockImplementation(() => {});
  vi.spyOn(console, 'error').mockImplementation(() => {});
  svc = testService();
  app = await startBridgeApp([mailer], TEST_KEY);
  expect((await svc.request('POST', '/v1/bridge/sync?source=cli', { body: { bridgeUrl: app.url } })).status).toBe(201);
});
afterAll(async () => {
  await svc.runner.stop();
  svc.close();
  await app.close();
  vi.restoreAllMocks();
});

async function send(email: string) {
  const t = await svc.request('POST', '/v1/events/trigger', { body: { name: 'sim-code', to: { subscriberId: email.split('@')[0], email } } });
  expect(t.status).toBe(201);
  await svc.runner.idle();
  const [ev] = (await svc.request('GET', `/v1/notifications?transactionId=${t.body.data.transactionId}`)).body.data;
  return ev.jobs[0] as { status: string; executionDetails: { status: string; detail: string }[] };
}

it('ratelimit@: the 429 is tried again, then the message the app returned is delivered', async () => {
  const job = await send('ratelimit@simulator.svc.test');
  expect(job.status).toBe('completed');
  const lines = job.executionDetails.map((d) => `${d.status} ${d.detail}`);
  const throttled = lines.findIndex((l) => /^Warning .*429 TooManyRequestsException/.test(l));
  expect(throttled, lines.join('\n')).toBeGreaterThan(-1);
  expect(lines.at(-1)).toMatch(/^Success Message sent: delivered to ratelimit@simulator\.svc\.test/);
  const [message] = (await svc.request('GET', '/v1/messages?channel=email&limit=10')).body.data.filter((m: any) => m.email === 'ratelimit@simulator.svc.test');
  expect(message).toMatchObject({ status: 'sent', content: '<p>Hello from the app</p>' });
});

it('bounce@: the step fails once with the bounce as its reason', async () => {
  const job = await send('bounce@simulator.svc.test');
  expect(job.status).toBe('failed');
  const failed = job.executionDetails.filter((d) => d.status === 'Failed');
  expect(failed.map((d) => d.detail)).toEqual([expect.stringMatching(/^Message not delivered: hard bounce from bounce@simulator\.svc\.test/)]);
  expect(app.received.filter((r) => r.action === 'execute' && r.stepId === 'mail')).toHaveLength(2);
});
