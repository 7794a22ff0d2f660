// svc dev stops (or dies) while a code-first step's call to the app is in flight: the job was written
// `running` before the call (the first step in the look that took it, a next step with the outcome of
// the one before), so the next start queues it again, says so in its timeline, and runs it once.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { workflow } from '@novu/framework';
import { afterEach, expect, it, vi } from 'vitest';
import { fileService } from '../runner/helpers.js';
import { startBridgeApp, type BridgeApp } from './app.js';

let hold: Promise<void> | undefined;
let releaseHold = () => {};
let calls = 0;

const twoStep = workflow(
  'recover-code',
  async ({ step, payload }) => {
    await step.inApp('note', async () => ({ body: `Hi ${payload.name}` }));
    await step.email('mail', async () => {
      calls++;
      if (hold) await hold;
      return { subject: 'Welcome', body: `<p>Welcome ${payload.name}</p>` };
    });
  },
  { payloadSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'], additionalProperties: false } as const },
);

let app: BridgeApp | undefined;
afterEach(async () => {
  releaseHold();
  await app?.close();
  vi.restoreAllMocks();
});

it('a next step whose call was in flight when svc dev died is queued again at the next start and runs once', async () => {
  vi.spyOn(console, 'log').mockImplementation(() => {});
  app = await startBridgeApp([twoStep], 'sk_test_0123456789abcdef');
  const file = join(mkdtempSync(join(tmpdir(), 'svc-bridge-recover-')), 'store.sqlite');
  const start = Date.parse('2026-03-01T10:00:00.000Z');
  hold = new Promise<void>((r) => (releaseHold = r));

  const a = fileService(file, start);
  expect((await a.request('POST', '/v1/bridge/sync?source=cli', { body: { bridgeUrl: app.url } })).status).toBe(201);
  const t = await a.request('POST', '/v1/events/trigger', { body: { name: 'recover-code', to: 'ada', payload: { name: 'Ada' } } });
  expect(t.status).toBe(201);
  // The email step is in the app; its `running` status went out with the in-app step's outcome.
  await vi.waitFor(() => expect(calls).toBe(1), { timeout: 10_000 });
  await new Promise<void>((r) => a.store.afterCommit(r));
  // Dies: the store is gone before the answer comes back (the answer then finds nothing to write to).
  a.store.db.close();
  releaseHold();
  hold = undefined;
  await a.close();

  const b = fileService(file, start + 60_000);
  await b.runner.idle();
  const [event] = (await b.request('GET', `/v1/notifications?transactionId=${t.body.data.transactionId}`)).body.data;
  const [note, mail] = event.jobs;
  expect(note.status).toBe('completed');
  expect(mail.status).toBe('completed');
  expect(mail.executionDetails.map((d: { detail: string }) => d.detail).slice(0, 4)).toEqual([
    'Step queued',
    'Step running',
    'Step queued again: the service stopped while it was running',
    'Step running',
  ]);
  expect(calls).toBe(2);
  const emails = (await b.request('GET', '/v1/messages?channel=email&limit=10')).body.data;
  expect(emails.map((m: { content: string }) => m.content)).toEqual(['<p>Welcome Ada</p>']);
  await b.close();
});
