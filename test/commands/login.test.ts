// svc login: checks the key against the service before saving it.
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { startStub, type Stub } from '../helpers/stub.js';
import { runSvc, tempConfigDir } from '../helpers/run.js';

const KEY = 'sk_test_0123456789abcdef';
let stub: Stub;
let dir: string;
beforeEach(async () => {
  stub = await startStub();
  dir = tempConfigDir();
});
afterEach(async () => stub.close());

const svc = (argv: string[], opts: { env?: Record<string, string>; stdin?: string } = {}) =>
  runSvc(argv, { ...opts, env: { SVC_CONFIG_DIR: join(dir, 'cfg'), ...opts.env } });

describe('svc login', () => {
  test('--with-key checks the key against the service and saves it as the current profile', async () => {
    stub.on('GET', '/v1/integrations/active', { body: { data: [] } });
    const r = await svc(['login', '--with-key', '--profile', 'ci', '--base-url', stub.url], { stdin: KEY });
    expect(r.code).toBe(0);
    expect(stub.requests[0]!.headers.authorization).toBe(`ApiKey ${KEY}`);
    const file = JSON.parse(readFileSync(join(dir, 'cfg', 'config.json'), 'utf8'));
    expect(file.current).toBe('ci');
    expect(file.profiles.ci).toEqual({ baseUrl: stub.url, apiKey: KEY });
  });

  test('a key the service rejects is not saved (exit 3)', async () => {
    stub.on('GET', '/v1/integrations/active', { status: 401, body: { statusCode: 401, message: 'API Key not found', path: '/', timestamp: 'x' } });
    const r = await svc(['login', '--with-key', '--profile', 'ci', '--base-url', stub.url], { stdin: KEY });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('rejected the key sk_…cdef');
    expect(r.stderr).not.toContain(KEY);
    expect(() => statSync(join(dir, 'cfg', 'config.json'))).toThrow();
  });

  test('without a terminal and without --with-key it says how to log in, without waiting', async () => {
    const r = await svc(['login']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--with-key');
  });
});
