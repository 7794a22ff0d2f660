// The outbound module's send() against a loopback server: one signature per attempt over the text
// sent (a body-less request signed over what the caller names), the content type kept, keep-alive
// connections shared between requests, an answer past its cap cut or failed, Retry-After honoured,
// and a refusal that names the flag and sends nothing.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { send, whatAnswered } from '../../../src/server/outbound/index.js';
import { verifySignature } from '../../helpers/signature.js';

let server: http.Server;
let base: string;
const hits: { method: string; headers: http.IncomingHttpHeaders; body: string; socket: unknown }[] = [];
let answer: (n: number, res: http.ServerResponse) => void;

beforeAll(async () => {
  server = http.createServer(async (req, res) => {
    let body = '';
    for await (const c of req) body += c;
    hits.push({ method: req.method!, headers: req.headers, body, socket: req.socket });
    answer(hits.length, res);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});
beforeEach(() => {
  hits.length = 0;
  answer = (_n, res) => res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' }).end('{"ok":true}');
});

const local = { allowRemote: false, allowFlag: '--allow-remote-bridge' };

describe('send', () => {
  it('signs each attempt over the text sent, under every header named; a GET over the text the caller names', async () => {
    answer = (n, res) => res.writeHead(n === 1 ? 503 : 200).end('');
    const r = await send({ ...local, url: `${base}/a`, body: '{"x":1}', sign: { secret: 'k', headers: ['a-sig', 'b-sig'] }, backoffMs: () => 1 });
    expect(r).toMatchObject({ ok: true, status: 200, attempts: 2 });
    for (const h of hits) {
      expect(h.headers['b-sig']).toBe(h.headers['a-sig']);
      expect(verifySignature('k', h.headers['a-sig'] as string, '{"x":1}', { now: Date.now() })).toMatchObject({ ok: true });
    }
    await send({ ...local, url: `${base}/b`, method: 'GET', sign: { secret: 'k', headers: ['a-sig'], emptyBody: '{}' } });
    expect(verifySignature('k', hits.at(-1)!.headers['a-sig'] as string, '{}', { now: Date.now() })).toMatchObject({ ok: true });
  });

  it('shares keep-alive connections between requests', async () => {
    for (let i = 0; i < 6; i++) expect((await send({ ...local, url: `${base}/c${i}` })).ok).toBe(true);
    // A connection goes back to the pool a moment after its answer is read: one more may be opened meanwhile.
    expect(new Set(hits.map((h) => h.socket)).size).toBeLessThanOrEqual(2);
  });

  it('keeps the content type; what answered is said without the body', async () => {
    answer = (_n, res) => res.writeHead(404, { 'content-type': 'text/html' }).end('<script>alert(1)</script>');
    const r = await send({ ...local, url: `${base}/d`, retries: 0 });
    expect(r).toMatchObject({ ok: false, status: 404, contentType: 'text/html', error: 'HTTP 404' });
    expect(whatAnswered(r)).toBe('HTTP 404 (text/html, 25 bytes)');
  });

  it('an answer past its cap: cut when asked, else a failed attempt', async () => {
    answer = (_n, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('x'.repeat(50_000));
    expect(await send({ ...local, url: `${base}/e`, maxAnswerBytes: 100, overLimit: 'truncate' })).toMatchObject({
      ok: true,
      truncated: true,
      body: 'x'.repeat(100),
    });
    expect(await send({ ...local, url: `${base}/f`, maxAnswerBytes: 100, retries: 0 })).toMatchObject({ ok: false, error: 'answer larger than 100 bytes' });
  });

  it('waits as long as Retry-After says before trying again', async () => {
    answer = (n, res) => (n === 1 ? res.writeHead(429, { 'retry-after': '1' }).end() : res.writeHead(200).end());
    const started = Date.now();
    const r = await send({ ...local, url: `${base}/g`, backoffMs: () => 1 });
    expect(r).toMatchObject({ ok: true, attempts: 2 });
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
  });

  it('refuses a non-loopback address before sending anything, naming the flag; never tried again', async () => {
    const r = await send({ ...local, url: 'http://192.0.2.1:9/x', retries: 3 });
    expect(r).toMatchObject({ ok: false, refused: true, attempts: 0 });
    expect(r.error).toBe(
      'refusing to connect to 192.0.2.1: only loopback targets (127.0.0.0/8, ::1, localhost) are allowed; start svc dev with --allow-remote-bridge to allow others',
    );
    expect(await send({ ...local, url: 'ftp://127.0.0.1/' })).toMatchObject({ ok: false, error: 'unsupported URL scheme "ftp:", use http or https' });
    expect((await send({ ...local, url: base.replace('127.0.0.1', 'localhost') })).ok).toBe(true);
  });
});
