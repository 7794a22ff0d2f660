// Bulk sends at their edges: a pipe named as the file (read once, never ahead), the count left after
// Ctrl-C (blank lines and a resumed run's sent rows are not "not sent yet"), and the index of earlier
// runs (per service; its refusal names the flags that continue the earlier run).
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { main } from '../../src/main.js';
import { runSvc, tempConfigDir } from '../helpers/run.js';
import { startStub, type Stub } from '../helpers/stub.js';

const KEY = 'sk_test_0123456789abcdef';
let stub: Stub;
let other: Stub;
let env: Record<string, string>;
let dir: string;
const ok = (s: Stub, onAnswer: () => void = () => {}) =>
  s.on('POST', '/v1/events/trigger', (req) => {
    onAnswer();
    const transactionId = (req.body as { transactionId: string }).transactionId;
    return { status: 201, delayMs: 2, body: { data: { acknowledged: true, status: 'processed', transactionId } } };
  });
beforeEach(async () => {
  stub = await startStub({ allowUnused: true });
  other = await startStub({ allowUnused: true });
  dir = tempConfigDir();
  env = { SVC_API_KEY: KEY, SVC_BASE_URL: stub.url, SVC_CONFIG_DIR: join(dir, 'config') };
});
afterEach(async () => {
  await stub.close();
  await other.close();
});
const abortAt = (ctl: AbortController, n: number) => {
  let answered = 0;
  return () => {
    if (++answered === n) ctl.abort();
  };
};
const leftAfter = (stderr: string) => {
  const m = /(\d+) recipients sent, 0 failed, 0 skipped(?:, (\d+) already sent before)?, (\d+) not sent yet/.exec(stderr);
  expect(m, stderr).not.toBeNull();
  return { sent: Number(m![1]), before: Number(m![2] ?? 0), left: Number(m![3]) };
};

test('a pipe as --recipients-file with stderr a terminal: it is not read ahead for a total, and every row is sent', async () => {
  let n = 0;
  stub.on('POST', '/v1/events/trigger', (req) => {
    n += ((req.body as { to: unknown[] }).to ?? []).length || 1;
    return { status: 201, body: { data: { acknowledged: true, status: 'processed', transactionId: (req.body as { transactionId: string }).transactionId } } };
  });
  const fifo = join(dir, 'users.fifo');
  execFileSync('mkfifo', [fifo]);
  const rows = ['subscriberId', ...Array.from({ length: 50 }, (_, i) => `user-${i}`)].join('\n');
  const writer = spawn('sh', ['-c', 'printf "%s\\n" "$ROWS" > "$F"'], { env: { ...process.env, ROWS: rows, F: fifo }, stdio: 'ignore' });
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  stdout.resume();
  stderr.resume();
  Object.assign(stderr, { isTTY: true, columns: 100 });
  const code = await Promise.race([
    main(['trigger', 'welcome', '--recipients-file', fifo], {
      io: { stdout, stderr, stdin: Readable.from([]) },
      env: { PATH: process.env.PATH, NO_COLOR: '1', ...env },
      cwd: dir,
      handleSignals: false,
    }),
    new Promise((r) => setTimeout(() => r('still waiting'), 10_000)),
  ]);
  writer.kill();
  expect(code).toBe(0);
  expect(n).toBe(50);
  // No journal beside a pipe (nor in /dev beside /dev/null or /dev/fd/N): its rows cannot be read again.
  expect(existsSync(`${fifo}.svc-journal`)).toBe(false);
}, 20_000);

test('interrupted: blank lines are not rows left to send', async () => {
  const lines = ['subscriberId'];
  for (let i = 0; i < 100; i++) lines.push(`user-${i}`, '');
  writeFileSync(join(dir, 'users.csv'), `${lines.join('\n')}\n`);
  const ctl = new AbortController();
  ok(stub, abortAt(ctl, 20));
  const r = await runSvc(['trigger', 'welcome', '--recipients-file', 'users.csv', '--chunk', '1', '--concurrency', '1'], { env, cwd: dir, signal: ctl.signal });
  expect(r.code).toBe(130);
  const { sent, left } = leftAfter(r.stderr);
  expect(sent + left).toBe(100);
});

test('interrupted while a pipe is still open: exits at once, without reading it to its end', async () => {
  const fifo = join(dir, 'users.fifo');
  execFileSync('mkfifo', [fifo]);
  const rows = ['subscriberId', ...Array.from({ length: 50 }, (_, i) => `user-${i}`)].join('\n');
  // 50 rows, then the pipe kept open for 20 s (a slow export).
  const writer = spawn('sh', ['-c', 'exec 3>"$F"; printf "%s\\n" "$ROWS" >&3; sleep 20'], { env: { ...process.env, ROWS: rows, F: fifo }, stdio: 'ignore' });
  const ctl = new AbortController();
  ok(stub, abortAt(ctl, 20));
  const t0 = Date.now();
  const r = await runSvc(['trigger', 'welcome', '--recipients-file', fifo, '--chunk', '1', '--concurrency', '1'], { env, cwd: dir, signal: ctl.signal });
  writer.kill();
  expect(r.code).toBe(130);
  expect(Date.now() - t0).toBeLessThan(10_000);
}, 40_000);

test('a resumed run interrupted: the rows the journal says were sent are not "not sent yet"', async () => {
  const text = `${['subscriberId', ...Array.from({ length: 100 }, (_, i) => `user-${i}`)].join('\n')}\n`;
  const file = join(dir, 'users.csv');
  writeFileSync(file, text);
  // An earlier run sent chunks 50–99 (out of order, with concurrency) before it was killed.
  const run = {
    type: 'run',
    version: 1,
    runId: 'abcdef012345',
    workflow: 'welcome',
    file,
    size: Buffer.byteLength(text),
    chunkSize: 1,
    startedAt: new Date().toISOString(),
  };
  const chunks = Array.from({ length: 50 }, (_, i) => JSON.stringify({ type: 'chunk', index: 50 + i, recipients: 1, at: new Date().toISOString() }));
  writeFileSync(`${file}.svc-journal`, `${[JSON.stringify(run), ...chunks].join('\n')}\n`);
  const ctl = new AbortController();
  ok(stub, abortAt(ctl, 10));
  const r = await runSvc(['trigger', 'welcome', '--recipients-file', 'users.csv', '--chunk', '1', '--concurrency', '1', '--resume'], {
    env,
    cwd: dir,
    signal: ctl.signal,
  });
  expect(r.code).toBe(130);
  const { sent, left } = leftAfter(r.stderr);
  expect(sent + left).toBeLessThanOrEqual(50);
});

test('the same file to the same workflow of another service is another run, not a second send', async () => {
  ok(stub);
  ok(other);
  writeFileSync(join(dir, 'users.csv'), 'subscriberId\nada\nbob\n');
  const first = await runSvc(['trigger', 'welcome', '--recipients-file', 'users.csv', '--report', 'staging.ndjson'], { env, cwd: dir });
  expect(first.code, first.stderr).toBe(0);
  const second = await runSvc(['trigger', 'welcome', '--recipients-file', 'users.csv', '--report', 'prod.ndjson'], {
    env: { ...env, SVC_BASE_URL: other.url },
    cwd: dir,
  });
  expect(second.code, second.stderr).toBe(0);
  expect(other.requests.length).toBeGreaterThan(0);
});

test('the refusal names the flags that continue the earlier run, and they work', async () => {
  ok(stub);
  writeFileSync(join(dir, 'users.csv'), 'subscriberId\nada\nbob\n');
  expect((await runSvc(['trigger', 'welcome', '--recipients-file', 'users.csv', '--report', 'one.ndjson'], { env, cwd: dir })).code).toBe(0);
  const refused = await runSvc(['trigger', 'welcome', '--recipients-file', 'users.csv', '--report', 'two.ndjson'], { env, cwd: dir });
  expect(refused.code).toBe(2);
  const flags = /: (--resume --report \S+) to finish it/.exec(refused.stderr);
  expect(flags, refused.stderr).not.toBeNull();
  const n = stub.requests.length;
  const resumed = await runSvc(['trigger', 'welcome', '--recipients-file', 'users.csv', ...flags![1]!.split(' ')], { env, cwd: dir });
  expect(resumed.code, resumed.stderr).toBe(0);
  expect(resumed.stderr).toContain('2 already sent before');
  expect(stub.requests.length).toBe(n);
});
