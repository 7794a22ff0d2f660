// svc profile show: precedence flag > env > profile, each value on its own, and where each came from.
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { join } from 'node:path';
import { startStub, type Stub } from '../../helpers/stub.js';
import { runSvc, tempConfigDir } from '../../helpers/run.js';

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
