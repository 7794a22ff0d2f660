// `svc dev` and the pages that may use its Inbox: `--inbox-origin URL` (repeatable) lets another
// origin in, a bad value is a usage error, a refused page is named once on stderr with the flag that
// would let it in; and with the in-app integration's HMAC on, the start line's <Inbox/> carries the
// example subscriber's subscriberHash, which the real @novu/js client opens a session with.
import { Novu } from '@novu/js';
import { createHmac } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { svcBin } from '../helpers/bin.js';
import { api, startDev } from '../helpers/dev.js';

const session = (baseUrl: string, appId: string, origin: string) =>
  fetch(`${baseUrl}/v1/inbox/session`, {
    method: 'POST',
    headers: { origin, 'content-type': 'application/json' },
    body: JSON.stringify({ applicationIdentifier: appId, subscriberId: 'ada' }),
  });

describe('svc dev --inbox-origin', () => {
  it('refuses a value that is not an http(s) origin, naming the flag', async () => {
    const r = await svcBin(['dev', '--in-memory', '--port', '0', '--no-save-profile', '--inbox-origin', 'https://app.test/path']);
    expect(r.exitCode).toBe(2);
    expect(String(r.stderr)).toContain('--inbox-origin: expected an http(s) origin');
  });

  it('lets the given origins in besides loopback ones, and names a refused page once', async () => {
    const dev = await startDev({
      args: ['--no-save-profile', '--log', '--inbox-origin', 'https://app.example.test:8443', '--inbox-origin', 'http://intranet.test'],
    });
    try {
      const appId = String(dev.started.applicationIdentifier);
      for (const origin of ['https://app.example.test:8443', 'http://intranet.test', 'http://localhost:5173']) {
        const r = await session(dev.baseUrl, appId, origin);
        expect(r.status, origin).toBe(201);
        expect(r.headers.get('access-control-allow-origin')).toBe(origin);
      }
      expect((await session(dev.baseUrl, appId, 'https://evil.example')).status).toBe(403);
      expect((await session(dev.baseUrl, appId, 'https://evil.example')).status).toBe(403);
      // stderr is one ordered stream: once the log line of a later request is there, so is any warning before it.
      await fetch(`${dev.baseUrl}/v1/inbox/after-the-refusals`);
      await expect.poll(() => dev.stderr(), { timeout: 20_000 }).toContain('/v1/inbox/after-the-refusals');
      expect(
        dev
          .stderr()
          .split('\n')
          .filter((l) => l.includes('https://evil.example')),
      ).toEqual([expect.stringContaining('svc dev --inbox-origin https://evil.example')]);
    } finally {
      expect(await dev.stop()).toBe(0);
    }
  }, 60_000);
});

describe("svc dev's <Inbox/> with HMAC on", () => {
  it('carries the subscriberHash a session then needs', async () => {
    const dataFile = join(mkdtempSync(join(tmpdir(), 'svc-inbox-hmac-')), 'dev.sqlite');
    const apiKey = `sk_e2e_hmac_${process.pid}`;
    let dev = await startDev({ dataFile, apiKey, args: ['--no-save-profile'] });
    expect(String(dev.started.inbox)).not.toContain('subscriberHash');
    const inApp = (await api(dev, 'GET', '/v1/integrations/active')).body.data.find((i: { channel: string }) => i.channel === 'in_app');
    expect((await api(dev, 'PUT', `/v1/integrations/${inApp._id}`, { credentials: { hmac: true } })).status).toBe(200);
    expect(await dev.stop()).toBe(0);
    dev = await startDev({ dataFile, apiKey, args: ['--no-save-profile'] });
    try {
      const hash = createHmac('sha256', apiKey).update('ada').digest('hex');
      const appId = String(dev.started.applicationIdentifier);
      expect(dev.started.inbox).toBe(
        `<Inbox applicationIdentifier="${appId}" subscriberId="ada" subscriberHash="${hash}" backendUrl="${dev.baseUrl}" socketUrl="${dev.baseUrl}" />`,
      );
      const novu = new Novu({ applicationIdentifier: appId, subscriberId: 'ada', subscriberHash: hash, apiUrl: dev.baseUrl, socketUrl: dev.baseUrl } as never);
      const r = await novu.notifications.list({ limit: 1, useCache: false } as never);
      expect(r.error).toBeUndefined();
    } finally {
      expect(await dev.stop()).toBe(0);
    }
  }, 60_000);
});
