// svc profile add: the store's file modes, a key never printed, and --dry-run writing nothing.
import { describe, expect, test } from 'vitest';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { profileSetup } from '../../helpers/profile.js';

const KEY = 'sk_test_0123456789abcdef';
const KEY2 = 'sk_live_fedcba9876543210';
const setup = profileSetup();
const { svc } = setup;

describe('profile add', () => {
  test('a name in use is refused without --force (exit 2, the store unchanged); --force replaces it', async () => {
    expect((await svc(['profile', 'add', 'prod', '--base-url', setup.stub.url, '--api-key', KEY])).code).toBe(0);
    const again = await svc(['profile', 'add', 'prod', '--base-url', 'http://127.0.0.1:1', '--api-key', KEY2]);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain(`a profile named 'prod' exists (${setup.stub.url}); --force replaces it`);
    expect(again.stderr).not.toContain(KEY2);
    expect(JSON.parse(readFileSync(setup.configFile(), 'utf8')).profiles.prod.apiKey).toBe(KEY);
    const forced = await svc(['profile', 'add', 'prod', '--base-url', 'http://127.0.0.1:1', '--api-key', KEY2, '--force']);
    expect(forced.code).toBe(0);
    expect(JSON.parse(readFileSync(setup.configFile(), 'utf8')).profiles.prod).toEqual({ baseUrl: 'http://127.0.0.1:1', apiKey: KEY2 });
  });
  test('a password in the base URL is never shown: profile add, list and show, --dry-run and the --debug trace', async () => {
    const PW = 'hunter2-url-password';
    const withPw = setup.stub.url.replace('http://', `http://user:${PW}@`);
    setup.stub.on('GET', '/v1/integrations/active', { body: { data: [] } });
    // profile show asks the service for the application identifier.
    setup.stub.on('GET', '/v1/environments/me', { body: { data: { identifier: 'app-1' } } });
    const outputs = [
      await svc(['profile', 'add', 'pw', '--base-url', withPw, '--api-key', KEY, '--use']),
      await svc(['profile', 'list', '-o', 'json']),
      await svc(['profile', 'show', '-o', 'json']),
      await svc(['profile', 'show', '-o', 'table']),
      await svc(['integrations', 'active', '--dry-run']),
      await svc(['integrations', 'active', '--debug']),
    ];
    for (const r of outputs) {
      expect(r.code).toBe(0);
      expect(r.stdout + r.stderr).not.toContain(PW);
    }
    expect(outputs[0]!.stderr).toContain('http://user:•••@127.0.0.1');
    expect(JSON.parse(outputs[1]!.stdout)[0].baseUrl).toMatch(/^http:\/\/user:•••@127\.0\.0\.1:\d+$/);
    // Saved as given: the password is what the service needs.
    expect(JSON.parse(readFileSync(setup.configFile(), 'utf8')).profiles.pw.baseUrl).toBe(withPw);
  });

  test('a password holding @ or a space is masked whole; a URL in an error (commander, SVC_BASE_URL) too', async () => {
    const at = await svc(['profile', 'add', 'at', '--base-url', 'https://user:p@ss-secret@example.invalid', '--api-key', KEY]);
    expect(at.code).toBe(0);
    expect(at.stderr).toContain('https://user:•••@example.invalid');
    expect(at.stderr).not.toContain('ss-secret');
    const listed = await svc(['profile', 'list', '-o', 'json']);
    expect(listed.stdout).not.toContain('ss-secret');
    const bad = await svc(['integrations', 'active', '--base-url', 'ftp://user:hunter2-secret@example.invalid', '--api-key', KEY]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).not.toContain('hunter2-secret');
    const env = await svc(['integrations', 'active', '--api-key', KEY], { env: { SVC_BASE_URL: 'ftp://user:hunter3-secret@example.invalid' } });
    expect(env.code).toBe(2);
    expect(env.stderr).toContain('SVC_BASE_URL: expected an http:// or https:// URL, got "ftp://user:•••@example.invalid"');
    expect(env.stderr).not.toContain('hunter3-secret');
  });

  test('a key with a space or a line end is refused when saved, naming the flag (exit 2)', async () => {
    const r = await svc(['profile', 'add', 'sp', '--base-url', setup.stub.url, '--api-key', 'sk_test one']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--api-key: contains a space');
    const login = await svc(['login', '--base-url', setup.stub.url, '--api-key', `${KEY}\n`]);
    expect(login.code).toBe(2);
    expect(login.stderr).toContain('--api-key: contains a space');
    const empty = await svc(['login', '--base-url', setup.stub.url, '--api-key', '']);
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain('--api-key: empty');
    expect(setup.stub.requests).toHaveLength(0);
  });

  test('profile remove needs --yes without a terminal; an unknown name is said first', async () => {
    await svc(['profile', 'add', 'a', '--base-url', setup.stub.url, '--api-key', KEY]);
    const r = await svc(['profile', 'remove', 'a']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("deleting profile 'a' and its saved key needs --yes");
    expect(JSON.parse(readFileSync(setup.configFile(), 'utf8')).profiles.a).toBeDefined();
    expect((await svc(['profile', 'remove', 'zzz'])).stderr).toContain("no profile named 'zzz'");
    expect((await svc(['profile', 'remove', 'a', '--yes'])).code).toBe(0);
    expect(JSON.parse(readFileSync(setup.configFile(), 'utf8')).profiles.a).toBeUndefined();
  });
  test('add writes a 0600 file in a 0700 directory and never prints the key', async () => {
    const r = await svc(['profile', 'add', 'prod', '--base-url', setup.stub.url, '--with-key'], { stdin: `${KEY}\n` });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain("saved profile 'prod'");
    expect(r.stderr).not.toContain(KEY);
    expect(statSync(join(setup.dir, 'cfg')).mode & 0o777).toBe(0o700);
    expect(statSync(setup.configFile()).mode & 0o777).toBe(0o600);
    const file = JSON.parse(readFileSync(setup.configFile(), 'utf8'));
    expect(file).toEqual({ current: 'prod', profiles: { prod: { baseUrl: setup.stub.url, apiKey: KEY } } });
  });
  test('--dry-run: add, use, remove and login say what they would do and write nothing; login sends nothing', async () => {
    await svc(['profile', 'add', 'a', '--base-url', setup.stub.url, '--api-key', KEY]);
    const before = readFileSync(setup.configFile(), 'utf8');
    const add = await svc(['profile', 'add', 'b', '--base-url', setup.stub.url, '--api-key', KEY2, '--use', '--dry-run']);
    expect(add.code).toBe(0);
    expect(add.stderr).toContain("dry run, nothing was written: would save profile 'b'");
    expect((await svc(['profile', 'use', 'a', '--dry-run'])).stderr).toContain("would make 'a' the current profile");
    expect((await svc(['profile', 'remove', 'a', '--dry-run'])).stderr).toContain("would remove profile 'a'");
    expect((await svc(['profile', 'remove', 'nope', '--dry-run'])).code).toBe(2);
    const login = await svc(['login', '--with-key', '--profile', 'c', '--base-url', setup.stub.url, '--dry-run'], { stdin: `${KEY2}\n` });
    expect(login.code).toBe(0);
    expect(JSON.parse(login.stdout)).toEqual({
      method: 'GET',
      url: `${setup.stub.url}/v1/integrations/active`,
      headers: { accept: 'application/json', authorization: 'ApiKey sk_…3210' },
    });
    expect(login.stdout + login.stderr).not.toContain(KEY2);
    expect(setup.stub.requests).toHaveLength(0);
    expect(readFileSync(setup.configFile(), 'utf8')).toBe(before);
  });
});
