// svc profile list, use and remove.
import { describe, expect, test } from 'vitest';
import { profileSetup } from '../../helpers/profile.js';

const KEY = 'sk_test_0123456789abcdef';
const KEY2 = 'sk_live_fedcba9876543210';
const setup = profileSetup();
const { svc } = setup;

describe('profile list', () => {
  test('list, use and remove', async () => {
    await svc(['profile', 'add', 'a', '--base-url', setup.stub.url, '--api-key', KEY]);
    await svc(['profile', 'add', 'b', '--base-url', 'http://127.0.0.1:1', '--api-key', KEY2, '--read-only']);
    let list = JSON.parse((await svc(['profile', 'list'])).stdout);
    expect(list).toEqual([
      { name: 'a', current: true, baseUrl: setup.stub.url, apiKey: 'sk_…cdef', readOnly: false },
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
