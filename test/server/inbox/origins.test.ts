// Who may use the Inbox API and its socket from a web page: pages of this machine's loopback origins
// (localhost, 127.0.0.0/8, [::1], any port), of the service's own address when it is an IP address,
// and of the origins given with --inbox-origin. Any other page is refused (403, no CORS answer, no
// socket), whatever headers it asks for; nothing is answered for credentials (tokens are Bearer).
// Requests without an Origin (servers, the Node client) are not a page's and pass.
import { request } from 'node:http';
import { io, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InboxOrigins, originOf } from '../../../src/server/inbox/origins.js';
import { type Listening, listening } from './helpers.js';

let s: Listening;
const warnings: string[] = [];
beforeAll(async () => {
  s = await listening({ inboxOrigins: ['https://app.example.test:8443'], warn: (l) => warnings.push(l) });
});
afterAll(() => s.close());

const preflight = (origin: string, headers = 'authorization,content-type') =>
  fetch(`${s.base}/v1/inbox/session`, {
    method: 'OPTIONS',
    headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': headers },
  });
const session = (origin: string | undefined) =>
  s.inbox('POST', '/session', undefined, { applicationIdentifier: s.appId, subscriberId: 'ada' }, origin ? { origin } : {});

/** Whether a socket.io client sending this Origin gets through the handshake (websocket, then polling). */
async function socketOpens(origin: string, transport: 'websocket' | 'polling'): Promise<boolean> {
  const token = await s.session('ada');
  const socket: Socket = io(s.base, { transports: [transport], query: { token }, extraHeaders: { origin }, reconnection: false, timeout: 5_000 });
  try {
    return await new Promise<boolean>((resolve) => {
      socket.on('connect', () => resolve(true));
      socket.on('connect_error', () => resolve(false));
    });
  } finally {
    socket.close();
  }
}

describe('the Inbox API and socket, by the origin of the page', () => {
  it('let in loopback origins on any port, and answer them without credentials', async () => {
    for (const origin of ['http://localhost:5173', 'http://127.0.0.1:8080', 'http://127.3.4.5', 'http://[::1]:3000', 'https://localhost']) {
      const pre = await preflight(origin);
      expect(pre.status, origin).toBe(204);
      expect(pre.headers.get('access-control-allow-origin')).toBe(origin);
      expect(pre.headers.get('access-control-allow-credentials')).toBeNull();
      const r = await session(origin);
      expect(r.status, origin).toBe(201);
      expect(r.headers.get('access-control-allow-origin')).toBe(origin);
      expect(r.headers.get('access-control-allow-credentials')).toBeNull();
    }
  });

  it('refuse every other page, and the service warns once per origin', async () => {
    for (const origin of ['https://evil.example', 'http://localhost.evil.example:5173', 'http://192.168.1.20:3000', 'null', 'http://127.0.0.1.evil.example']) {
      const pre = await preflight(origin);
      expect(pre.status, origin).toBe(403);
      expect(pre.headers.get('access-control-allow-origin')).toBeNull();
      const r = await session(origin);
      expect(r.status, origin).toBe(403);
      expect(r.headers.get('access-control-allow-origin')).toBeNull();
      expect(r.body.message).toContain('--inbox-origin');
    }
    // A token from elsewhere does not help a refused page either.
    const token = await s.session('ada');
    expect((await s.inbox('GET', '/notifications', token, undefined, { origin: 'https://evil.example' })).status).toBe(403);
    expect(warnings.filter((w) => w.includes('https://evil.example'))).toHaveLength(1);
    expect(warnings[0]).toContain('svc dev --inbox-origin https://evil.example');
  });

  it('never echo the headers a page asks for', async () => {
    const pre = await preflight('http://localhost:5173', 'authorization,x-steal-this');
    expect(pre.status).toBe(204);
    const allowed = pre.headers.get('access-control-allow-headers')!.toLowerCase();
    expect(allowed).not.toContain('x-steal-this');
    expect(allowed.split(',')).toEqual(expect.arrayContaining(['authorization', 'content-type', 'novu-client-version', 'novu-api-version']));
  });

  it('let in the origins given with --inbox-origin, and no others of that host', async () => {
    expect((await session('https://app.example.test:8443')).status).toBe(201);
    expect((await session('https://app.example.test')).status).toBe(403);
    expect((await session('http://app.example.test:8443')).status).toBe(403);
  });

  it("let in the service's own origin when it is addressed by IP, not by a name", async () => {
    // fetch sets Host itself: node:http sends the Host a browser would (the address in its bar).
    const asAddressed = (origin: string, host: string) =>
      new Promise<number>((resolve, reject) => {
        const body = JSON.stringify({ applicationIdentifier: s.appId, subscriberId: 'ada' });
        const req = request(`${s.base}/v1/inbox/session`, { method: 'POST', headers: { origin, host, 'content-type': 'application/json' } }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        });
        req.on('error', reject);
        req.end(body);
      });
    expect(await asAddressed('http://10.1.2.3:2999', '10.1.2.3:2999')).toBe(201);
    // A name pointed at this machine by someone else's DNS would make their page "same-origin".
    expect(await asAddressed('http://attacker.example:2999', 'attacker.example:2999')).toBe(403);
  });

  it('let requests without an Origin pass (servers, the Node client)', async () => {
    expect((await session(undefined)).status).toBe(201);
    expect(await socketOpens('http://localhost:5173', 'websocket')).toBe(true);
  });

  it('hold the socket to the same rule, over WebSocket and long-polling', async () => {
    expect(await socketOpens('http://127.0.0.1:9999', 'websocket')).toBe(true);
    expect(await socketOpens('http://127.0.0.1:9999', 'polling')).toBe(true);
    expect(await socketOpens('https://evil.example', 'websocket')).toBe(false);
    expect(await socketOpens('https://evil.example', 'polling')).toBe(false);
    expect(await socketOpens('https://app.example.test:8443', 'websocket')).toBe(true);
  });
});

describe('the origin rule itself', () => {
  it('reads given origins as scheme, host and port only', () => {
    expect(originOf('https://App.Example.test:8443/')).toBe('https://app.example.test:8443');
    expect(originOf('http://localhost:5173')).toBe('http://localhost:5173');
    for (const bad of ['app.example.test', 'ftp://x.test', 'https://x.test/app', 'https://u:p@x.test', 'https://x.test?q=1', '*'])
      expect(originOf(bad), bad).toBeUndefined();
  });

  it('tells loopback from everything else', () => {
    const o = new InboxOrigins();
    for (const yes of ['http://localhost', 'http://127.255.0.1:1', 'http://[::1]']) expect(o.allows(yes), yes).toBe(true);
    for (const no of ['http://128.0.0.1', 'http://[::2]', 'http://localhost:5173/path', 'file://', 'null', 'http://0.0.0.0:80'])
      expect(o.allows(no), no).toBe(false);
  });
});
