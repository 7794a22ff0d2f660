// The built `svc dev` binary end to end: trigger → events → timeline → messages → mark-as, the
// local profile, a clean stop on SIGINT.
import { execa } from 'execa';
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operations } from '../../src/api/operations.js';
import { api, BIN, startDev, type DevProcess } from '../helpers/dev.js';

let dev: DevProcess;
beforeAll(async () => {
  dev = await startDev();
});
afterAll(async () => {
  await dev?.stop();
});

const waitFor = async <T>(fn: () => Promise<T | undefined>, what: string): Promise<T> => {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const v = await fn();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
};

describe('svc dev (built binary)', () => {
  it('prints one JSON line with a masked key and saves the local profile (mode 0600)', async () => {
    expect(dev.started).toMatchObject({ baseUrl: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/), profile: 'local', data: ':memory:' });
    expect(dev.started.apiKey).toBe(`sk_…${dev.apiKey.slice(-4)}`);
    // The console's one-time sign-in link redeems for the key: left out of a script's output too.
    expect(dev.started.console).toBe(`${dev.baseUrl}/console/`);
    expect(dev.started).not.toHaveProperty('consoleLink');
    expect(JSON.stringify(dev.started)).not.toContain('#code=');
    await waitFor(
      async () => (dev.stderr().includes("the console's one-time sign-in link is left out: --show-secrets or --open gives one") ? true : undefined),
      'the note on stderr',
    );
    const file = join(dev.configDir, 'config.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const config = JSON.parse(readFileSync(file, 'utf8'));
    expect(config.current).toBe('local');
    expect(config.profiles.local).toEqual({ baseUrl: dev.baseUrl, apiKey: dev.apiKey });
  });

  it('trigger → events list → event detail → messages → mark-as → the read in the timeline', async () => {
    const t = await api(dev, 'POST', '/v1/events/trigger', { name: 'welcome', to: 'ada', payload: { appName: 'E2E' } });
    expect(t.status).toBe(201);
    const { transactionId } = operations.triggerEvent.response.parse(t.body.data);

    const list = await api(dev, 'GET', `/v1/notifications?transactionId=${transactionId}`);
    const [event] = operations.listEvents.response.parse(list.body).data;
    expect(event?.subscriber?.subscriberId).toBe('ada');

    const detail = await waitFor(async () => {
      const r = await api(dev, 'GET', `/v1/notifications/${event!._id}`);
      const d = operations.getEvent.response.parse(r.body.data);
      return d.jobs?.every((j) => j.status === 'completed') ? d : undefined;
    }, 'the jobs to complete');
    expect(detail.jobs?.map((j) => j.executionDetails.map((d) => d.detail))).toEqual([
      ['Step queued', 'Start sending message', 'Message created', 'Message sent'],
      ['Step queued', 'Message created', 'Message sent'],
    ]);

    const msgs = operations.listMessages.response.parse(
      (await api(dev, 'GET', `/v1/messages?subscriberId=ada&transactionId=${transactionId}&channel=in_app`)).body,
    );
    expect(msgs.data).toHaveLength(1);
    const marked = await api(dev, 'POST', '/v1/subscribers/ada/messages/mark-as', { messageId: msgs.data[0]!._id, markAs: 'read' });
    expect(marked.status).toBe(201);
    expect(marked.body.data[0]).toMatchObject({ read: true, seen: true });

    const after = operations.getEvent.response.parse((await api(dev, 'GET', `/v1/notifications/${event!._id}`)).body.data);
    expect(after.jobs?.[0]?.executionDetails.at(-1)).toMatchObject({ detail: 'Message read', status: 'ReadConfirmation' });
  });

  it('logs one line per request on stderr, without the key', async () => {
    await api(dev, 'GET', '/v1/integrations/active');
    await waitFor(async () => (dev.stderr().includes('GET /v1/integrations/active 200') ? true : undefined), 'the request log line');
    expect(dev.stderr()).not.toContain(dev.apiKey);
  });

  it('stops cleanly on SIGINT with exit code 0', async () => {
    const other = await startDev({ args: ['--no-save-profile', '--quiet'] });
    expect(other.started.profile).toBeNull();
    await api(other, 'GET', '/v1/integrations/active');
    expect(await other.stop()).toBe(0);
    expect(other.stderr()).not.toMatch(/GET \/v1/);
  });
});

describe('svc dev refuses to start, with one clear line', () => {
  const run = (args: string[]) =>
    execa(process.execPath, [BIN, 'dev', '--no-save-profile', ...args], {
      reject: false,
      timeout: 15_000,
      env: { SVC_CONFIG_DIR: mkdtempSync(join(tmpdir(), 'svc-e2e-config-')) },
    });

  it('a port in use → non-zero exit', async () => {
    const port = new URL(dev.baseUrl).port;
    const r = await run(['--in-memory', '--port', port]);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain(`port ${port} on 127.0.0.1 is already in use`);
  });

  it('a bad seed file → exit 2 naming the field; a corrupt store → exit 1, file untouched', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-e2e-bad-'));
    writeFileSync(join(dir, 'seed.json'), JSON.stringify({ subscribers: [{ firstName: 'no id' }] }));
    const seed = await run(['--in-memory', '--port', '0', '--seed', join(dir, 'seed.json')]);
    expect(seed.exitCode).toBe(2);
    expect(seed.stderr).toMatch(/subscribers\.0\.subscriberId/);
    // YAML seeds go through the bundled yaml library; its errors name --seed once, with line and column.
    writeFileSync(join(dir, 'seed.yaml'), 'subscribers:\n  - subscriberId: u1\n    tags: [a, b\n');
    const yaml = await run(['--in-memory', '--port', '0', '--seed', join(dir, 'seed.yaml')]);
    expect(yaml.exitCode).toBe(2);
    expect(yaml.stderr.trim()).toMatch(/^error: --seed: invalid YAML in .*seed\.yaml at line \d+, column \d+: \S[^\n]*$/);
    writeFileSync(join(dir, 'deep.yaml'), `contexts: ${'['.repeat(3000)}${']'.repeat(3000)}\n`);
    const deep = await run(['--in-memory', '--port', '0', '--seed', join(dir, 'deep.yaml')]);
    expect(deep.exitCode).toBe(2);
    expect(deep.stderr.trim()).toMatch(/^error: --seed: the value in .*deep\.yaml nests more than 100 levels deep$/);
    writeFileSync(join(dir, 'store.sqlite'), 'garbage'.repeat(100));
    const store = await run(['--data', join(dir, 'store.sqlite'), '--port', '0']);
    expect(store.exitCode).toBe(1);
    expect(store.stderr).toMatch(/not a readable svc store/);
    expect(readFileSync(join(dir, 'store.sqlite'), 'utf8')).toBe('garbage'.repeat(100));
  });
});
