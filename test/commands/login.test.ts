// svc login: checks the key against the service before saving it.
import { describe, expect, test } from 'vitest';
import { readFileSync, statSync } from 'node:fs';
import { profileSetup } from '../helpers/profile.js';

const KEY = 'sk_test_0123456789abcdef';
const setup = profileSetup();
const { svc } = setup;

describe('svc login', () => {
  test('--with-key checks the key against the service and saves it as the current profile', async () => {
    setup.stub.on('GET', '/v1/integrations/active', { body: { data: [] } });
    const r = await svc(['login', '--with-key', '--profile', 'ci', '--base-url', setup.stub.url], { stdin: KEY });
    expect(r.code).toBe(0);
    expect(setup.stub.requests[0]!.headers.authorization).toBe(`ApiKey ${KEY}`);
    const file = JSON.parse(readFileSync(setup.configFile(), 'utf8'));
    expect(file.current).toBe('ci');
    expect(file.profiles.ci).toEqual({ baseUrl: setup.stub.url, apiKey: KEY });
  });

  test('a key the service rejects is not saved (exit 3)', async () => {
    setup.stub.on('GET', '/v1/integrations/active', { status: 401, body: { statusCode: 401, message: 'API Key not found', path: '/', timestamp: 'x' } });
    const r = await svc(['login', '--with-key', '--profile', 'ci', '--base-url', setup.stub.url], { stdin: KEY });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('rejected the key sk_…cdef');
    expect(r.stderr).not.toContain(KEY);
    expect(() => statSync(setup.configFile())).toThrow();
  });

  test('without a terminal and without --with-key it says how to log in, without waiting', async () => {
    const r = await svc(['login']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--with-key');
  });
});
