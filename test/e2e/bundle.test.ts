// Every library that svc loads only when a command needs it, exercised through the built binary.
// The other tests run the TypeScript sources, where Node's own module loader resolves these
// packages; the bundle is esbuild's, and it hands CommonJS packages (yaml, jmespath, cli-progress,
// undici's proxy agent) to import() differently. A gap here once left `-o yaml`, `--query` and
// YAML input broken in the binary while every in-process test passed.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { startStub, type Stub } from '../helpers/stub.js';
import { startProxy } from '../helpers/proxy.js';
import { BIN, svcBin } from '../helpers/bin.js';
import { openTerminal, tmux } from '../helpers/tmux.js';
import { tempConfigDir } from '../helpers/run.js';

const KEY = 'sk_test_bundle_0123456789';
const INTEGRATION = {
  _id: '6761f0c2a3b4c5d6e7f80912',
  identifier: 'mail',
  name: 'Mail',
  providerId: 'sendgrid',
  channel: 'email',
  active: true,
  primary: true,
  deleted: false,
  _environmentId: 'e',
  _organizationId: 'o',
};
const event = (i: number) => ({
  _id: `6761f0c2a3b4c5d6e7f8${String(i).padStart(4, '0')}`,
  transactionId: `txn-${i}`,
  channels: ['email'],
  createdAt: '2026-11-22T08:00:00.000Z',
  jobs: [],
});

let stub: Stub;
let env: Record<string, string>;
let dir: string;
beforeAll(async () => {
  stub = await startStub();
  stub.on('GET', '/v1/integrations/active', { body: { data: [INTEGRATION] } });
  stub.on('GET', '/v1/notifications', (req) => {
    const page = Number(req.query.get('page') ?? 0);
    return { body: { data: page < 2 ? [event(page * 2), event(page * 2 + 1)] : [], hasMore: page < 1, page, pageSize: 2 } };
  });
  stub.on('POST', '/v1/events/trigger', { status: 201, body: { data: { acknowledged: true, status: 'processed', transactionId: 'txn-b' } } });
  env = { SVC_API_KEY: KEY, SVC_BASE_URL: stub.url, PATH: process.env.PATH ?? '' };
  dir = mkdtempSync(join(tmpdir(), 'svc-bundle-'));
  writeFileSync(join(dir, 'payload.yaml'), 'plan: pro\nseats: 3\nowner:\n  name: Ada\n');
  writeFileSync(join(dir, 'bad.yaml'), 'plan: pro\nseats: [1, 2\n');
  writeFileSync(join(dir, 'deep.yaml'), `x: ${'['.repeat(3000)}${']'.repeat(3000)}\n`);
  writeFileSync(join(dir, 'users.csv'), 'subscriberId,firstName\nu1,Ada\nu2,Grace\nu3,Edsger\n');
});
afterAll(async () => stub.close());

const sentSince = (n: number) => stub.requests.slice(n);

describe('the built svc, library by library', () => {
  test('yaml: -o yaml prints a result, and a streamed list, as YAML', async () => {
    const one = await svcBin(['integrations', 'active', '-o', 'yaml'], { env });
    expect(one.stderr).toBe('');
    expect(one.exitCode).toBe(0);
    expect(parseYaml(String(one.stdout))).toEqual([INTEGRATION]);
    const all = await svcBin(['events', 'list', '--all', '--limit', '2', '-o', 'yaml'], { env });
    expect(all.exitCode, String(all.stderr)).toBe(0);
    expect((parseYaml(String(all.stdout)) as { transactionId: string }[]).map((e) => e.transactionId)).toEqual(['txn-0', 'txn-1', 'txn-2', 'txn-3']);
  });

  test('yaml: --payload @file.yaml is read; a syntax error names line and column; deep nesting is refused, nothing sent', async () => {
    const ok = await svcBin(['trigger', 'welcome', '--to', 'u1', '--payload', `@${join(dir, 'payload.yaml')}`, '--dry-run', '-o', 'json'], { env });
    expect(ok.exitCode, String(ok.stderr)).toBe(0);
    expect(JSON.parse(String(ok.stdout)).body.payload).toEqual({ plan: 'pro', seats: 3, owner: { name: 'Ada' } });
    const before = stub.requests.length;
    const bad = await svcBin(['trigger', 'welcome', '--to', 'u1', '--payload', `@${join(dir, 'bad.yaml')}`], { env });
    expect(bad.exitCode).toBe(2);
    expect(String(bad.stderr)).toMatch(/^error: --payload: invalid YAML in .*bad\.yaml at line \d+, column \d+: \S/);
    expect(String(bad.stderr).trim().split('\n')).toHaveLength(1);
    const deep = await svcBin(['trigger', 'welcome', '--to', 'u1', '--payload', `@${join(dir, 'deep.yaml')}`], { env });
    expect(deep.exitCode).toBe(2);
    expect(String(deep.stderr)).toContain('--payload: the value in');
    expect(sentSince(before)).toHaveLength(0);
  });

  test('jmespath: --query filters the result; an invalid expression is exit 2 and nothing is sent', async () => {
    const q = await svcBin(['integrations', 'active', '--query', '[0].identifier'], { env });
    expect(q.exitCode, String(q.stderr)).toBe(0);
    expect(JSON.parse(String(q.stdout))).toBe('mail');
    const before = stub.requests.length;
    const bad = await svcBin(['integrations', 'active', '--query', '[0'], { env });
    expect(bad.exitCode).toBe(2);
    expect(String(bad.stderr)).toMatch(/^error: --query: invalid JMESPath expression: /);
    expect(String(bad.stderr)).not.toMatch(/is not a function/);
    expect(sentSince(before)).toHaveLength(0);
  });

  test('csv-parse: --recipients-file reads a CSV', async () => {
    const before = stub.requests.length;
    const r = await svcBin(['trigger', 'welcome', '--recipients-file', join(dir, 'users.csv')], { env, cwd: dir });
    expect(r.exitCode, String(r.stderr)).toBe(0);
    expect(String(r.stderr)).toContain('3 recipients sent');
    const sent = sentSince(before).filter((q) => q.method === 'POST');
    expect(sent.map((q) => (q.body as { to: { subscriberId: string }[] }).to.map((t) => t.subscriberId))).toEqual([['u1', 'u2', 'u3']]);
  });

  test("undici's proxy agent: HTTP_PROXY is used", async () => {
    const proxy = await startProxy();
    try {
      const r = await svcBin(['integrations', 'active'], { env: { ...env, HTTP_PROXY: proxy.url } });
      expect(r.exitCode, String(r.stderr)).toBe(0);
      expect(proxy.proxied.join(' ')).toContain(new URL(stub.url).port);
    } finally {
      await proxy.close();
    }
  });

  test('chalk and cli-table3: a coloured table', async () => {
    const r = await svcBin(['integrations', 'active', '-o', 'table'], { env: { ...env, FORCE_COLOR: '1', NO_COLOR: '' } });
    expect(r.exitCode, String(r.stderr)).toBe(0);
    expect(String(r.stdout)).toMatch(/\u001b\[\d+m/);
    expect(String(r.stdout)).toContain('sendgrid');
  });

  tmux.test('cli-progress: a bulk trigger at a terminal runs with its progress bar', async () => {
    const term = openTerminal(
      [process.execPath, BIN, 'trigger', 'welcome', '--recipients-file', join(dir, 'users.csv'), '--again'],
      {
        SVC_API_KEY: KEY,
        SVC_BASE_URL: stub.url,
        SVC_CONFIG_DIR: tempConfigDir(),
        NO_COLOR: '1',
      },
      { columns: 120, rows: 30 },
    );
    try {
      await term.waitFor('EXIT=');
      expect(term.text()).toContain('3 recipients sent');
      expect(term.text()).toContain('EXIT=0');
    } finally {
      term.close();
    }
  });
});
