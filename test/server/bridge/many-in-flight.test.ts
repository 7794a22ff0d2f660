// With many calls to a team's app in flight, svc dev keeps some 110 of them in the app at once (the
// code-first slots and the shared ones), and the answers, coming back spread over some 100 ms, leave
// each event its own timeline and message.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { workflow } from '@novu/framework';
import { afterEach, expect, it, vi } from 'vitest';
import { fileService } from '../runner/helpers.js';
import { startBridgeApp, type BridgeApp } from './app.js';

const EVENTS = 100;
let release: () => void = () => {};
let app: BridgeApp | undefined;
afterEach(async () => {
  release();
  await app?.close();
  vi.restoreAllMocks();
});

it('100 events: all first steps in the app at once; the answers leave each event its own timeline and message', async () => {
  vi.spyOn(console, 'log').mockImplementation(() => {});
  const gate = new Promise<void>((r) => (release = r));
  let inApp = 0;
  const paced = workflow(
    'paced-code',
    async ({ step, payload }) => {
      await step.inApp('first', async () => {
        const turn = inApp++;
        await gate;
        // The answers leave the app spread over some 100 ms, as from a busy app.
        await new Promise((r) => setTimeout(r, turn));
        return { body: `one ${payload.n}` };
      });
    },
    { payloadSchema: { type: 'object', properties: { n: { type: 'number' } }, required: ['n'], additionalProperties: false } as const },
  );
  app = await startBridgeApp([paced], 'sk_test_0123456789abcdef');
  const file = join(mkdtempSync(join(tmpdir(), 'svc-bridge-settle-')), 'store.sqlite');
  const svc = fileService(file, Date.parse('2026-03-01T10:00:00.000Z'));
  try {
    expect((await svc.request('POST', '/v1/bridge/sync?source=cli', { body: { bridgeUrl: app.url } })).status).toBe(201);
    const to = Array.from({ length: EVENTS }, (_, i) => `u${i}`);
    for (const [i, s] of to.entries()) {
      expect((await svc.request('POST', '/v1/events/trigger', { body: { name: 'paced-code', to: s, payload: { n: i } } })).status).toBe(201);
    }
    // 100 calls in flight at once: more than the shared slots and the code-first ones before (16 + 48).
    await vi.waitFor(() => expect(inApp).toBe(EVENTS), { timeout: 10_000 });
    release();
    await svc.runner.idle();

    const feed: any[] = [];
    for (let page = 0; page < EVENTS / 50; page++) feed.push(...(await svc.request('GET', `/v1/notifications?limit=50&page=${page}`)).body.data);
    expect(feed).toHaveLength(EVENTS);
    for (const n of feed) {
      expect(n.jobs.map((j: any) => j.status)).toEqual(['completed']);
      const details = n.jobs[0].executionDetails.map((d: any) => d.detail);
      expect(details[0]).toBe('Step queued');
      expect(details[1]).toBe('Step running');
      expect(details[2]).toMatch(/^Step executed by the bridge .* ms: .*"body":"one \d+"/);
    }
    const messages: any[] = [];
    for (let page = 0; page < EVENTS / 50; page++) messages.push(...(await svc.request('GET', `/v1/messages?channel=in_app&limit=50&page=${page}`)).body.data);
    expect(messages.map((m) => m.content).sort()).toEqual(to.map((_, i) => `one ${i}`).sort());
  } finally {
    release();
    await svc.close();
  }
});
