// Property-based tests (fast-check) of everything that reads input: whole command lines through the
// real command tree, flag value parsers, JSON/YAML flag values, --set pairs, contexts, the trigger
// body's validation, recipients files, and what the HTTP core reads from answers. Nothing may crash:
// every input is accepted or refused with a usage error that names what is wrong. The unit tests in
// test/unit/parsing.test.ts cover the same parsers with fixed cases; these search for the cases no one
// thought of. Seeds are fixed so that CI runs the same inputs every time.
import fc from 'fast-check';
import { InvalidArgumentError, type Command } from 'commander';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { choiceList, durationArg, fieldsArg, idempotencyKeyArg, intArg, positiveNumberArg, urlArg } from '../../src/cli-args.js';
import { UsageError } from '../../src/core/errors.js';
import { InputReader, parseContextRef, parseSetPairs } from '../../src/core/input.js';
import { maskData, secretValues } from '../../src/core/mask.js';
import { parseOrUsage } from '../../src/core/validate.js';
import { describeErrorBody, parseRetryAfter, unwrapEnvelope } from '../../src/api/http-rules.js';
import { TriggerBody } from '../../src/api/schemas/requests.js';
import { buildLabels } from '../../src/commands/trigger.js';
import { buildProgram } from '../../src/cli.js';
import { csvRecordToRow, ndjsonLineToRow, openRecipients } from '../../src/bulk/rows.js';
import { runSvc, tempConfigDir } from '../helpers/run.js';
import { startStub, type Stub } from '../helpers/stub.js';
import { figures } from './util.js';

const RUNS = { numRuns: 300, seed: 6 } as const;
let checked = 0;
let crashes = 0;
const count = <T>(p: T): T => {
  checked++;
  return p;
};
afterAll(() => figures('property tests', { generatedInputs: checked, crashes }));

/** Runs fn; it may return or throw a UsageError with a message naming `label`, nothing else. */
function acceptsOrRefuses(label: string, fn: () => unknown): void {
  try {
    fn();
  } catch (e) {
    if (!(e instanceof UsageError)) {
      crashes++;
      throw new Error(`crashed (${(e as Error)?.name}: ${(e as Error)?.message})`);
    }
    expect(e.message.startsWith(label) || e.message.includes(label), e.message).toBe(true);
  }
}

async function acceptsOrRefusesAsync(label: string, fn: () => Promise<unknown>): Promise<void> {
  try {
    await fn();
  } catch (e) {
    if (!(e instanceof UsageError)) {
      crashes++;
      throw new Error(`crashed (${(e as Error)?.name}: ${(e as Error)?.message})`);
    }
    expect(e.message, e.message).toContain(label);
  }
}

const anyText = fc.oneof(fc.string(), fc.string({ unit: 'binary' }), fc.json(), fc.constantFrom('', '-', '@', '{', '[1,', 'null', '1e999', '__proto__'));

describe('flag value parsers (run by commander while it reads the command line)', () => {
  it("accept a value or refuse it with commander's InvalidArgumentError, never anything else", () => {
    const parsers: [string, (v: string) => unknown][] = [
      ['int', intArg(1, 50)],
      ['int≥0', intArg(0)],
      ['duration', durationArg],
      ['url', urlArg],
      ['fields', fieldsArg],
      ['idempotency key', idempotencyKeyArg],
      ['positive number', positiveNumberArg],
      ['choices', (v) => choiceList(['email', 'sms'])(v, undefined)],
    ];
    fc.assert(
      fc.property(anyText, (text) => {
        count(text);
        for (const [name, parse] of parsers) {
          try {
            const v = parse(text);
            if (name.startsWith('int')) expect(Number.isSafeInteger(v)).toBe(true);
            if (name === 'duration') expect(v as number).toBeGreaterThan(0);
          } catch (e) {
            if (!(e instanceof InvalidArgumentError)) throw new Error(`${name} crashed on ${JSON.stringify(text)}: ${e}`);
          }
        }
      }),
      { ...RUNS, numRuns: 500 },
    );
  });
});

describe('JSON flags, --set and contexts', () => {
  const reader = () => new InputReader(Readable.from([]), process.cwd());

  it("a JSON flag's value parses or is refused naming the flag", async () => {
    await fc.assert(
      fc.asyncProperty(anyText, async (text) => {
        count(text);
        // `@file` reads files: only inline values here (the corpus covers files).
        const v = text.startsWith('@') || text === '-' ? `x${text}` : text;
        await acceptsOrRefusesAsync('--payload', () => reader().jsonObject('--payload', v));
        await acceptsOrRefusesAsync('--to-json', () => reader().json('--to-json', v));
      }),
      RUNS,
    );
  });

  it('--set pairs with any keys and values build an object or are refused, and never pollute prototypes', () => {
    const segment = fc.oneof(fc.string({ maxLength: 6 }), fc.constantFrom('__proto__', 'constructor', 'prototype', 'a', 'b', ''));
    const pair = fc
      .tuple(fc.array(segment, { minLength: 1, maxLength: 3 }), fc.constantFrom('=', ':=', ''), anyText)
      .map(([k, op, v]) => `${k.join('.')}${op}${v}`);
    fc.assert(
      fc.property(fc.array(pair, { maxLength: 5 }), (pairs) => {
        count(pairs);
        acceptsOrRefuses('--set', () => parseSetPairs('--set', pairs));
        expect(({} as Record<string, unknown>).polluted).toBeUndefined();
        expect(Object.prototype).not.toHaveProperty('a');
      }),
      RUNS,
    );
  });

  it('context references parse to valid parts or are refused', () => {
    fc.assert(
      fc.property(anyText, (text) => {
        count(text);
        try {
          const { type, id } = parseContextRef('--context', text);
          expect(type).toMatch(/^[a-zA-Z0-9_-]{1,100}$/);
          expect(id).toMatch(/^[a-zA-Z0-9_-]{1,100}$/);
        } catch (e) {
          expect(e).toBeInstanceOf(UsageError);
        }
      }),
      RUNS,
    );
  });

  it('a trigger body of any shape is accepted by the schema or refused naming a flag', () => {
    const recipient = fc.oneof(
      fc.string(),
      fc.jsonValue({ maxDepth: 2 }),
      fc.record({ subscriberId: fc.jsonValue({ maxDepth: 1 }), email: fc.jsonValue({ maxDepth: 1 }) }),
      fc.record({ type: fc.constant('Topic'), topicKey: fc.jsonValue({ maxDepth: 1 }) }),
    );
    const body = fc.record(
      {
        name: fc.oneof(fc.constant('welcome'), fc.jsonValue({ maxDepth: 1 })),
        to: fc.oneof(recipient, fc.array(recipient, { maxLength: 4 })),
        payload: fc.jsonValue({ maxDepth: 3 }),
        overrides: fc.jsonValue({ maxDepth: 2 }),
        actor: fc.oneof(fc.string(), fc.jsonValue({ maxDepth: 2 })),
        tenant: fc.oneof(fc.string(), fc.jsonValue({ maxDepth: 2 })),
        context: fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 7 }),
        transactionId: fc.jsonValue({ maxDepth: 1 }),
      },
      { requiredKeys: ['name', 'to'] },
    );
    const labels = buildLabels();
    fc.assert(
      fc.property(body, (b) => {
        count(b);
        try {
          parseOrUsage(TriggerBody, b, labels);
        } catch (e) {
          if (!(e instanceof UsageError)) throw e;
          expect(e.message).toMatch(/^(WORKFLOW|--[a-z-]+|--to\/--to-json|input)/);
          expect(e.message).not.toContain('\n');
        }
      }),
      { ...RUNS, numRuns: 500 },
    );
  });
});

describe('recipients files', () => {
  it('any NDJSON line becomes a good row or a bad row with a reason; a good row has a usable subscriberId', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          anyText,
          fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)),
          fc
            .record({ subscriberId: fc.jsonValue({ maxDepth: 1 }), payload: fc.jsonValue({ maxDepth: 2 }), email: fc.jsonValue({ maxDepth: 1 }) })
            .map((v) => JSON.stringify(v)),
        ),
        (line) => {
          count(line);
          const row = ndjsonLineToRow(line, 7);
          expect(row.row).toBe(7);
          if (row.kind === 'bad') expect(row.error).toMatch(/\S/);
          else {
            expect(row.subscriberId.trim()).not.toBe('');
            expect(row.subscriberId).not.toMatch(/[\u0000-\u001f]/);
            if (row.payload) expect(typeof row.payload).toBe('object');
          }
        },
      ),
      { ...RUNS, numRuns: 500 },
    );
  });

  it('any CSV text yields rows and bad rows, or one usage error about the file; never a crash or a lost good row', async () => {
    const cell = fc.oneof(fc.string({ maxLength: 8 }), fc.constantFrom('"', '""', ',', '\n', '\r\n', 'a"b', ' '));
    const header = fc.oneof(
      fc.constant('subscriberId,firstName,payload.x'),
      fc.constant('subscriberId'),
      fc.array(cell, { minLength: 1, maxLength: 3 }).map((c) => c.join(',')),
    );
    const csv = fc
      .tuple(
        header,
        fc.array(
          fc.array(cell, { maxLength: 4 }).map((c) => c.join(',')),
          { maxLength: 6 },
        ),
      )
      .map(([h, rows]) => [h, ...rows].join('\n'));
    await fc.assert(
      fc.asyncProperty(csv, async (text) => {
        count(text);
        await acceptsOrRefusesAsync('--recipients-file', async () => {
          const opened = await openRecipients('-', Readable.from([Buffer.from(text)]), async () => 0);
          for await (const row of opened.rows) {
            if (row.kind === 'row') expect(row.subscriberId.trim()).not.toBe('');
            else expect(row.error).toMatch(/\S/);
          }
        });
      }),
      { ...RUNS, numRuns: 200 },
    );
  });

  it('any CSV record maps to a row or a bad row', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.constantFrom('subscriberId', 'firstName', 'email', 'data.plan', 'payload.a.b', 'payload.a'), fc.string()), (record) => {
        count(record);
        const row = csvRecordToRow(record, 2);
        expect(['row', 'bad']).toContain(row.kind);
      }),
      RUNS,
    );
  });
});

describe('what the HTTP core reads from answers', () => {
  it('error bodies, Retry-After values and envelopes of any shape never crash the reader', () => {
    fc.assert(
      fc.property(
        fc.jsonValue({ maxDepth: 4 }),
        fc.oneof(fc.string(), fc.constantFrom('0', '1.5', '-1', 'Wed, 21 Oct 2015 07:28:00 GMT', '1e308', '')),
        fc.integer({ min: 100, max: 599 }),
        (body, retryAfter, status) => {
          count(body);
          const line = describeErrorBody(body, status);
          expect(typeof line).toBe('string');
          expect(line).not.toContain('\n');
          const wait = parseRetryAfter(retryAfter, Date.now());
          if (wait !== undefined) expect(Number.isFinite(wait) && wait >= 0).toBe(true);
          unwrapEnvelope(body);
        },
      ),
      { ...RUNS, numRuns: 500 },
    );
  });

  it('masking hides every secret wherever it sits and whatever surrounds it', () => {
    const secret = fc.string({ minLength: 4, maxLength: 20 }).map((s) => `tok_${s.replace(/[^a-zA-Z0-9]/g, 'x')}_Z9q`);
    const doc = fc.letrec((tie) => ({
      node: fc.oneof(
        { depthSize: 'small' },
        fc.jsonValue({ maxDepth: 1 }),
        fc.dictionary(fc.constantFrom('name', 'data', 'items', 'channels'), tie('node'), { maxKeys: 3 }),
        fc.array(tie('node'), { maxLength: 3 }),
      ),
    })).node;
    fc.assert(
      fc.property(doc, secret, secret, fc.constantFrom('accessToken', 'apiKey', 'token', 'secret'), (base, a, b, field) => {
        count(base);
        const value = { base, [field]: a, credentials: { nested: [b] }, auth: { accessToken: a } };
        expect(secretValues(value)).toEqual(expect.arrayContaining([a, b]));
        const shown = JSON.stringify(maskData(value));
        expect(shown).not.toContain(a);
        expect(shown).not.toContain(b);
        // A known secret (the key in use) is scrubbed from any string it appears in.
        const quoted = JSON.stringify(maskData({ message: `bad key ${a}!`, base }, { knownSecrets: [a] }));
        expect(quoted).not.toContain(a);
      }),
      RUNS,
    );
  });
});

describe('answers the tool cannot process', () => {
  it('an answer nested 20,000 levels deep is one clear error (exit 1), not an internal error', async () => {
    const stub = await startStub();
    const deep = `{"data": ${'['.repeat(20_000)}${']'.repeat(20_000)}}`;
    stub.on('GET', '/v1/integrations/active', { body: deep });
    try {
      const env = { SVC_API_KEY: 'sk_test_deep_0123456789', SVC_BASE_URL: stub.url };
      const message = 'GET /v1/integrations/active: the answer (HTTP 200) nests more than 1000 levels deep; svc cannot process it';
      const text = await runSvc(['integrations', 'active', '-o', 'table', '--retries', '0'], { env });
      expect(text.code, text.stderr).toBe(1);
      expect(text.stderr).toBe(`error: ${message}\n`);
      const json = await runSvc(['integrations', 'active', '-o', 'json', '--retries', '0'], { env });
      expect(json.code).toBe(1);
      expect(JSON.parse(json.stderr)).toEqual({ error: { code: 'answer_too_deep', message } });
    } finally {
      await stub.close();
    }
  });
});

const wholeTree = await buildProgram(async () => undefined);

describe('whole command lines', () => {
  let stub: Stub;
  beforeAll(async () => {
    // Generated command lines reach any route: the stub answers what it knows and 404s the rest.
    stub = await startStub({ strict: false });
    stub.on('GET', '/v1/integrations/active', { body: { data: [] } });
    stub.on('GET', '/v1/notifications', { body: { data: [], hasMore: false, page: 0, pageSize: 10 } });
    stub.on('POST', '/v1/events/trigger', { status: 201, body: { data: { acknowledged: true, status: 'processed', transactionId: 't' } } });
  });
  afterAll(() => stub.close());

  // Every command but the long-running ones (dev serves until stopped; events watch and --wait poll),
  // each with its own flags as the command tree declares them, plus the global ones and a stranger.
  const program = wholeTree;
  const leaves: { path: string[]; flags: string[] }[] = [];
  const walk = (cmd: Command, path: string[]) => {
    if (cmd.commands.length === 0) leaves.push({ path, flags: cmd.options.map((o) => o.long ?? o.short!).filter((f) => f !== '--wait' && f !== '--help') });
    for (const c of cmd.commands) walk(c, [...path, c.name()]);
  };
  walk(program, []);
  const commands = leaves.filter((l) => !['dev', 'events watch'].includes(l.path.join(' ')));
  const globalFlags = program.options.map((o) => o.long!).filter((f) => !['--version', '--help'].includes(f));
  const value = fc.oneof(
    fc.string({ maxLength: 12 }),
    fc.constantFrom(
      'u1',
      'welcome',
      '{}',
      '[]',
      '{"a":1}',
      '"x"',
      '5',
      '0',
      '-1',
      '101',
      'email',
      'json',
      'table',
      'yaml',
      'ndjson',
      'tenant=acme',
      'a:b',
      '2h',
      'x=1',
      'n:=2',
      '@',
      '@/nonexistent',
      '-',
      'http://127.0.0.1:1',
      '6761f0c2a3b4c5d6e7f80912',
      'GET',
      '/v1/notifications',
    ),
  );
  // Keys and tokens get values of their own, used nowhere else on the line: the secrets audit then
  // checks that the tool never echoes them, without mistaking an echoed ordinary value for a leak.
  const SECRET_FLAGS = ['--api-key', '--access-token'];
  const secretValue = fc.string({ minLength: 1, maxLength: 8 }).map((s) => `sk_fuzz_${Buffer.from(s).toString('hex')}`);
  const argv = fc.constantFrom(...commands).chain((cmd) => {
    const all = [...cmd.flags, ...globalFlags, '--frob'];
    const flag = fc.constantFrom(...all.filter((f) => !SECRET_FLAGS.includes(f)));
    const secret = fc.tuple(fc.constantFrom(...all.filter((f) => SECRET_FLAGS.includes(f))), secretValue).map(([f, v]) => [f, v]);
    const token = fc.oneof(
      fc.tuple(flag, value).map(([f, v]) => [f, v]),
      value.map((v) => [v]),
      flag.map((f) => [f]),
      secret,
    );
    return fc.array(token, { maxLength: 6 }).map((rest) => [...cmd.path, ...rest.flat()]);
  });
  let runs = 0;
  const workDir = join(tempConfigDir(), 'cwd');
  mkdirSync(workDir);
  const codes = new Map<number, number>();
  let lineCrashes = 0;
  let sentOnUsage = 0;
  afterAll(() => figures('random command lines', { runs, exitCodes: Object.fromEntries(codes), crashes: lineCrashes, requestsOnUsageErrors: sentOnUsage }));

  it('never crash, never leave exit codes of cli.md, and send nothing when they exit 2', { timeout: 60_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(argv, async (args) => {
        count(args);
        runs++;
        stub.requests.length = 0;
        // --timeout/--retries first: a later random one may override them, never beyond the abort below.
        // In a directory of its own: a random --report or --journal value is a file it may write.
        const r = await runSvc(['--timeout', '2s', '--retries', '0', ...args], {
          cwd: workDir,
          env: { SVC_API_KEY: 'sk_test_fuzz_0123456789', SVC_BASE_URL: stub.url },
          stdin: '',
          signal: AbortSignal.timeout(10_000),
        });
        codes.set(r.code, (codes.get(r.code) ?? 0) + 1);
        const where = `svc ${args.map((a) => JSON.stringify(a)).join(' ')} → ${r.code}: ${r.stderr}`;
        expect([0, 1, 2, 3, 4, 5, 6, 7], where).toContain(r.code);
        if (/internal error/.test(r.stderr)) lineCrashes++;
        if (r.code === 2) sentOnUsage += stub.requests.length;
        expect(r.stderr, where).not.toMatch(/internal error/);
        // A stack trace only when asked for with --debug.
        if (!args.includes('--debug')) expect(r.stderr, where).not.toMatch(/^\s+at /m);
        if (r.code === 2) expect(stub.requests, where).toHaveLength(0);
        if (r.code !== 0) {
          const errorLines = r.stderr.split('\n').filter((l) => l.startsWith('error: ') || l.startsWith('{"error"'));
          expect(errorLines, where).toHaveLength(1);
        }
      }),
      { numRuns: 400, seed: 42 },
    );
  });
});
