// The built binary as scripts use it: data only on stdout, valid JSON when piped, stable exit codes,
// and a person at a terminal gets a prompt (driven through tmux).
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startStub, type Stub } from '../helpers/stub.js';
import { BIN, svcBin } from '../helpers/bin.js';
import { tempConfigDir } from '../helpers/run.js';
import { openTerminal, tmux } from '../helpers/tmux.js';

const KEY = 'sk_test_0123456789abcdef';
let stub: Stub;
let env: Record<string, string>;
beforeAll(async () => {
  stub = await startStub();
  stub.on('GET', '/v1/integrations/active', {
    body: {
      data: [
        {
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
        },
      ],
    },
  });
  stub.on('POST', '/v1/events/trigger', { status: 201, body: { data: { acknowledged: true, status: 'processed', transactionId: 'txn-e2e' } } });
  stub.on('GET', '/v1/notifications/6761f0c2a3b4c5d6e7f80999', {
    status: 404,
    body: { statusCode: 404, message: 'Notification not found', path: '/', timestamp: 'x' },
  });
  // No transaction has that id either (events get tries both).
  stub.on('GET', '/v1/notifications', { body: { data: [], hasMore: false, page: 0, pageSize: 50 } });
  env = { SVC_API_KEY: KEY, SVC_BASE_URL: stub.url, PATH: process.env.PATH ?? '' };
});
afterAll(async () => stub.close());

describe('svc binary', () => {
  test('--version prints the version only', async () => {
    const r = await svcBin(['--version']);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toMatch(/^\d+\.\d+\.\d+$/);
    expect(r.stderr).toBe('');
  });

  test('piped output is JSON and nothing else; messages go to stderr', async () => {
    const r = await svcBin(['integrations', 'active'], { env });
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(String(r.stdout))[0].identifier).toBe('mail');
    const t = await svcBin(['trigger', 'welcome', '--to', 'user-1'], { env });
    expect(t.exitCode).toBe(0);
    expect(JSON.parse(String(t.stdout))).toEqual({ acknowledged: true, status: 'processed', transactionId: 'txn-e2e' });
  });

  test('-o tsv: plain values a shell loop reads, a --query string bare', async () => {
    const r = await svcBin(['integrations', 'active', '-o', 'tsv', '-q', '--fields', 'identifier,providerId,primary'], { env });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe('mail\tsendgrid\ttrue');
    const t = await svcBin(['trigger', 'welcome', '--to', 'user-1', '-o', 'tsv', '--query', 'transactionId'], { env });
    expect(t.stdout).toBe('txn-e2e');
  });

  test('errors: one line on stderr, JSON with -o json, exit code per cli.md', async () => {
    const r = await svcBin(['events', 'get', '6761f0c2a3b4c5d6e7f80999'], { env });
    expect(r.exitCode).toBe(5);
    expect(r.stdout).toBe('');
    expect(String(r.stderr).trim().split('\n')).toHaveLength(1);
    const j = await svcBin(['events', 'get', '6761f0c2a3b4c5d6e7f80999', '-o', 'json'], { env });
    expect(JSON.parse(String(j.stderr))).toMatchObject({ error: { code: 'not_found', status: 404 } });
    const u = await svcBin(['events', 'list', '--limit', '500'], { env });
    expect(u.exitCode).toBe(2);
    expect(String(u.stderr)).not.toMatch(/at .*\.js:\d+/);
  });

  test('a usage error is one line; a command group without its subcommand shows its help, exit 2', async () => {
    const u = await svcBin(['trigger', 'welcome', '--to', 'u1', '--bogus'], { env });
    expect(u.exitCode).toBe(2);
    expect(String(u.stderr).trimEnd().split('\n')).toEqual([`error: unknown option '--bogus'; see 'svc trigger --help'`]);
    const g = await svcBin(['events'], { env });
    expect(g.exitCode).toBe(2);
    expect(String(g.stderr)).toContain('Usage: svc events');
    expect(String(g.stderr)).not.toMatch(/outputHelp|^error/m);
    expect(g.stdout).toBe('');
  });

  test('in CI (no terminal) a missing recipient fails at once instead of prompting', async () => {
    const r = await svcBin(['trigger', 'welcome'], { env: { ...env, CI: '1' }, timeout: 10_000 });
    expect(r.exitCode).toBe(2);
    expect(String(r.stderr)).toContain('--to');
  });

  tmux.test('at a terminal, a missing --to is asked for', async () => {
    const cfg = tempConfigDir();
    const before = stub.requests.length;
    const term = openTerminal(
      [process.execPath, BIN, 'trigger', 'welcome'],
      { NO_COLOR: '1', SVC_CONFIG_DIR: cfg, SVC_API_KEY: KEY, SVC_BASE_URL: stub.url },
      { columns: 120, rows: 30 },
    );
    try {
      await term.waitFor('Recipients');
      term.type('user-7 user-8');
      term.keys('Enter');
      await term.waitFor('EXIT=0');
      const sent = stub.requests.slice(before).find((r) => r.method === 'POST');
      expect(sent?.body).toMatchObject({ name: 'welcome', to: ['user-7', 'user-8'] });
      expect(term.text()).toContain('processed');
    } finally {
      term.close();
    }
  });

  tmux.test("at a terminal, a missing workflow is chosen from the service's active workflows; without one it is a usage error", async () => {
    const wf = (workflowId: string, name: string, active: boolean) => ({
      _id: `6761f0c2a3b4c5d6e7f8${workflowId.length}a${active ? 1 : 0}b`,
      workflowId,
      slug: workflowId,
      name,
      active,
    });
    stub.on('GET', '/v2/workflows', {
      body: { data: { workflows: [wf('welcome', 'Welcome', true), wf('retired', 'Retired', false), wf('otp', 'One-time code', true)], totalCount: 3 } },
    });
    const cfg = tempConfigDir();
    const before = stub.requests.length;
    const term = openTerminal(
      [process.execPath, BIN, 'trigger', '--to', 'user-9'],
      {
        NO_COLOR: '1',
        SVC_CONFIG_DIR: cfg,
        SVC_API_KEY: KEY,
        SVC_BASE_URL: stub.url,
      },
      { columns: 120, rows: 30 },
    );
    try {
      await term.waitFor('Workflow:');
      expect(term.text()).toContain('otp  (One-time code)');
      expect(term.text()).not.toContain('retired');
      term.keys('Down');
      term.keys('Enter');
      await term.waitFor('EXIT=0');
      const sent = stub.requests.slice(before).find((r) => r.method === 'POST');
      expect(sent?.body).toMatchObject({ name: 'otp', to: ['user-9'] });
    } finally {
      term.close();
    }
    const piped = await svcBin(['trigger', '--to', 'user-9'], { env });
    expect(piped.exitCode).toBe(2);
    expect(String(piped.stderr)).toContain("missing required argument 'workflow'");
  });

  tmux.test('svc login at a terminal: prompts, masks the key as it is typed, checks it, saves the profile', async () => {
    const cfg = tempConfigDir();
    const term = openTerminal([process.execPath, BIN, 'login', '--base-url', stub.url], { NO_COLOR: '1', SVC_CONFIG_DIR: cfg }, { columns: 120, rows: 30 });
    try {
      await term.waitFor('Profile name');
      term.keys('Enter');
      await term.waitFor('API key');
      term.type(KEY);
      // Every character typed has reached the prompt once as many mask dots show.
      await term.waitFor('•'.repeat(KEY.length));
      expect(term.text()).not.toContain(KEY);
      term.keys('Enter');
      await term.waitFor('EXIT=0');
      expect(term.text()).toContain("logged in: profile 'default'");
      expect(term.text()).not.toContain(KEY);
      const saved = JSON.parse(readFileSync(join(cfg, 'config.json'), 'utf8'));
      expect(saved).toEqual({ current: 'default', profiles: { default: { baseUrl: stub.url, apiKey: KEY } } });
    } finally {
      term.close();
    }
  });
});
