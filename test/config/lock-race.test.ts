// The profile store's lock under processes racing for it: writers that die holding it leave stale
// locks, and every live writer tries to take such a lock over at the same moment. Exactly one may:
// each writer checks, inside the lock, that nobody else is inside, and every profile written survives.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { build } from 'esbuild';
import { execa } from 'execa';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const WRITERS = 6;
const ROUNDS = 25;
let work: string;
let script: string;

// Each writer: says it is ready, waits for the start signal, then ROUNDS times leaves a stale lock (a dead pid, 5 s old)
// when there is none, and updates the store; inside the lock it holds a marker created exclusively.
const RACER = `
import { existsSync, openSync, closeSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { ProfileStore } from ${JSON.stringify(fileURLToPath(new URL('../../src/config/profiles.ts', import.meta.url)))};
const [dir, me, rounds] = [process.argv[2], process.argv[3], Number(process.argv[4])];
const store = new ProfileStore({ SVC_CONFIG_DIR: dir });
const lock = store.file + '.lock';
const sleep = (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
writeFileSync(dir + '-ready-' + me, '');
while (!existsSync(dir + '/go')) sleep(2);
let overlaps = 0;
for (let i = 0; i < rounds; i++) {
  try {
    const fd = openSync(lock, 'wx');
    writeFileSync(fd, '99999');
    closeSync(fd);
    const past = new Date(Date.now() - 5000);
    utimesSync(lock, past, past);
  } catch {}
  await store.update((f) => {
    try { closeSync(openSync(dir + '/inside', 'wx')); } catch { overlaps++; }
    sleep(3);
    f.profiles[me + '-' + i] = { baseUrl: 'http://127.0.0.1:1' };
    rmSync(dir + '/inside', { force: true });
  });
}
console.log(JSON.stringify({ overlaps }));
`;

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'svc-lock-race-'));
  writeFileSync(join(work, 'racer.ts'), RACER);
  script = join(work, 'racer.mjs');
  // The CommonJS package bundled in (the store's atomic write) requires Node's modules and names its
  // temporary files after its own file.
  const banner = "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);";
  await build({
    entryPoints: [join(work, 'racer.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    outfile: script,
    logLevel: 'silent',
    banner: { js: banner },
    define: { __filename: 'import.meta.filename' },
  });
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

test('writers racing to take over stale locks: never two inside at once, no profile lost', { timeout: 60_000 }, async () => {
  const dir = join(work, 'config');
  const procs = Array.from({ length: WRITERS }, (_, w) =>
    execa(process.execPath, [script, dir, `w${w}`, String(ROUNDS)], { reject: false, cwd: fileURLToPath(new URL('../..', import.meta.url)) }),
  );
  // Every writer waiting at the start line (each says so with a file), then the start signal.
  await expect.poll(() => Array.from({ length: WRITERS }, (_, w) => existsSync(`${dir}-ready-w${w}`)).every(Boolean), { timeout: 30_000 }).toBe(true);
  const { mkdirSync } = await import('node:fs');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'go'), '');
  const results = await Promise.all(procs);
  for (const r of results) expect(r.exitCode, r.stderr).toBe(0);
  const overlaps = results.reduce((n, r) => n + (JSON.parse(r.stdout) as { overlaps: number }).overlaps, 0);
  expect(overlaps).toBe(0);
  const profiles = Object.keys((JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')) as { profiles: object }).profiles);
  expect(profiles).toHaveLength(WRITERS * ROUNDS);
  expect(existsSync(join(dir, 'inside'))).toBe(false);
});
