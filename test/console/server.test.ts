// The console's routes on the local service, without a browser: the page and its assets with their
// security headers, the one-time code of the printed link (works once), and the live stream (ApiKey
// auth; says "change" when the store changes, carries no data).
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consoleLinks, consoleLoginCode } from '../../src/server/console/index.js';
import { TEST_KEY, testService, type TestService } from '../helpers/service.js';

let svc: TestService;
let base: string;
beforeAll(async () => {
  // The routes serve dist/console: build it once if this checkout has not been built.
  if (!existsSync(new URL('../../dist/console/index.html', import.meta.url))) execFileSync(process.execPath, ['scripts/build.mjs'], { stdio: 'inherit' });
  svc = testService();
  await svc.app.listen({ host: '127.0.0.1', port: 0 });
  const addr = svc.app.server.address() as { port: number };
  base = `http://127.0.0.1:${addr.port}`;
});
afterAll(async () => {
  await svc?.close();
});

describe('console routes', () => {
  it('serves the page, its script and styles with a strict content security policy', async () => {
    const root = await svc.app.inject({ method: 'GET', url: '/' });
    expect(root.statusCode).toBe(302);
    expect(root.headers.location).toBe('/console/');
    const page = await svc.app.inject({ method: 'GET', url: '/console/' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.body).toContain('/console/app.js');
    const csp = String(page.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(page.headers['referrer-policy']).toBe('no-referrer');
    const js = await svc.app.inject({ method: 'GET', url: '/console/app.js' });
    expect(js.statusCode).toBe(200);
    expect(js.headers['content-type']).toMatch(/^text\/javascript/);
    // Bundled, no CDN: the script loads nothing from elsewhere.
    expect(js.body).not.toMatch(/https?:\/\/(unpkg|cdn|esm\.sh)/);
    expect((await svc.app.inject({ method: 'GET', url: '/console/app.css' })).statusCode).toBe(200);
    // The API keeps its own 404s.
    expect((await svc.request('GET', '/console/nope')).body.message).toBe('Cannot GET /console/nope');
  });

  it('trades a one-time code for the key exactly once', async () => {
    const { url, link } = consoleLinks(svc.app, base);
    expect(url).toBe(`${base}/console/`);
    const code = new URL(link).hash.replace('#code=', '');
    expect(code).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(link).not.toContain(TEST_KEY);
    const first = await svc.request('POST', '/console/session', { body: { code }, key: null });
    expect(first.status).toBe(201);
    expect(first.body.data.apiKey).toBe(TEST_KEY);
    const again = await svc.request('POST', '/console/session', { body: { code }, key: null });
    expect(again.status).toBe(401);
    expect(again.body.message).toMatch(/already used or has expired/);
    const wrong = await svc.request('POST', '/console/session', { body: { code: `${consoleLoginCode(svc.app).slice(0, -1)}x` }, key: null });
    expect(wrong.status).toBe(401);
    expect((await svc.request('POST', '/console/session', { body: {}, key: null })).status).toBe(400);
  });

  it('streams a change when the store changes, under the API key only', async () => {
    const refused = await fetch(`${base}/console/live`);
    expect(refused.status).toBe(401);
    const wrongKey = await fetch(`${base}/console/live`, { headers: { authorization: 'ApiKey sk_nope' } });
    expect(wrongKey.status).toBe(401);

    const ac = new AbortController();
    const res = await fetch(`${base}/console/live`, { headers: { authorization: `ApiKey ${TEST_KEY}` }, signal: ac.signal });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
    let text = '';
    const until = async (pattern: RegExp) => {
      const deadline = Date.now() + 5000;
      while (!pattern.test(text)) {
        if (Date.now() > deadline) throw new Error(`no ${pattern} in ${JSON.stringify(text)}`);
        const { value, done } = await reader.read();
        if (done) throw new Error('stream ended');
        text += value;
      }
    };
    await until(/event: ready/);
    expect(text).not.toMatch(/event: change/);
    const t = await svc.request('POST', '/v1/events/trigger', { body: { name: 'welcome', to: 'ada' } });
    expect(t.status).toBe(201);
    await until(/event: change\ndata: \{"changes":\d+\}/);
    // A signal only: no record, no subscriber, no key travels on the stream.
    expect(text).not.toMatch(/ada|welcome|sk_/);
    ac.abort();
  });
});
