// Every malformed input of the corpus (bad-input.corpus.ts), in text and in JSON error output: exit
// code 2, one line on stderr naming the flag or field, and not a single request at the recording stub.
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSvc } from '../helpers/run.js';
import { startStub, type Stub } from '../helpers/stub.js';
import { CORPUS, FILES, type BadInput } from './bad-input.corpus.js';
import { figures } from './util.js';

let stub: Stub;
let dir: string;
let unreadableBy = '';

beforeAll(async () => {
  stub = await startStub();
  dir = mkdtempSync(join(tmpdir(), 'svc-rel-bad-'));
  for (const [name, content] of Object.entries(FILES)) if (content !== null) writeFileSync(join(dir, name), content);
  mkdirSync(join(dir, 'a-directory'));
  // chmod 000 stops everyone but root, and CI may run as root: then a file that cannot be read by
  // anyone stands in for it (a symbolic link to itself fails with ELOOP).
  const f = join(dir, 'unreadable.json');
  writeFileSync(f, '{"a": 1}');
  chmodSync(f, 0o000);
  let readable = true;
  try {
    readFileSync(f);
  } catch {
    readable = false;
  }
  if (readable) {
    chmodSync(f, 0o600);
    const { rmSync } = await import('node:fs');
    rmSync(f);
    symlinkSync(f, f);
    unreadableBy = 'a symbolic link loop (running as root: chmod 000 would not stop reads)';
  } else unreadableBy = 'chmod 000';
});
afterAll(() => stub.close());

const expand = (argv: string[]) => argv.map((a) => a.split('{dir}').join(dir));
const names = (c: BadInput, line: string) => (typeof c.names === 'string' ? line.includes(c.names) : c.names.test(line));

/** Runs one case; a command that wrongly accepted its input is stopped rather than left running. */
async function attempt(c: BadInput, extra: string[]) {
  stub.requests.length = 0;
  const r = await runSvc([...expand(c.argv), ...extra], {
    env: { SVC_API_KEY: 'sk_test_bad_input_0123', SVC_BASE_URL: stub.url },
    ...(c.stdin !== undefined ? { stdin: c.stdin } : {}),
    signal: AbortSignal.timeout(15_000),
  });
  return { ...r, sent: stub.requests.length };
}

const byKind = new Map<string, number>();
let tried = 0;
let crashes = 0;
let sent = 0;
afterAll(() => {
  figures('bad input', { cases: CORPUS.length, runs: tried, crashes, requestsSent: sent, unreadableFile: unreadableBy });
  figures('bad input by kind', Object.fromEntries(byKind));
});

describe(`bad input (${CORPUS.length} cases, each in text and in -o json)`, () => {
  it.each(CORPUS.map((c, i) => [`${i + 1} ${c.kind}: ${c.argv.slice(0, 6).join(' ').slice(0, 90)}`, c] as const))('%s', async (_title, c) => {
    const text = await attempt(c, []);
    tried++;
    if (/internal error/.test(text.stderr)) crashes++;
    sent += text.sent;
    const lines = text.stderr.trimEnd().split('\n');
    expect({ code: text.code, sent: text.sent }, text.stderr).toEqual({ code: 2, sent: 0 });
    expect(lines[0]).toMatch(/^error: /);
    expect(names(c, lines[0]!), `"${lines[0]}" names ${c.names}`).toBe(true);
    // One line (cli.md): a hint, when there is one, follows on the same line; never a stack trace.
    expect(lines, text.stderr).toHaveLength(1);
    expect(text.stdout).toBe('');

    const json = await attempt(c, ['-o', 'json']);
    tried++;
    sent += json.sent;
    expect({ code: json.code, sent: json.sent }, json.stderr).toEqual({ code: 2, sent: 0 });
    const jl = json.stderr.trimEnd().split('\n');
    expect(jl).toHaveLength(1);
    expect(JSON.parse(jl[0]!).error).toMatchObject({ code: 'usage', message: expect.any(String) });
    byKind.set(c.kind, (byKind.get(c.kind) ?? 0) + 1);
  });
});
