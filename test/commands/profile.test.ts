// svc profile add|list|show|use|remove: the store's file modes, precedence flag > env > profile, read-only profiles.
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startStub, type Stub } from '../helpers/stub.js';
import { runSvc, tempConfigDir } from '../helpers/run.js';

const KEY = 'sk_test_0123456789abcdef';
const KEY2 = 'sk_live_fedcba9876543210';
let stub: Stub;
let dir: string;
beforeEach(async () => {
  stub = await startStub();
  dir = tempConfigDir();
});
afterEach(async () => stub.close());

const svc = (argv: string[], opts: { env?: Record<string, string>; stdin?: string } = {}) =>
  runSvc(argv, { ...opts, env: { SVC_CONFIG_DIR: join(dir, 'cfg'), ...opts.env } });

describe('svc profile', () => {
  test('add writes a 0600 file in a 0700 directory and never prints the key', async () => {
    const r = await svc(['profile', 'add', 'prod', '--base-url', stub.url, '--with-key'], { stdin: `${KEY}\n` });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain("saved profile 'prod'");
    expect(r.stderr).not.toContain(KEY);
    expect(statSync(join(dir, 'cfg')).mode & 0o777).toBe(0o700);
    expect(statSync(join(dir, 'cfg', 'config.json')).mode & 0o777).toBe(0o600);
    const file = JSON.parse(readFileSync(join(dir, 'cfg', 'config.json'), 'utf8'));
    expect(file).toEqual({ current: 'prod', profiles: { prod: { baseUrl: stub.url, apiKey: KEY } } });
  });

  test('--dry-run: add, use, remove and login say what they would do and write nothing; login sends nothing', async () => {
    await svc(['profile', 'add', 'a', '--base-url', stub.url, '--api-key', KEY]);
    const before = readFileSync(join(dir, 'cfg', 'config.json'), 'utf8');
    const add = await svc(['profile', 'add', 'b', '--base-url', stub.url, '--api-key', KEY2, '--use', '--dry-run']);
    expect(add.code).toBe(0);
    expect(add.stderr).toContain("dry run, nothing was written: would save profile 'b'");
    expect((await svc(['profile', 'use', 'a', '--dry-run'])).stderr).toContain("would make 'a' the current profile");
    expect((await svc(['profile', 'remove', 'a', '--dry-run'])).stderr).toContain("would remove profile 'a'");
    expect((await svc(['profile', 'remove', 'nope', '--dry-run'])).code).toBe(2);
    const login = await svc(['login', '--with-key', '--profile', 'c', '--base-url', stub.url, '--dry-run'], { stdin: `${KEY2}\n` });
    expect(login.code).toBe(0);
    expect(JSON.parse(login.stdout)).toEqual({
      method: 'GET',
      url: `${stub.url}/v1/integrations/active`,
      headers: { accept: 'application/json', authorization: 'ApiKey sk_…3210' },
    });
    expect(login.stdout + login.stderr).not.toContain(KEY2);
    expect(stub.requests).toHaveLength(0);
    expect(readFileSync(join(dir, 'cfg', 'config.json'), 'utf8')).toBe(before);
  });

  test('list, use and remove', async () => {
    await svc(['profile', 'add', 'a', '--base-url', stub.url, '--api-key', KEY]);
    await svc(['profile', 'add', 'b', '--base-url', 'http://127.0.0.1:1', '--api-key', KEY2, '--read-only']);
    let list = JSON.parse((await svc(['profile', 'list'])).stdout);
    expect(list).toEqual([
      { name: 'a', current: true, baseUrl: stub.url, apiKey: 'sk_…cdef', readOnly: false },
      { name: 'b', current: false, baseUrl: 'http://127.0.0.1:1', apiKey: 'sk_…3210', readOnly: true },
    ]);
    expect((await svc(['profile', 'use', 'b'])).code).toBe(0);
    list = JSON.parse((await svc(['profile', 'list'])).stdout);
    expect(list.find((p: { current: boolean }) => p.current).name).toBe('b');
    expect((await svc(['profile', 'use', 'zzz'])).code).toBe(2);
    expect((await svc(['profile', 'remove', 'b'])).code).toBe(0);
    list = JSON.parse((await svc(['profile', 'list'])).stdout);
    expect(list.map((p: { name: string }) => p.name)).toEqual(['a']);
  });

  test('precedence: flag > env > profile, each value on its own, and show says where each came from', async () => {
    await svc(['profile', 'add', 'p', '--base-url', 'http://profile.example', '--api-key', KEY]);
    let s = JSON.parse((await svc(['profile', 'show'])).stdout);
    expect(s).toMatchObject({
      profile: { value: 'p', source: 'profile' },
      baseUrl: { value: 'http://profile.example', source: 'profile' },
      apiKey: { value: 'sk_…cdef', source: 'profile' },
    });
    s = JSON.parse((await svc(['profile', 'show'], { env: { SVC_BASE_URL: 'http://env.example' } })).stdout);
    expect(s.baseUrl).toEqual({ value: 'http://env.example', source: 'env' });
    expect(s.apiKey.source).toBe('profile');
    s = JSON.parse(
      (
        await svc(['profile', 'show', '--base-url', 'http://flag.example', '--api-key', KEY2], {
          env: { SVC_BASE_URL: 'http://env.example', SVC_API_KEY: KEY },
        })
      ).stdout,
    );
    expect(s.baseUrl).toEqual({ value: 'http://flag.example', source: 'flag' });
    expect(s.apiKey).toEqual({ value: 'sk_…3210', source: 'flag' });
  });

  test('the request goes where the resolved settings say', async () => {
    stub.on('GET', '/v1/integrations/active', { body: { data: [] } });
    await svc(['profile', 'add', 'p', '--base-url', stub.url, '--api-key', KEY]);
    expect((await svc(['integrations', 'active'])).code).toBe(0);
    expect(stub.requests[0]!.headers.authorization).toBe(`ApiKey ${KEY}`);
    expect((await svc(['integrations', 'active'], { env: { SVC_API_KEY: KEY2 } })).code).toBe(0);
    expect(stub.requests[1]!.headers.authorization).toBe(`ApiKey ${KEY2}`);
    expect((await svc(['integrations', 'active', '--api-key', 'sk_flag_000000000000'], { env: { SVC_API_KEY: KEY2 } })).code).toBe(0);
    expect(stub.requests[2]!.headers.authorization).toBe('ApiKey sk_flag_000000000000');
  });

  test.each([['ftp://x'], ['not a url'], ['mailto:a@b.c']])('SVC_BASE_URL=%s is bad input (exit 2) naming it, not a network error', async (url) => {
    const r = await svc(['integrations', 'active', '--retries', '3'], { env: { SVC_API_KEY: KEY, SVC_BASE_URL: url } });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`error: SVC_BASE_URL: expected an http:// or https:// URL, got ${JSON.stringify(url)}\n`);
  });

  test('a profile whose base URL is not http(s) is bad input (exit 2) naming the profile and the fix', async () => {
    await svc(['profile', 'add', 'odd', '--base-url', 'http://127.0.0.1:1', '--api-key', KEY]);
    const file = join(dir, 'cfg', 'config.json');
    writeFileSync(file, readFileSync(file, 'utf8').replace('http://127.0.0.1:1', 'ftp://files.example'));
    const r = await svc(['integrations', 'active', '--profile', 'odd']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      'the base URL of profile \'odd\': expected an http:// or https:// URL, got "ftp://files.example"; fix it with svc profile add odd --base-url URL',
    );
  });

  test('a named profile that does not exist is a usage error', async () => {
    const r = await svc(['integrations', 'active', '--profile', 'nope']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("no profile named 'nope'");
  });

  test('a read-only profile refuses state changes (exit 3) and allows reads and previews', async () => {
    stub.on('GET', '/v1/integrations/active', { body: { data: [] } });
    stub.on('POST', '/v2/workflows/wf/step/s/preview', { status: 201, body: { data: { previewPayloadExample: {}, result: {} } } });
    await svc(['profile', 'add', 'ro', '--base-url', stub.url, '--api-key', KEY, '--read-only']);
    const w = await svc(['trigger', 'welcome', '--to', 'u1']);
    expect(w.code).toBe(3);
    expect(w.stderr).toContain("profile 'ro' is read-only");
    expect((await svc(['contexts', 'create', 't', 'i'])).code).toBe(3);
    expect((await svc(['api', 'DELETE', '/v1/channel-endpoints/x'])).code).toBe(3);
    expect((await svc(['integrations', 'active'])).code).toBe(0);
    expect((await svc(['workflow', 'preview', 'wf', 's'])).code).toBe(0);
    expect(stub.requests.map((r) => r.method)).toEqual(['GET', 'POST']);
  });

  test('a corrupt store is reported, not overwritten', async () => {
    const cfg = join(dir, 'cfg');
    await svc(['profile', 'add', 'p', '--base-url', stub.url, '--api-key', KEY]);
    writeFileSync(join(cfg, 'config.json'), '{ not json');
    const r = await svc(['integrations', 'active']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('is not valid JSON');
    expect(readFileSync(join(cfg, 'config.json'), 'utf8')).toBe('{ not json');
  });
});
