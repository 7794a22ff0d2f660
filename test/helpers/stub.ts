// A loopback HTTP server standing in for the service in command tests: it records every request
// (method, path, query, headers, body) and answers from a table of stubs. Like gh's stub registry,
// `assertAllUsed()` fails a test whose stubs were not all called.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { auditSecret, secretsInBody } from './audit.js';

export interface Recorded {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  body: unknown;
  rawBody: string;
}

export interface StubAnswer {
  status?: number;
  body?: unknown;
  headers?: Record<string, string>;
  /** Destroy the socket instead of answering (a dropped connection). */
  drop?: boolean;
  /** Wait this long before answering. */
  delayMs?: number;
}

type Handler = StubAnswer | ((req: Recorded, n: number) => StubAnswer);

export interface Stub {
  url: string;
  requests: Recorded[];
  on(method: string, path: string, handler: Handler): Stub;
  assertAllUsed(): void;
  close(): Promise<void>;
}

export async function startStub(): Promise<Stub> {
  const routes = new Map<string, { handler: Handler; calls: number }>();
  const requests: Recorded[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://stub');
      const rawBody = Buffer.concat(chunks).toString('utf8');
      let body: unknown;
      try {
        body = rawBody ? JSON.parse(rawBody) : undefined;
      } catch {
        body = rawBody;
      }
      const rec: Recorded = { method: req.method ?? 'GET', path: url.pathname, query: url.searchParams, headers: req.headers, body, rawBody };
      requests.push(rec);
      const route = routes.get(`${rec.method} ${rec.path}`);
      if (!route) {
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ statusCode: 404, message: `no stub for ${rec.method} ${rec.path}`, path: rec.path, timestamp: new Date().toISOString() }));
        return;
      }
      route.calls++;
      const a = typeof route.handler === 'function' ? route.handler(rec, route.calls) : route.handler;
      // Tokens and credentials the stub answers with must never be printed unmasked (secrets audit).
      auditSecret(`stub ${rec.method} ${rec.path}`, ...secretsInBody(typeof a.body === 'string' ? tryJson(a.body) : a.body));
      const answer = () => {
        if (a.drop) {
          req.socket.destroy();
          return;
        }
        const headers: Record<string, string> = { 'content-type': 'application/json', ...a.headers };
        res.writeHead(a.status ?? 200, headers);
        res.end(a.body === undefined ? '' : typeof a.body === 'string' ? a.body : JSON.stringify(a.body));
      };
      if (a.delayMs) setTimeout(answer, a.delayMs);
      else answer();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  const stub: Stub = {
    url: `http://127.0.0.1:${port}`,
    requests,
    on(method, path, handler) {
      routes.set(`${method} ${path}`, { handler, calls: 0 });
      return stub;
    },
    assertAllUsed() {
      const unused = [...routes.entries()].filter(([, r]) => r.calls === 0).map(([k]) => k);
      if (unused.length) throw new Error(`stubs never called: ${unused.join(', ')}`);
    },
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
  return stub;
}

function tryJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
