// svc profile show: precedence flag > env > profile, each value on its own, and where each came from.
import { describe, expect, test } from 'vitest';
import { profileSetup } from '../../helpers/profile.js';

const KEY = 'sk_test_0123456789abcdef';
const KEY2 = 'sk_live_fedcba9876543210';
const setup = profileSetup();
const { svc } = setup;

describe('profile show', () => {
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
});

describe('profile show: the application identifier', () => {
  const ENV = { _id: '6650a0b1c2d3e4f5a6b7c8d9', name: 'Development', _organizationId: '6650a0b1c2d3e4f5a6b7c8da', identifier: 'app_Jx3kQ9', _parentId: null };
  const local = async () => svc(['profile', 'add', 'local', '--base-url', setup.stub.url, '--api-key', KEY]);

  test('read from GET /v1/environments/me of the profile’s service, with its key, in JSON and in the table', async () => {
    await local();
    setup.stub.on('GET', '/v1/environments/me', { body: { data: ENV } });
    const r = await svc(['profile', 'show', 'local']);
    expect(r.code, r.stderr).toBe(0);
    const s = JSON.parse(r.stdout);
    expect(s.applicationIdentifier).toEqual({ value: 'app_Jx3kQ9', source: 'service' });
    expect(s.apiKey).toEqual({ value: 'sk_…cdef', source: 'profile' });
    const table = await svc(['profile', 'show', 'local', '-o', 'table']);
    expect(table.stdout).toMatch(/application identifier\s+app_Jx3kQ9\s+service/);
    expect(setup.stub.requests.map((q) => `${q.method} ${q.path}`)).toEqual(['GET /v1/environments/me', 'GET /v1/environments/me']);
    expect(setup.stub.requests[0]!.headers.authorization).toBe(`ApiKey ${KEY}`);
  });

  test('a service that does not answer it (404, refused, 401): the settings print as before, exit 0, one attempt', async () => {
    await local();
    const before = JSON.parse((await svc(['profile', 'show', 'local', '--dry-run'])).stdout);
    setup.stub.on('GET', '/v1/environments/me', (_req, n) =>
      n === 1 ? { status: 404, body: { statusCode: 404, message: 'Not Found' } } : { status: 401, body: { statusCode: 401, message: 'API Key not found' } },
    );
    for (let i = 0; i < 2; i++) {
      const r = await svc(['profile', 'show', 'local']);
      expect(r.code, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout)).toEqual(before);
      expect(r.stderr).toBe('');
    }
    expect(setup.stub.requests).toHaveLength(2);
    // Nothing listening: still the settings, quickly.
    const t = Date.now();
    const r = await svc(['profile', 'show', '--base-url', 'http://127.0.0.1:9', '--api-key', KEY]);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).baseUrl).toEqual({ value: 'http://127.0.0.1:9', source: 'flag' });
    expect(JSON.parse(r.stdout).applicationIdentifier).toBeUndefined();
    expect(Date.now() - t).toBeLessThan(5_000);
  });

  test('--dry-run and a missing key send nothing', async () => {
    const none = await svc(['profile', 'show', '--base-url', setup.stub.url]);
    expect(none.code, none.stderr).toBe(0);
    expect(JSON.parse(none.stdout).apiKey).toEqual({ value: null, source: 'none' });
    await local();
    const dry = await svc(['profile', 'show', 'local', '--dry-run']);
    expect(dry.code, dry.stderr).toBe(0);
    expect(JSON.parse(dry.stdout).applicationIdentifier).toBeUndefined();
    expect(dry.stdout + dry.stderr).not.toContain('/v1/environments/me');
    expect(setup.stub.requests).toEqual([]);
  });
});
