// The local service under fuzzed input, beyond test/server/fuzz.test.ts (random JSON to every route):
// bodies that are valid but for one field (they get past the first check and reach the handlers),
// bodies that are not JSON or not JSON objects, bodies nested thousands of levels deep, bodies over
// the size limit, malformed URLs and over-long path parameters, odd query keys, and odd headers
// (idempotency keys, authorization). For every route of the operation table: a 2xx, or a 4xx in the
// service's one error shape; never a 5xx, never a crash.
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { bodyLimitFor } from '../../src/api/limits.js';
import { operationList, type Operation } from '../../src/api/operations.js';
import { ErrorBody } from '../../src/api/schemas/common.js';
import { testService, TEST_KEY } from '../helpers/service.js';
import { figures } from './util.js';

const internal: unknown[] = [];
const svc = testService({ onInternalError: (e) => internal.push(e) });
afterAll(() => svc.close());

const ID = 'aaaaaaaaaaaaaaaaaaaaaaaa';
/** A body each operation accepts (or at least validates), and values for its path parameters. */
const valid: Record<string, { params?: Record<string, string>; body?: unknown }> = {
  previewStep: {
    params: { workflowId: 'welcome', stepId: 'in-app' },
    body: { previewPayload: { payload: { name: 'Ada' }, subscriber: { firstName: 'Ada' } }, controlValues: { body: 'Hi' } },
  },
  updateOnlineStatus: { params: { subscriberId: 'ada' }, body: { isOnline: true } },
  updateChannelConnection: { params: { identifier: 'chconn_fuzz' }, body: { workspace: { id: 'T1', name: 'W' }, auth: { accessToken: 'xoxb-1' } } },
  markMessagesAs: { params: { subscriberId: 'ada' }, body: { messageId: [ID], markAs: 'read' } },
  createContext: { body: { type: 'tenant', id: 'fuzz', data: { plan: 'pro' } } },
  createChannelConnection: { body: { integrationIdentifier: 'slack', subscriberId: 'ada', workspace: { id: 'T1' }, auth: { accessToken: 'xoxb-1' } } },
  setPrimaryIntegration: { params: { integrationId: ID } },
  getWorkflow: { params: { workflowId: 'welcome' } },
  getEvent: { params: { notificationId: ID } },
  triggerEvent: {
    body: {
      name: 'welcome',
      to: [{ subscriberId: 'fuzz-1', email: 'f@example.com' }, 'ada'],
      payload: { a: 1 },
      actor: 'grace',
      tenant: 'acme',
      context: { tenant: 'acme' },
    },
  },
  triggerBulk: {
    body: {
      events: [
        { name: 'welcome', to: 'ada' },
        { name: 'otp', to: { subscriberId: 'fuzz-2', phone: '+15550100009' } },
      ],
    },
  },
  getChannelConnection: { params: { identifier: 'chconn_fuzz' } },
  deleteChannelConnection: { params: { identifier: 'chconn_fuzz' } },
  createChannelEndpoint: { body: { subscriberId: 'ada', integrationIdentifier: 'slack', type: 'slack_channel', endpoint: { channelId: 'C1' } } },
  getChannelEndpoint: { params: { identifier: 'chendp_fuzz' } },
  updateChannelEndpoint: { params: { identifier: 'chendp_fuzz' }, body: { endpoint: { channelId: 'C2' } } },
  deleteChannelEndpoint: { params: { identifier: 'chendp_fuzz' } },
  createWorkflow: { body: { workflowId: 'fuzz-wf', name: 'Fuzz', active: true, steps: [{ name: 'In-app', type: 'in_app', controlValues: { body: 'Hi' } }] } },
};

function urlOf(op: Operation, params: Record<string, string> = {}): string {
  return op.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(params[name] ?? 'x'));
}

let requests = 0;
const statuses = new Map<number, number>();
async function send(method: string, url: string, opts: { payload?: string | Buffer; headers?: Record<string, string> } = {}) {
  requests++;
  const res = await svc.app.inject({
    method: method as 'GET',
    url,
    headers: { authorization: `ApiKey ${TEST_KEY}`, ...(opts.payload !== undefined ? { 'content-type': 'application/json' } : {}), ...opts.headers },
    ...(opts.payload !== undefined ? { payload: opts.payload } : {}),
  });
  statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
  return res;
}

/** The answer is a success, or an error in the service's shape; never a 5xx. */
function wellFormed(res: { statusCode: number; body: string }, what: string): void {
  expect(res.statusCode, `${what} → ${res.body.slice(0, 300)}`).toBeLessThan(500);
  if (res.statusCode >= 400) {
    const parsed = ErrorBody.safeParse(JSON.parse(res.body));
    expect(parsed.success, `${what}: not the service's error shape: ${res.body.slice(0, 300)}`).toBe(true);
    expect(parsed.data!.statusCode).toBe(res.statusCode);
    expect(res.body).not.toMatch(/\n\s+at |node_modules/);
  }
}

// --- mutating a valid body at one place -------------------------------------------------------------------

type Json = unknown;
function paths(v: Json, at: (string | number)[] = []): (string | number)[][] {
  const out = [at];
  if (Array.isArray(v)) v.forEach((x, i) => out.push(...paths(x, [...at, i])));
  else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) out.push(...paths(x, [...at, k]));
  return out;
}
function mutate(v: Json, path: (string | number)[], how: 'replace' | 'delete' | 'add', value: Json): Json {
  if (path.length === 0) return how === 'replace' ? value : v;
  const copy: any = structuredClone(v);
  let cur = copy;
  for (const seg of path.slice(0, -1)) cur = cur[seg];
  const last = path[path.length - 1]!;
  if (how === 'replace') cur[last] = value;
  else if (how === 'delete') Array.isArray(cur) ? cur.splice(Number(last), 1) : delete cur[last];
  else if (cur[last] && typeof cur[last] === 'object' && !Array.isArray(cur[last])) cur[last].__proto__x = value;
  return copy;
}

const junk = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom(
    '',
    ' ',
    'x'.repeat(10_000),
    '\u0000',
    '<script>',
    '$where',
    '__proto__',
    -1,
    0,
    1e308,
    -0,
    true,
    null,
    [],
    {},
    { __proto__: { polluted: 1 } },
    ID,
    'ada',
    'welcome',
  ),
);

const withBody = operationList.filter((op) => valid[op.name]?.body !== undefined);
const withParams = operationList.filter((op) => /\{/.test(op.path));

describe('bodies valid but for one field', () => {
  it.each(withBody.map((op) => [op.name, op] as const))('%s', async (_name, op) => {
    const sample = valid[op.name]!;
    const places = paths(sample.body);
    await fc.assert(
      fc.asyncProperty(fc.nat(places.length - 1), fc.constantFrom('replace' as const, 'delete' as const, 'add' as const), junk, async (i, how, value) => {
        const body = mutate(sample.body, places[i]!, how, value);
        const res = await send(op.method, urlOf(op, sample.params), { payload: JSON.stringify(body) });
        wellFormed(res, `${op.method} ${op.path} ${JSON.stringify(body).slice(0, 200)}`);
      }),
      { numRuns: 40, seed: 9 },
    );
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('bodies that are not what any route reads', () => {
  const raw = fc.oneof(
    fc.string({ unit: 'binary', maxLength: 60 }),
    fc.constantFrom(
      '{',
      '{"a":',
      'null',
      '[]',
      '"text"',
      '1',
      'true',
      '{"a":1}{"b":2}',
      '\u0000',
      '\ufeff{}',
      '{"__proto__":{"polluted":true}}',
      '{"constructor":{"prototype":{"polluted":true}}}',
    ),
  );
  const contentType = fc.constantFrom(
    'application/json',
    'application/json; charset=utf-16',
    'text/plain',
    'application/x-www-form-urlencoded',
    'multipart/form-data; boundary=x',
    'application/xml',
    '',
    'APPLICATION/JSON',
  );
  it('garbage of any media type to every route', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...operationList), raw, contentType, async (op, payload, type) => {
        const res = await send(op.method, urlOf(op, valid[op.name]?.params), { payload, headers: type ? { 'content-type': type } : {} });
        wellFormed(res, `${op.method} ${op.path} [${type}] ${JSON.stringify(payload).slice(0, 100)}`);
      }),
      { numRuns: 400, seed: 10 },
    );
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it.each(withBody.map((op) => [op.name, op] as const))('%s: nested 10,000 levels deep, or larger than the limit', async (_name, op) => {
    const sample = valid[op.name]!;
    const deep = `${'['.repeat(10_000)}${']'.repeat(10_000)}`;
    for (const place of paths(sample.body)
      .filter((p) => p.length > 0)
      .slice(0, 4)) {
      const body = JSON.stringify(mutate(sample.body, place, 'replace', '__DEEP__')).replace('"__DEEP__"', deep);
      const res = await send(op.method, urlOf(op, sample.params), { payload: body });
      wellFormed(res, `${op.method} ${op.path} deep at ${place.join('.')}`);
      expect(res.statusCode).toBe(400);
    }
    // One byte of filler past the route's own limit (100 KiB, or 26 MiB where payloads go).
    const big = JSON.stringify({ ...(sample.body as object), filler: 'x'.repeat(bodyLimitFor(op.path)) });
    const res = await send(op.method, urlOf(op, sample.params), { payload: big });
    wellFormed(res, `${op.method} ${op.path} over its body limit`);
    expect(res.statusCode).toBe(413);
  });
});

describe('URLs, queries and headers', () => {
  it('malformed and over-long path parameters', async () => {
    const segment = fc.oneof(
      fc.string({ maxLength: 20 }).map(encodeURIComponent),
      fc.constantFrom('%', '%E0%A4%A', '%ZZ', '%00', '..', '%2e%2e', '%2F', 'a%2Fb', '%C0%AF', 'x'.repeat(2000), '%F0%9F%9A%80', '?', '#'),
    );
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...withParams), segment, async (op, seg) => {
        const url = op.path.replace(/\{\w+\}/g, seg);
        const res = await send(op.method, url, op.method === 'GET' || op.method === 'DELETE' ? {} : { payload: JSON.stringify(valid[op.name]?.body ?? {}) });
        wellFormed(res, `${op.method} ${url.slice(0, 120)}`);
      }),
      { numRuns: 300, seed: 11 },
    );
  });

  it('odd query keys and values on every route that reads a query', async () => {
    const key = fc.constantFrom(
      'limit',
      'page',
      'after',
      'before',
      'channels',
      'channel',
      'contextKeys',
      'subscriberId',
      'transactionId',
      'orderBy',
      'includeCursor',
      '__proto__',
      'constructor',
      'limit[]',
      'a[b]',
      'toString',
      'hasOwnProperty',
      '',
    );
    const value = fc.oneof(
      fc.string({ maxLength: 12 }),
      fc.constantFrom('-1', '1e3', '0x10', 'NaN', 'Infinity', '999999999999999999999', '', 'true', 'in_app', 'a:b', ':', '%', 'x'.repeat(5000)),
    );
    const reads = operationList.filter((op) => op.query);
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...reads), fc.array(fc.tuple(key, value), { maxLength: 6 }), async (op, pairs) => {
        const qs = pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');
        const res = await send(op.method, `${urlOf(op, valid[op.name]?.params)}?${qs}`);
        wellFormed(res, `${op.method} ${op.path}?${qs.slice(0, 150)}`);
      }),
      { numRuns: 300, seed: 12 },
    );
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('odd idempotency keys and authorization headers', async () => {
    const idem = fc.oneof(fc.string({ maxLength: 300 }), fc.constantFrom('x'.repeat(255), 'x'.repeat(256), ' ', 'é', '\t'));
    const auth = fc.oneof(
      fc.constant(`ApiKey ${TEST_KEY}`),
      fc.string({ maxLength: 40 }),
      fc.constantFrom(
        'ApiKey',
        'ApiKey ',
        `ApiKey  ${TEST_KEY}`,
        `apikey ${TEST_KEY}`,
        `Bearer ${TEST_KEY}`,
        `ApiKey ${TEST_KEY} extra`,
        `ApiKey ${'k'.repeat(5000)}`,
        'Basic dXNlcjpwYXNz',
      ),
    );
    // Header values a client can send: no control characters but tab.
    const printable = (s: string) => s.replace(/[\u0000-\u0008\u000a-\u001f\u007f-\uffff]/g, '');
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...withBody), idem, auth, async (op, key, authorization) => {
        const sample = valid[op.name]!;
        const res = await send(op.method, urlOf(op, sample.params), {
          payload: JSON.stringify(sample.body),
          headers: { 'idempotency-key': printable(key), authorization: printable(authorization) },
        });
        wellFormed(res, `${op.method} ${op.path} key=${JSON.stringify(key).slice(0, 40)} auth=${JSON.stringify(authorization).slice(0, 40)}`);
      }),
      { numRuns: 300, seed: 13 },
    );
  });
});

afterAll(() => {
  figures('service fuzz', {
    fuzzedRequests: requests,
    statuses: Object.fromEntries([...statuses].sort((a, b) => a[0] - b[0])),
    serverErrors: [...statuses].filter(([s]) => s >= 500).reduce((a, [, n]) => a + n, 0),
    crashes: internal.length,
  });
  expect(internal).toEqual([]);
});
