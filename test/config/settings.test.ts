// The settings every request resolves (src/config/profiles.ts): where it goes, which key it carries,
// bad URLs and unknown profiles refused as input, read-only profiles, a corrupt store.
import { describe, expect, test } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { profileSetup } from '../helpers/profile.js';

const KEY = 'sk_test_0123456789abcdef';
const KEY2 = 'sk_live_fedcba9876543210';
const setup = profileSetup();
const { svc } = setup;

describe('settings', () => {
  test('the request goes where the resolved settings say', async () => {
    setup.stub.on('GET', '/v1/integrations/active', { body: { data: [] } });
    await svc(['profile', 'add', 'p', '--base-url', setup.stub.url, '--api-key', KEY]);
    expect((await svc(['integrations', 'active'])).code).toBe(0);
    expect(setup.stub.requests[0]!.headers.authorization).toBe(`ApiKey ${KEY}`);
    expect((await svc(['integrations', 'active'], { env: { SVC_API_KEY: KEY2 } })).code).toBe(0);
    expect(setup.stub.requests[1]!.headers.authorization).toBe(`ApiKey ${KEY2}`);
    expect((await svc(['integrations', 'active', '--api-key', 'sk_flag_000000000000'], { env: { SVC_API_KEY: KEY2 } })).code).toBe(0);
    expect(setup.stub.requests[2]!.headers.authorization).toBe('ApiKey sk_flag_000000000000');
  });
  test.each([['ftp://x'], ['not a url'], ['mailto:a@b.c']])('SVC_BASE_URL=%s is bad input (exit 2) naming it, not a network error', async (url) => {
    const r = await svc(['integrations', 'active', '--retries', '3'], { env: { SVC_API_KEY: KEY, SVC_BASE_URL: url } });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`error: SVC_BASE_URL: expected an http:// or https:// URL, got ${JSON.stringify(url)}\n`);
  });
  test('a profile whose base URL is not http(s) is bad input (exit 2) naming the profile and the fix', async () => {
    await svc(['profile', 'add', 'odd', '--base-url', 'http://127.0.0.1:1', '--api-key', KEY]);
    const file = setup.configFile();
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
    setup.stub.on('GET', '/v1/integrations/active', { body: { data: [] } });
    setup.stub.on('POST', '/v2/workflows/wf/step/s/preview', { status: 201, body: { data: { previewPayloadExample: {}, result: {} } } });
    await svc(['profile', 'add', 'ro', '--base-url', setup.stub.url, '--api-key', KEY, '--read-only']);
    const w = await svc(['trigger', 'welcome', '--to', 'u1']);
    expect(w.code).toBe(3);
    expect(w.stderr).toContain("profile 'ro' is read-only");
    expect((await svc(['contexts', 'create', 't', 'i'])).code).toBe(3);
    expect((await svc(['api', 'DELETE', '/v1/channel-endpoints/x'])).code).toBe(3);
    expect((await svc(['integrations', 'active'])).code).toBe(0);
    expect((await svc(['workflow', 'preview', 'wf', 's'])).code).toBe(0);
    expect(setup.stub.requests.map((r) => r.method)).toEqual(['GET', 'POST']);
  });
  test('a corrupt store is reported, not overwritten', async () => {
    const cfg = join(setup.dir, 'cfg');
    await svc(['profile', 'add', 'p', '--base-url', setup.stub.url, '--api-key', KEY]);
    writeFileSync(join(cfg, 'config.json'), '{ not json');
    const r = await svc(['integrations', 'active']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('is not valid JSON');
    expect(readFileSync(join(cfg, 'config.json'), 'utf8')).toBe('{ not json');
  });
});
