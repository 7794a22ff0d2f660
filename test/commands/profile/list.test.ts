// svc profile list, use and remove.
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

describe('profile list', () => {
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
    expect((await svc(['profile', 'remove', 'b'])).code).toBe(2); // no terminal: needs --yes
    expect((await svc(['profile', 'remove', 'b', '--yes'])).code).toBe(0);
    list = JSON.parse((await svc(['profile', 'list'])).stdout);
    expect(list.map((p: { name: string }) => p.name)).toEqual(['a']);
  });
});
