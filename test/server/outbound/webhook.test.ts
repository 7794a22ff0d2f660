import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
// Webhooks (http_request steps, webhook providers) through the outbound module against a loopback
// receiver: the signature a receiver verifies, retries, timeouts, the answer's cap, the guard.
import { checkTarget, isLoopbackAddress, signature } from '../../../src/server/outbound/index.js';
import { deliverWebhook, SIGNATURE_HEADER, webhookRaw } from '../../../src/server/runner/webhook.js';
import { verifySignature } from '../../helpers/signature.js';

interface Received {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

let server: Server;
let base: string;
const received: Received[] = [];
let handler: (req: Received, res: ServerResponse, count: number) => void = (_req, res) => res.end('ok');

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const entry = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      received.push(entry);
      handler(entry, res, received.length);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

beforeEach(() => {
  received.length = 0;
  handler = (_req, res) => res.end('ok');
});

const now = Date.UTC(2025, 0, 1);
const base_ = { allowRemote: false };

describe('deliverWebhook', () => {
  it('posts signed JSON that the receiver can verify, and returns the response', async () => {
    handler = (req, res) => {
      const check = verifySignature('s3cret', req.headers[SIGNATURE_HEADER] as string, req.body, { now: Date.now() });
      res.writeHead(check.ok ? 200 : 401, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ verified: check.ok }));
    };
    const result = await deliverWebhook({ url: `${base}/hook`, body: { text: 'hi "there"' }, secret: 's3cret', headers: { 'X-Extra': '1' }, ...base_ });
    expect(result).toMatchObject({ ok: true, status: 200, body: '{"verified":true}', attempts: 1, method: 'POST' });
    const t = Number(/^t=(\d+),/.exec(result.signature!)![1]);
    expect(result.signature).toBe(signature('s3cret', '{"text":"hi \\"there\\""}', t));
    expect(received[0]?.headers).toMatchObject({ 'content-type': 'application/json', 'x-extra': '1' });
    expect(received[0]?.body).toBe('{"text":"hi \\"there\\""}');
    // What was sent is kept beside the answer (the web console's "Provider request").
    expect(result.requestBody).toBe(received[0]?.body);
  });

  it('retries 5xx with backoff until it succeeds', async () => {
    handler = (_req, res, count) => {
      res.statusCode = count < 3 ? 503 : 200;
      res.end(count < 3 ? 'busy' : 'done');
    };
    const result = await deliverWebhook({ url: base, body: {}, retries: 3, backoffMs: 5, ...base_ });
    expect(result).toMatchObject({ ok: true, status: 200, body: 'done', attempts: 3 });
    expect(result.error).toBeUndefined();
  });

  it('a stop during the wait between attempts ends it at once, reporting the last error', async () => {
    handler = (_req, res) => {
      res.statusCode = 503;
      res.end('busy');
    };
    const stop = new AbortController();
    setTimeout(() => stop.abort(), 50);
    const started = Date.now();
    const result = await deliverWebhook({ url: base, body: {}, retries: 3, backoffMs: 10_000, ...base_, signal: stop.signal });
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(result).toMatchObject({ ok: false, attempts: 1, error: 'HTTP 503' });
  });

  it('does not retry a 4xx', async () => {
    handler = (_req, res) => {
      res.statusCode = 404;
      res.end('nope');
    };
    expect(await deliverWebhook({ url: base, body: {}, retries: 3, backoffMs: 5, ...base_ })).toMatchObject({
      ok: false,
      status: 404,
      body: 'nope',
      attempts: 1,
    });
  });

  it('gives up after the retries, with the last error', async () => {
    handler = (_req, res) => {
      res.statusCode = 500;
      res.end('boom');
    };
    expect(await deliverWebhook({ url: base, body: {}, retries: 1, backoffMs: 5, ...base_ })).toMatchObject({
      ok: false,
      status: 500,
      attempts: 2,
      error: 'HTTP 500',
    });
  });

  it('times out each attempt', async () => {
    handler = (_req, res) => setTimeout(() => res.end('late'), 300);
    const result = await deliverWebhook({ url: base, body: {}, timeoutMs: 50, retries: 1, backoffMs: 5, ...base_ });
    expect(result).toMatchObject({ ok: false, attempts: 2, error: 'no answer within 50 ms' });
    expect(result.status).toBeUndefined();
  });

  it('reports connection errors', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const result = await deliverWebhook({ url: `http://127.0.0.1:${port}/`, body: {}, retries: 1, backoffMs: 5, ...base_ });
    expect(result).toMatchObject({ ok: false, attempts: 2 });
    expect(result.error).toMatch(/ECONNREFUSED|connect/);
  });

  it('sends GET without a body and truncates long responses', async () => {
    handler = (_req, res) => res.end('x'.repeat(5000));
    const result = await deliverWebhook({ url: `${base}/q?a=1`, method: 'GET', body: { ignored: true }, maxBodyBytes: 100, ...base_ });
    expect(received[0]).toMatchObject({ method: 'GET', url: '/q?a=1', body: '' });
    expect(received[0]?.headers['content-type']).toBeUndefined();
    expect(result).toMatchObject({ ok: true, truncated: true });
    expect(result.body).toHaveLength(100);
  });

  it('sends a string body as text and works through localhost', async () => {
    const url = base.replace('127.0.0.1', 'localhost');
    const result = await deliverWebhook({ url, method: 'PUT', body: 'plain', ...base_ });
    expect(result.ok).toBe(true);
    expect(received[0]).toMatchObject({ method: 'PUT', body: 'plain', headers: { 'content-type': 'text/plain; charset=utf-8' } });
  });

  it('refuses non-loopback targets unless allowed, before sending anything', async () => {
    const refused = await deliverWebhook({ url: 'http://192.0.2.10/hook', body: {}, ...base_ });
    expect(refused).toMatchObject({ ok: false, attempts: 0 });
    expect(refused.error).toBe(
      'refusing to connect to 192.0.2.10: only loopback targets (127.0.0.0/8, ::1, localhost) are allowed; start svc dev with --allow-remote-webhooks to allow others',
    );
    expect(await checkTarget('http://192.0.2.10/', true)).toMatchObject({ ok: true });
    expect(await checkTarget('ftp://127.0.0.1/', false)).toMatchObject({ ok: false, error: expect.stringMatching(/unsupported URL scheme/) });
    expect(await checkTarget('not a url', false)).toMatchObject({ ok: false });
  });
});

describe('signatures', () => {
  it('recognises loopback addresses', () => {
    for (const a of ['127.0.0.1', '127.255.0.9', '::1', '[::1]', '::ffff:127.0.0.1']) expect(isLoopbackAddress(a)).toBe(true);
    for (const a of ['10.0.0.1', '192.0.2.1', '::2', 'localhost', '128.0.0.1']) expect(isLoopbackAddress(a)).toBe(false);
  });

  it('verifies a signature, and rejects a changed body, a wrong secret, an old timestamp and garbage', () => {
    const header = signature('k', '{"a":1}', now);
    expect(header).toMatch(/^t=1735689600000,v1=[0-9a-f]{64}$/);
    expect(verifySignature('k', header, '{"a":1}', { now })).toEqual({ ok: true, timestamp: now });
    expect(verifySignature('k', header, '{"a":2}', { now })).toEqual({ ok: false, reason: 'signature mismatch' });
    expect(verifySignature('other', header, '{"a":1}', { now })).toMatchObject({ ok: false });
    expect(verifySignature('k', header, '{"a":1}', { now: now + 10 * 60_000 })).toMatchObject({ ok: false, reason: expect.stringMatching(/tolerance/) });
    expect(verifySignature('k', 'nonsense', '{"a":1}', { now })).toMatchObject({ ok: false, reason: expect.stringMatching(/malformed/) });
    expect(verifySignature('k', undefined, '', { now })).toMatchObject({ ok: false });
  });

  it('keeps the execution detail raw under its limit', () => {
    const raw = webhookRaw({ ok: true, url: 'u', method: 'POST', body: 'y'.repeat(20_000), attempts: 1, durationMs: 3 });
    expect(raw.length).toBe(10_240);
    expect(raw.endsWith('... [truncated]')).toBe(true);
    expect(JSON.parse(webhookRaw({ ok: true, url: 'u', method: 'POST', attempts: 1, durationMs: 3 }))).toMatchObject({ ok: true });
  });
});
