// Store files svc dev must not use: each is refused with one clear line and a non-zero exit, and left
// byte for byte as it was (test/e2e/dev.test.ts covers a file of garbage; these are the subtler ones).
import Database from 'better-sqlite3';
import { createHash } from 'node:crypto';
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCHEMA_VERSION } from '../../src/server/store/migrations.js';
import { seededRandom } from '../helpers/fault-proxy.js';
import { api, startDev, type DevProcess } from '../helpers/dev.js';
import { svcBin } from '../helpers/bin.js';
import { figures } from './util.js';

const apiKey = 'sk_rel_store_5a7c9e1f3b';
let dir: string;
let good: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'svc-rel-store-'));
  good = join(dir, 'good.sqlite');
  // A real store with some history, stopped cleanly (so it is one self-contained file).
  const d = await startDev({ dataFile: good, apiKey, args: ['--no-save-profile', '--quiet'] });
  for (let i = 0; i < 60; i++) await api(d, 'POST', '/v1/events/trigger', { name: 'welcome', to: `store-${i}`, payload: { text: 'x'.repeat(200) } });
  expect(await d.stop()).toBe(0);
});

const sha = (f: string) => createHash('sha256').update(readFileSync(f)).digest('hex');

/** A copy of the good store in a directory of its own, changed by `edit`. */
function variant(name: string, edit: (file: string) => void): string {
  const d = join(dir, name);
  mkdirSync(d);
  const f = join(d, 'store.sqlite');
  copyFileSync(good, f);
  edit(f);
  return f;
}

const startOn = (file: string) => svcBin(['dev', '--port', '0', '--data', file, '--no-save-profile', '--api-key', apiKey], { timeout: 15_000 });

describe('a store svc dev must not use', () => {
  const cases: [string, () => string, RegExp][] = [
    [
      'a newer schema version',
      () =>
        variant('newer', (f) => {
          const db = new Database(f);
          db.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
          db.close();
        }),
      new RegExp(`has schema version ${SCHEMA_VERSION + 1}, newer than this svc understands \\(${SCHEMA_VERSION}\\)`),
    ],
    [
      "another program's SQLite database",
      () => {
        const f = join(dir, 'foreign.sqlite');
        const db = new Database(f);
        db.exec("CREATE TABLE photos (id INTEGER PRIMARY KEY, path TEXT); INSERT INTO photos (path) VALUES ('a.jpg')");
        db.close();
        return f;
      },
      /is an SQLite database but not an svc store/,
    ],
    [
      'a store cut in half (a copy that stopped part-way)',
      () =>
        variant('half', (f) => {
          const b = readFileSync(f);
          writeFileSync(f, b.subarray(0, Math.floor(b.length / 2)));
        }),
      /is not a readable svc store \(.*malformed.*\)/,
    ],
    [
      'a store with damaged pages (its header intact)',
      () =>
        variant('damaged', (f) => {
          const b = readFileSync(f);
          const random = seededRandom(3);
          // Bytes flipped inside the b-tree pages, past the first page: the file opens, the damage is within.
          for (let i = 0; i < 64; i++) {
            const at = 4096 + Math.floor(random() * (b.length - 4096));
            b[at] = b[at]! ^ 0xff;
          }
          writeFileSync(f, b);
        }),
      /is not a readable svc store \(.*(corrupt|malformed).*\)/,
    ],
    [
      'a directory',
      () => {
        const d = join(dir, 'a-directory.sqlite');
        mkdirSync(d);
        return d;
      },
      /cannot open the store .*a-directory\.sqlite/,
    ],
  ];

  const refused: string[] = [];
  let changed = 0;
  afterAll(() => figures('store files refused', { faultsInjected: refused.length, filesChanged: changed }));

  it.each(cases)('%s: one clear line, exit 1, the file untouched', async (name, make, message) => {
    const file = make();
    const isFile = !file.endsWith('a-directory.sqlite');
    const before = isFile ? sha(file) : '';
    const siblings = readdirSync(join(file, '..')).sort();
    const r = await startOn(file);
    expect(r.exitCode, String(r.stderr)).toBe(1);
    const lines = String(r.stderr).trimEnd().split('\n');
    expect(lines[0]).toMatch(/^error: /);
    expect(lines[0]).toMatch(message);
    expect(lines.length).toBeLessThanOrEqual(2);
    expect(String(r.stdout)).toBe('');
    if (isFile && sha(file) !== before) changed++;
    if (isFile) expect(sha(file)).toBe(before);
    // Not even a -wal or -shm file is left beside it.
    expect(readdirSync(join(file, '..')).sort()).toEqual(siblings);
    refused.push(name);
  });

  it('a store in use by a running svc dev: refused, and the running one carries on', async () => {
    const f = variant('in-use', () => undefined);
    const running = await startDev({ dataFile: f, apiKey, args: ['--no-save-profile', '--quiet'] });
    try {
      const r = await startOn(f);
      expect(r.exitCode).toBe(1);
      expect(String(r.stderr)).toMatch(/^error: the store .* is in use by another process; stop the other `svc dev`, or use another --data file$/m);
      expect((await api(running, 'POST', '/v1/events/trigger', { name: 'welcome', to: 'still-here' })).status).toBe(201);
    } finally {
      expect(await running.stop()).toBe(0);
    }
    refused.push('in use');
  });
});

describe('a damaged record in a sound file', () => {
  let d: DevProcess;
  afterAll(() => d?.stop());

  it('answers 500 with an error id (the service is at fault), never "your request body is not valid JSON"', async () => {
    const f = variant('bad-record', (file) => {
      const db = new Database(file);
      db.prepare('UPDATE notifications SET doc = \'{"payload": {\' WHERE id = (SELECT id FROM notifications ORDER BY created_at DESC, id DESC LIMIT 1)').run();
      db.close();
    });
    d = await startDev({ dataFile: f, apiKey, args: ['--no-save-profile'] });
    const r = await api(d, 'GET', '/v1/notifications?limit=50&page=0');
    expect(r.status).toBe(500);
    expect(r.body).toMatchObject({ statusCode: 500, message: 'Internal server error', errorId: expect.any(String) });
    // The rest of the service still works.
    expect((await api(d, 'GET', '/v1/integrations/active')).status).toBe(200);
    await d.stop();
    expect(d.stderr()).toContain(`internal error ${r.body.errorId}`);
  });
});

describe('where and how the store file is written', () => {
  const mode = (f: string) => statSync(f).mode & 0o777;

  it('a new store and its -wal are owner-only (0600): they hold the key and personal data', async () => {
    const f = join(dir, 'private', 'store.sqlite');
    mkdirSync(join(dir, 'private'));
    const d = await startDev({ dataFile: f, apiKey, args: ['--no-save-profile', '--quiet'] });
    try {
      expect((await api(d, 'POST', '/v1/events/trigger', { name: 'welcome', to: 'mode-check' })).status).toBe(201);
      expect(mode(f)).toBe(0o600);
      expect(existsSync(`${f}-wal`)).toBe(true);
      expect(mode(`${f}-wal`)).toBe(0o600);
      for (const extra of [`${f}-shm`, `${f}-journal`]) if (existsSync(extra)) expect(mode(extra)).toBe(0o600);
    } finally {
      expect(await d.stop()).toBe(0);
    }
  });

  it('an existing store left 0644 by an older svc is made owner-only when opened', async () => {
    const f = variant('was-0644', (file) => chmodSync(file, 0o644));
    expect(mode(f)).toBe(0o644);
    const d = await startDev({ dataFile: f, apiKey, args: ['--no-save-profile', '--quiet'] });
    expect(await d.stop()).toBe(0);
    expect(mode(f)).toBe(0o600);
  });

  it('--data in a folder that does not exist: one line naming --data, exit 2, no folder created', async () => {
    const missing = join(dir, 'no', 'such', 'dir');
    const r = await startOn(join(missing, 'x.sqlite'));
    expect(r.exitCode, String(r.stderr)).toBe(2);
    const lines = String(r.stderr).trimEnd().split('\n');
    expect(lines[0]).toMatch(/^error: --data .*x\.sqlite: the folder .*no\/such\/dir does not exist/);
    expect(lines.length).toBeLessThanOrEqual(2);
    expect(existsSync(join(dir, 'no'))).toBe(false);
  });

  it('--retention that is not a duration: one line naming it, exit 2', async () => {
    const r = await svcBin(['dev', '--port', '0', '--in-memory', '--no-save-profile', '--retention', '1w'], { timeout: 15_000 });
    expect(r.exitCode).toBe(2);
    expect(String(r.stderr).trimEnd().split('\n')[0]).toBe('error: invalid --retention 1w: use a duration such as 30d, 12h or 90m');
  });
});
