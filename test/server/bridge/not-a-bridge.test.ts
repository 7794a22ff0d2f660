// A bridge URL where something answers, but not a framework bridge (a web page, some other JSON):
// `svc dev --bridge-url` (the watch) and `svc workflow sync` (POST /v1/bridge/sync) both say what
// answered, in the same words (its status and content type, never its body: an answer is anyone's
// text), instead of the schema's "expected object, received undefined".
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { watchBridge } from '../../../src/server/bridge/watch.js';
import { testService } from '../../helpers/service.js';

const svc = testService();
let server: http.Server;
let base: string;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    if (req.url?.startsWith('/json')) {
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok"}');
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html' }).end('<html>hello</html>');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  svc.close();
  await new Promise((r) => server.close(r));
});

async function firstWatchLine(bridgeUrl: string): Promise<string> {
  const lines: string[] = [];
  const watch = watchBridge({ store: svc.store, environment: svc.environment, bridgeUrl, intervalMs: 60_000, log: (l) => lines.push(l) });
  await watch.ready;
  watch.stop();
  return lines[0]!;
}

describe('a URL that answers, but not as a framework bridge', () => {
  it('an HTML page: the watch says what answered, as workflow sync does', async () => {
    const url = `${base}/`;
    const line = await firstWatchLine(url);
    expect(line).toBe(`bridge: ${url} did not answer its health check as a framework bridge: HTTP 200 (text/html, 18 bytes), not JSON; waiting for it`);
    const sync = await svc.request('POST', '/v1/bridge/sync?source=cli', { body: { bridgeUrl: url } });
    expect(sync.status).toBe(422);
    expect(sync.body.message).toBe(`Bridge ${url} did not answer its health check as a framework bridge: HTTP 200 (text/html, 18 bytes), not JSON`);
    expect(`${line} ${sync.body.message}`).not.toContain('hello');
    expect(`${line} ${sync.body.message}`).not.toContain('undefined');
  });

  it('JSON of another shape: the field that is wrong is named', async () => {
    const url = `${base}/json`;
    const line = await firstWatchLine(url);
    expect(
      line.startsWith(`bridge: ${url} did not answer its health check as a framework bridge: HTTP 200 (application/json, 15 bytes) whose sdkVersion: `),
    ).toBe(true);
    expect(line).toMatch(/; waiting for it$/);
  });
});
