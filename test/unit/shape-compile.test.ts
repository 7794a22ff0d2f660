// The validators the build compiles from the zod schemas (src/api/shape-compile.ts) stand in for zod on
// the CLI's hot path, so they must never accept what zod refuses. Checked on real requests and answers of
// the local service and on thousands of mutations of them: whenever a compiled validator accepts, zod
// accepts too, and for a request body zod's parse gives back the very value (what is sent is what was
// checked); and every real one passes the compiled check (else zod would be loaded for every command).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { z } from 'zod';
import { operations } from '../../src/api/operations.js';
import { compileShapes, exactJsonSchema } from '../../src/api/shape-compile.js';
import { STATED_REFINEMENT } from '../../src/api/schemas/common.js';
import { testService, type TestService } from '../helpers/service.js';

type Validate = (data: unknown) => boolean;
const compiled = compileShapes(operations);
const validators = new Map<string, Validate>();

/** Loads each compiled module as the bundle would (its CommonJS requires resolved from the project). */
let dir: string | undefined;
async function loadValidators(): Promise<void> {
  dir = mkdtempSync(join(process.cwd(), 'node_modules', '.svc-shape-test-'));
  for (const [name, source] of Object.entries(compiled.modules)) {
    const file = join(dir, `${name.replace(':', '-')}.mjs`);
    writeFileSync(file, `import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);\n${source}`);
    validators.set(name, (await import(file)).validate as Validate);
  }
}

let svc: TestService;
/** Real answers, unwrapped from `{data}` as the client does, and the bodies that got them: [`response:op`, value]. */
const answers: [string, unknown][] = [];

async function answer(name: keyof typeof operations, method: string, url: string, body?: unknown): Promise<unknown> {
  if (body !== undefined) answers.push([`body:${name}`, body]);
  const res = await svc.request(method, url, body === undefined ? {} : { body });
  expect(res.status, `${method} ${url}: ${JSON.stringify(res.body)}`).toBeLessThan(300);
  const b = res.body as Record<string, unknown>;
  const data = b && typeof b === 'object' && Object.keys(b).length === 1 && 'data' in b ? b.data : b;
  answers.push([`response:${name}`, data]);
  return data;
}

beforeAll(async () => {
  await loadValidators();
  svc = testService();
  const trigger = (await answer('triggerEvent', 'POST', '/v1/events/trigger', {
    name: 'welcome',
    to: [{ subscriberId: 'shape-user', email: 'ada@example.com', firstName: 'Ada', data: { plan: 'pro' } }, 'plain-user', { type: 'Topic', topicKey: 'news' }],
    payload: { name: 'Ada', items: [1, 2] },
    overrides: { email: { toRecipient: 'x@example.com' } },
    actor: 'actor-1',
    tenant: { identifier: 't1', data: { a: 1 } },
    context: { team: 'core', org: { id: 'acme', data: { tier: 'gold' } } },
    transactionId: 'shape-tx-1',
    extra: 'kept as sent',
  })) as { transactionId: string };
  await svc.runner.idle();
  await answer('triggerBulk', 'POST', '/v1/events/trigger/bulk', { events: [{ name: 'welcome', to: ['bulk-user'] }] });
  await answer('listActiveIntegrations', 'GET', '/v1/integrations/active');
  const events = (await answer('listEvents', 'GET', `/v1/notifications?transactionId=${trigger.transactionId}`)) as { data: { _id: string }[] };
  if (events.data[0]) await answer('getEvent', 'GET', `/v1/notifications/${events.data[0]._id}`);
  await answer('getWorkflow', 'GET', '/v2/workflows/welcome');
  await answer('listWorkflows', 'GET', '/v2/workflows');
  await answer('searchSubscribers', 'GET', '/v2/subscribers?limit=10');
  await answer('createSubscriber', 'POST', '/v2/subscribers', { subscriberId: 'shape-sub', firstName: 'Grace', email: 'grace@example.com', data: { a: 1 } });
  await answer('patchSubscriber', 'PATCH', '/v2/subscribers/shape-sub', { lastName: 'Hopper', phone: '+15551234567' });
  await answer('getSubscriber', 'GET', '/v2/subscribers/shape-sub');
  await answer('listMessages', 'GET', '/v1/messages?subscriberId=shape-user');
  await answer('createContext', 'POST', '/v2/contexts', { type: 'team', id: 'shape-team', data: { plan: 'pro' } });
  await answer('updateOnlineStatus', 'PATCH', '/v1/subscribers/shape-sub/online-status', { isOnline: true });
});

afterAll(async () => {
  await svc?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** A copy of `value` with one change at a path chosen by `pick`: a field removed, or a value of another kind. */
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
  const replacement = [null, 42, 'x', true, [], {}, -1.5, '', '😀'.repeat(60), 'a'.repeat(101), { a: 'b', c: 'd', e: 'f', g: 'h', i: 'j', k: 'l' }, ['x']][
    kind % 12
  ];
  if (path.length === 0) return replacement;
  let parent = copy as Record<string | number, unknown>;
  for (const seg of path.slice(0, -1)) parent = parent[seg] as Record<string | number, unknown>;
  const last = path[path.length - 1]!;
  if (kind % 5 === 0 && !Array.isArray(parent)) delete parent[last];
  else parent[last] = replacement;
  return copy;
}

function schemaOf(key: string): z.ZodType {
  const [kind, name] = key.split(':') as ['body' | 'response', keyof typeof operations];
  return (operations[name] as { body?: z.ZodType; response?: z.ZodType })[kind]!;
}

describe('compiled shape validators', () => {
  test('every answer has a compiled check, and so do the bodies whose parse returns them unchanged', () => {
    expect(Object.keys(compiled.skipped).filter((k) => k.startsWith('response:'))).toEqual([]);
    const withResponse = Object.entries(operations).filter(([, op]) => 'response' in op && op.response);
    expect([...validators.keys()].filter((k) => k.startsWith('response:'))).toHaveLength(withResponse.length);
    // The trigger's body, the commonest request, with its stated refinement (at most 5 contexts).
    expect(validators.has('body:triggerEvent')).toBe(true);
    // createWorkflow's body has defaults: zod's parse would add them, so zod alone checks it.
    expect(compiled.skipped['body:createWorkflow']).toMatch(/default/);
  });

  test('every real request and answer of the local service passes both zod and the compiled check', () => {
    expect(answers.length).toBeGreaterThanOrEqual(16);
    for (const [key, data] of answers) {
      expect(schemaOf(key).safeParse(data).success, `${key}: zod`).toBe(true);
      expect(validators.get(key)?.(data), `${key}: compiled`).toBe(true);
      if (key.startsWith('body:')) expect(schemaOf(key).parse(data), `${key}: sent as given`).toEqual(data);
    }
  });

  test('the routes listed as taking nothing to check are exactly those with no params, query or body schema', () => {
    // The local service builds no schema for these (src/server/app.ts): one listed wrongly would go unchecked.
    const listed = JSON.parse(/withoutInput: (\[.*\]),/.exec(compiled.index)![1]!) as string[];
    const expected = Object.entries(operations as Record<string, { params?: unknown; query?: unknown; body?: unknown }>)
      .filter(([, op]) => !op.params && !op.query && !op.body)
      .map(([name]) => name);
    expect(listed).toEqual(expected);
    expect(listed).toContain('listActiveIntegrations');
    expect(listed).not.toContain('triggerEvent');
    expect(listed).not.toContain('listEvents');
  });

  test("the trigger body's stated refinement is checked: at most 5 contexts", () => {
    const body = { name: 'welcome', to: ['u1'], context: { a: '1', b: '2', c: '3', d: '4', e: '5' } };
    expect(validators.get('body:triggerEvent')!(body)).toBe(true);
    const six = { ...body, context: { ...body.context, f: '6' } };
    expect(schemaOf('body:triggerEvent').safeParse(six).success).toBe(false);
    expect(validators.get('body:triggerEvent')!(six)).toBe(false);
  });

  test('a compiled validator never accepts what zod refuses (mutations of real answers)', () => {
    let refusedByZod = 0;
    fc.assert(
      fc.property(fc.nat(answers.length - 1), fc.nat(), fc.nat(), (i, pick, kind) => {
        const [key, data] = answers[i]!;
        const bad = mutate(data, pick, kind);
        const parsed = schemaOf(key).safeParse(bad);
        if (!parsed.success) refusedByZod++;
        if (!validators.get(key)?.(bad)) return;
        expect(parsed.success, `${key}: compiled accepted ${JSON.stringify(bad).slice(0, 300)}`).toBe(true);
        // A body goes out as given: zod would have sent the same value.
        if (key.startsWith('body:')) expect(parsed.data).toEqual(bad);
      }),
      { numRuns: 4000 },
    );
    // The mutations must reach what the schemas check, or this test would prove nothing.
    expect(refusedByZod).toBeGreaterThan(500);
  });

  test('a refinement keeps a schema out of the compiled path (zod drops it from JSON Schema) unless its metadata states it', () => {
    const refined = z.looseObject({ n: z.number().refine((n) => n % 2 === 0) });
    expect(exactJsonSchema(refined)).toEqual({ reason: expect.stringContaining('refinement') });
    const stated = z.looseObject({
      n: z
        .number()
        .refine((n) => n % 2 === 0)
        .meta({ ...STATED_REFINEMENT, multipleOf: 2 }),
    });
    expect(exactJsonSchema(stated)).toEqual({ schema: expect.objectContaining({ properties: { n: { type: 'number', multipleOf: 2 } } }) });
    expect(exactJsonSchema(z.object({ a: z.string() }), { identity: true })).toEqual({ reason: expect.stringContaining('strips unknown keys') });
    expect(compileShapes({ refined: { response: refined } }).skipped).toHaveProperty(['response:refined']);
    const preprocessed = z.preprocess((v) => v, z.string());
    expect(compileShapes({ pre: { response: preprocessed } }).skipped).toHaveProperty(['response:pre']);
  });
});
