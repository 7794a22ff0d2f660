// A loopback HTTP server standing in for the service in command tests: it records every request
// (method, path, query, headers, body) and answers from a table of stubs. Strict by default, like gh's
// stub registry: a request no stub answers (answered 404 "no stub") and a stub never called both fail the
// test when the stub is closed (`afterEach(() => stub.close())`). `startStub({ strict: false })` is for
// tests that send whatever a generator makes up.
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
  /** Requests no stub answered. */
  unexpected: Recorded[];
  on(method: string, path: string, handler: Handler): Stub;
  /** Fails when a stub was never called. */
  assertAllUsed(): void;
  /** Fails when a request had no stub or a stub was never called (what close() checks when strict). */
  verify(): void;
  /** Stops the server; when strict, then verifies. */
  close(): Promise<void>;
}

export interface StubOptions {
  /** Default true: close() fails on an unexpected request or an unused stub. */
  strict?: boolean;
  /** Stubs shared by every test of a file, some of which send nothing: unused ones are allowed. */
  allowUnused?: boolean;
}

export async function startStub(opts: StubOptions = {}): Promise<Stub> {
  const strict = opts.strict ?? true;
  const routes = new Map<string, { handler: Handler; calls: number }>();
  const requests: Recorded[] = [];
  const unexpected: Recorded[] = [];
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
        unexpected.push(rec);
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
    unexpected,
    on(method, path, handler) {
      routes.set(`${method} ${path}`, { handler, calls: 0 });
      return stub;
    },
    assertAllUsed() {
      const unused = [...routes.entries()].filter(([, r]) => r.calls === 0).map(([k]) => k);
      if (unused.length) throw new Error(`stubs never called: ${unused.join(', ')}`);
    },
    verify() {
      if (unexpected.length) throw new Error(`requests without a stub: ${unexpected.map((r) => `${r.method} ${r.path}`).join(', ')}`);
      if (!opts.allowUnused) stub.assertAllUsed();
    },
    async close() {
      await new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      });
      if (strict) stub.verify();
    },
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
