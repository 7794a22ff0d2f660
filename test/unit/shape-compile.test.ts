// The answers' shape validators the build compiles from the zod schemas (src/api/shape-compile.ts) stand
// in for zod on the CLI's hot path, so they must never accept an answer zod refuses. Checked on real
// answers of the local service and on thousands of mutations of them: whenever a compiled validator
// accepts, zod accepts too; and every real answer passes the compiled check (else zod would be loaded
// for every command, and the point of compiling would be lost).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { z } from 'zod';
import { operations } from '../../src/api/operations.js';
import { compileShapes, responseJsonSchema } from '../../src/api/shape-compile.js';
import { testService, type TestService } from '../helpers/service.js';

type Validate = (data: unknown) => boolean;
const compiled = compileShapes(operations);
const validators = new Map<string, Validate>();

/** Loads each compiled module as the bundle would (its CommonJS requires resolved from the project). */
let dir: string | undefined;
async function loadValidators(): Promise<void> {
  dir = mkdtempSync(join(process.cwd(), 'node_modules', '.svc-shape-test-'));
  for (const [name, source] of Object.entries(compiled.modules)) {
    const file = join(dir, `${name}.mjs`);
    writeFileSync(file, `import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);\n${source}`);
    validators.set(name, (await import(file)).validate as Validate);
  }
}

let svc: TestService;
/** Real answers, unwrapped from `{data}` as the client does, keyed by operation. */
const answers: [string, unknown][] = [];

async function answer(name: keyof typeof operations, method: string, url: string, body?: unknown): Promise<unknown> {
  const res = await svc.request(method, url, body === undefined ? {} : { body });
  expect(res.status, `${method} ${url}: ${JSON.stringify(res.body)}`).toBeLessThan(300);
  const b = res.body as Record<string, unknown>;
  const data = b && typeof b === 'object' && Object.keys(b).length === 1 && 'data' in b ? b.data : b;
  answers.push([name, data]);
  return data;
}

beforeAll(async () => {
  await loadValidators();
  svc = testService();
  const trigger = (await answer('triggerEvent', 'POST', '/v1/events/trigger', {
    name: 'welcome',
    to: [{ subscriberId: 'shape-user', email: 'ada@example.com', firstName: 'Ada' }],
    payload: { name: 'Ada' },
  })) as { transactionId: string };
  await svc.runner.idle();
  await answer('triggerBulk', 'POST', '/v1/events/trigger/bulk', { events: [{ name: 'welcome', to: ['bulk-user'] }] });
  await answer('listActiveIntegrations', 'GET', '/v1/integrations/active');
  const events = (await answer('listEvents', 'GET', `/v1/notifications?transactionId=${trigger.transactionId}`)) as { data: { _id: string }[] };
  if (events.data[0]) await answer('getEvent', 'GET', `/v1/notifications/${events.data[0]._id}`);
  await answer('getWorkflow', 'GET', '/v2/workflows/welcome');
  await answer('listWorkflows', 'GET', '/v2/workflows');
  await answer('searchSubscribers', 'GET', '/v2/subscribers?limit=10');
  await answer('getSubscriber', 'GET', '/v2/subscribers/shape-user');
  await answer('listMessages', 'GET', '/v1/messages?subscriberId=shape-user');
  await answer('createContext', 'POST', '/v2/contexts', { type: 'team', id: 'shape-team', data: { plan: 'pro' } });
  await answer('updateOnlineStatus', 'PATCH', '/v1/subscribers/shape-user/online-status', { isOnline: true });
});

afterAll(async () => {
  await svc?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** A copy of `value` with one change at a path chosen by `pick`: a field removed, or a value of another type. */
function mutate(value: unknown, pick: number, kind: number): unknown {
  const paths: (string | number)[][] = [];
  const walk = (v: unknown, path: (string | number)[]) => {
    paths.push(path);
    if (Array.isArray(v)) for (const [i, x] of v.entries()) walk(x, [...path, i]);
    else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) walk(x, [...path, k]);
  };
  walk(value, []);
  const path = paths[pick % paths.length]!;
  const copy = structuredClone(value) as unknown;
  const replacement = [null, 42, 'x', true, [], {}, -1.5, ''][kind % 8];
  if (path.length === 0) return replacement;
  let parent = copy as Record<string | number, unknown>;
  for (const seg of path.slice(0, -1)) parent = parent[seg] as Record<string | number, unknown>;
  const last = path[path.length - 1]!;
  if (kind % 3 === 0 && !Array.isArray(parent)) delete parent[last];
  else parent[last] = replacement;
  return copy;
}

describe('compiled shape validators', () => {
  test('every operation with a response schema gets one (no schema of ours needs zod alone)', () => {
    expect(compiled.skipped).toEqual({});
    const withResponse = Object.entries(operations).filter(([, op]) => 'response' in op && op.response);
    expect(validators.size).toBe(withResponse.length);
  });

  test('every real answer of the local service passes both zod and the compiled check', () => {
    expect(answers.length).toBeGreaterThanOrEqual(12);
    for (const [name, data] of answers) {
      const op = operations[name as keyof typeof operations] as { response?: z.ZodType };
      expect(op.response!.safeParse(data).success, `${name}: zod`).toBe(true);
      expect(validators.get(name)!(data), `${name}: compiled`).toBe(true);
    }
  });

  test('a compiled validator never accepts what zod refuses (mutations of real answers)', () => {
    let refusedByZod = 0;
    fc.assert(
      fc.property(fc.nat(answers.length - 1), fc.nat(), fc.nat(), (i, pick, kind) => {
        const [name, data] = answers[i]!;
        const bad = mutate(data, pick, kind);
        const op = operations[name as keyof typeof operations] as { response?: z.ZodType };
        const zodOk = op.response!.safeParse(bad).success;
        if (!zodOk) refusedByZod++;
        if (validators.get(name)!(bad)) expect(zodOk, `${name}: compiled accepted ${JSON.stringify(bad).slice(0, 300)}`).toBe(true);
      }),
      { numRuns: 3000 },
    );
    // The mutations must reach what the schemas check, or this test would prove nothing.
    expect(refusedByZod).toBeGreaterThan(500);
  });

  test('a refinement keeps a schema out of the compiled path (zod drops it from JSON Schema)', () => {
    const refined = z.looseObject({ n: z.number().refine((n) => n % 2 === 0) });
    expect(responseJsonSchema(refined)).toEqual({ reason: expect.stringContaining('refinement') });
    expect(compileShapes({ refined: { response: refined } }).skipped).toHaveProperty('refined');
    const preprocessed = z.preprocess((v) => v, z.string());
    expect(compileShapes({ pre: { response: preprocessed } }).skipped).toHaveProperty('pre');
  });
});
