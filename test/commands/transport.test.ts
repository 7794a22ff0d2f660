// The transport under the HTTP core: Node's own client (src/api/node-transport.ts), or undici's when a
// proxy is set. Whichever client carries a request, the
// service receives the same request and the user reads the same words when it fails: each fault below
// is sent once through each client, through the real ApiClient, against a loopback server.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { Agent, type Dispatcher } from 'undici';
import { ApiClient } from '../../src/api/client.js';
import { NodeTransport, createDispatcher } from '../../src/api/node-transport.js';

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

const BODY = JSON.stringify({ data: [{ identifier: 'mail', name: 'Mail ✉' }] });
const seen: Seen[] = [];
let server: Server;
let base: string;

// One path per behaviour of the service.
const routes: Record<string, (req: IncomingMessage, res: ServerResponse) => void> = {
  '/ok': (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'x-request-id': 'req-1', 'set-cookie': ['a=1', 'b=2'] });
    res.end(BODY);
  },
  '/created': (_req, res) => {
    res.writeHead(201, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ data: { acknowledged: true } }));
  },
  // The connection is closed before any answer.
  '/drop': (req) => req.socket.destroy(),
  // Headers and half the body, then the connection is closed.
  '/cut': (req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
    res.write('{"data":[');
    setTimeout(() => req.socket.destroy(), 20);
  },
  // No answer within the client's timeout.
  '/slow': (_req, res) => {
    setTimeout(() => {
      if (!res.destroyed) res.end('{}');
    }, 10_000).unref();
  },
  // Headers at once, the body never.
  '/slow-body': (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write('{"data":');
  },
  '/error': (_req, res) => {
    res.writeHead(503, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ statusCode: 503, message: 'Service Unavailable' }));
  },
};

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (body += c));
    req.on('end', () => {
      seen.push({ method: req.method!, url: req.url!, headers: req.headers, body });
      (routes[new URL(req.url!, 'http://x').pathname] ?? routes['/ok']!)(req, res);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(
  () =>
    new Promise<void>((r) => {
      server.closeAllConnections();
      server.close(() => r());
    }),
);

// Long enough that a stall of a loaded machine does not turn a closed connection into a timeout.
const OPTS = { headersTimeout: 1500, bodyTimeout: 1500, connectTimeout: 1500 };

/** A client whose every request goes through one transport. */
function clientOver(kind: 'node:http' | 'undici', baseUrl = base) {
  const dispatcher = kind === 'undici' ? new Agent({ ...OPTS, keepAliveTimeout: 10_000 }) : (new NodeTransport() as unknown as Dispatcher);
  return {
    client: new ApiClient({ baseUrl, apiKey: 'sk_test_0123456789abcdef', timeoutMs: 1500, retries: 0, userAgent: 'svc-test', dispatcher }),
    close: () => dispatcher.close(),
  };
}

async function failureOf(kind: 'node:http' | 'undici', method: string, path: string, baseUrl?: string): Promise<string> {
  const { client, close } = clientOver(kind, baseUrl);
  try {
    await client.send({ method, path, ...(method === 'POST' ? { body: { name: 'w' } } : {}) });
    return 'no error';
  } catch (e) {
    return (e as Error).message;
  } finally {
    await close();
  }
}

describe('node:http and undici say the same', () => {
  test.each([
    ['GET', '/drop', /^GET \/drop: lost the connection to 127\.0\.0\.1:\d+ before an answer: connection closed by the server \(1 attempt\)$/],
    ['POST', '/drop', /^POST \/drop: lost the connection to .* before an answer: connection closed by the server \(1 attempt\)$/],
    ['GET', '/cut', /^GET \/cut: the answer from 127\.0\.0\.1:\d+ \(HTTP 200\) was cut short: connection closed by the server \(1 attempt\)$/],
    ['GET', '/slow', /^GET \/slow: no answer from 127\.0\.0\.1:\d+ within 1\.5s \(1 attempt\)$/],
    ['GET', '/slow-body', /^GET \/slow-body: no answer from 127\.0\.0\.1:\d+ within 1\.5s \(1 attempt\)$/],
    ['GET', '/error', /^GET \/error failed: 503 Service Unavailable$/],
  ])('%s %s', async (method, path, expected) => {
    const viaNode = await failureOf('node:http', method, path);
    const viaUndici = await failureOf('undici', method, path);
    expect(viaNode).toMatch(expected);
    expect(viaNode).toBe(viaUndici);
  });

  test('connection refused', async () => {
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
    await new Promise<void>((r) => closed.close(() => r()));
    const viaNode = await failureOf('node:http', 'GET', '/ok', url);
    expect(viaNode).toMatch(/^GET \/ok: could not reach 127\.0\.0\.1:\d+: connection refused \(1 attempt\)$/);
    expect(viaNode).toBe(await failureOf('undici', 'GET', '/ok', url));
  });

  test('the service receives the same request, and the client reads the same answer', async () => {
    const answers = [];
    const requests = [];
    for (const kind of ['node:http', 'undici'] as const) {
      const { client, close } = clientOver(kind);
      const from = seen.length;
      answers.push(
        await client.send({
          method: 'POST',
          path: '/created',
          query: { a: 'x y', b: ['1', '2'] },
          body: { name: 'wf', payload: { city: 'Zürich' } },
          idempotencyKey: 'k-1',
        }),
      );
      answers.push(await client.send({ method: 'GET', path: '/ok' }));
      await close();
      const [post, get] = seen.slice(from);
      // Headers that belong to the connection rather than the request may differ.
      const strip = (h: Seen['headers']) => Object.fromEntries(Object.entries(h).filter(([k]) => !['connection', 'host', 'keep-alive'].includes(k)));
      requests.push([post!.method, post!.url, strip(post!.headers), post!.body, get!.method, get!.url, strip(get!.headers)]);
    }
    expect(requests[0]).toEqual(requests[1]);
    expect(requests[0]![3]).toBe(JSON.stringify({ name: 'wf', payload: { city: 'Zürich' } }));
    expect(requests[0]![2]).toMatchObject({
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(requests[0]![3] as string)),
      'idempotency-key': 'k-1',
    });
    const [nodePost, nodeGet, undiciPost, undiciGet] = answers;
    expect(nodePost!.status).toBe(201);
    expect(nodeGet).toMatchObject({ status: 200, data: [{ identifier: 'mail', name: 'Mail ✉' }], requestId: 'req-1' });
    expect(nodeGet!.headers['set-cookie']).toBe('a=1, b=2');
    expect(nodeGet!.data).toEqual(undiciGet!.data);
    expect(nodeGet!.headers['set-cookie']).toBe(undiciGet!.headers['set-cookie']);
    expect(nodePost!.data).toEqual(undiciPost!.data);
  });
});

describe('createDispatcher', () => {
  test("no proxy: Node's client carries every request of a client, concurrent ones and a retry after a dropped connection", async () => {
    let n = 0;
    routes['/flaky'] = (req, res) => {
      if (++n === 1) req.socket.destroy();
      else routes['/ok']!(req, res);
    };
    const d = await createDispatcher({}, OPTS);
    expect(d).toBeInstanceOf(NodeTransport);
    const client = new ApiClient({ baseUrl: base, timeoutMs: 1000, retries: 2, userAgent: 'svc-test', dispatcher: d, sleep: async () => undefined });
    expect(await client.send({ method: 'GET', path: '/flaky' })).toMatchObject({ status: 200, attempts: 2 });
    const more = await Promise.all([1, 2, 3].map(() => client.send({ method: 'GET', path: '/ok' })));
    expect(more.map((r) => r.status)).toEqual([200, 200, 200]);
    await d.close();
  });

  test("HTTP_PROXY: undici's proxy agent from the first request", async () => {
    const proxied = await createDispatcher({ HTTP_PROXY: 'http://127.0.0.1:9' }, OPTS);
    expect(proxied).not.toBeInstanceOf(NodeTransport);
    expect(proxied.constructor.name).toBe('EnvHttpProxyAgent');
    await proxied.close();
  });
});

describe('NodeTransport', () => {
  test('an aborted request rejects with the signal reason, and a closed transport refuses requests', async () => {
    const t = new NodeTransport();
    const ac = new AbortController();
    const pending = t.request({ origin: base, path: '/slow', method: 'GET', signal: ac.signal });
    setTimeout(() => ac.abort(new Error('stop')), 30);
    await expect(pending).rejects.toThrow('stop');
    await t.close();
    await expect(t.request({ origin: base, path: '/ok', method: 'GET' })).rejects.toMatchObject({ code: 'UND_ERR_CLOSED' });
  });

  test('keeps the connection for a later request', async () => {
    const t = new NodeTransport();
    const ports = new Set<number>();
    const onConn = (s: import('node:net').Socket) => ports.add(s.remotePort!);
    server.on('connection', onConn);
    for (let i = 0; i < 3; i++) {
      const r = await t.request({ origin: base, path: '/ok', method: 'GET' });
      expect(JSON.parse(await r.body.text())).toEqual(JSON.parse(BODY));
    }
    server.off('connection', onConn);
    expect(ports.size).toBe(1);
    await t.close();
  });
});
