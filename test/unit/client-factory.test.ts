// deps.client(), the one door to the API: the rules of the CLI are inside it, whoever asks (commands,
// bulk, wait, watch, login, svc api). Exercised here without a server: each case is refused or answered
// before a request would leave.
import { PassThrough } from 'node:stream';
import { describe, expect, test } from 'vitest';
import { CredentialsError, ReadOnlyError, UsageError } from '../../src/core/errors.js';
import type { GlobalOptions } from '../../src/deps.js';
import { createRuntime } from '../../src/runtime.js';
import { tempConfigDir } from '../helpers/run.js';

const KEY = 'sk_test_factory_0123456789';

async function runtime(globals: Partial<GlobalOptions> = {}, env: Record<string, string> = {}, profile?: { readOnly?: boolean; baseUrl?: string }) {
  const out: string[] = [];
  const stdout = new PassThrough();
  stdout.on('data', (d) => out.push(String(d)));
  const make = (g: Partial<GlobalOptions>) =>
    createRuntime({
      io: { stdout, stderr: new PassThrough(), stdin: new PassThrough() },
      env: { SVC_CONFIG_DIR: dir, ...env },
      globals: { timeout: 1000, retries: 0, ...g },
      commandPath: 'trigger',
      signal: new AbortController().signal,
      cwd: process.cwd(),
    });
  const dir = tempConfigDir();
  const rt = make(globals);
  if (profile) {
    // Saved by a runtime of its own: under --dry-run the store writes nothing.
    await make({})
      .profiles()
      .update((f) => {
        f.profiles.p = { baseUrl: profile.baseUrl ?? 'http://127.0.0.1:1', apiKey: KEY, ...(profile.readOnly ? { readOnly: true } : {}) };
        f.current = 'p';
      });
  }
  return { rt, out };
}

describe('deps.client()', () => {
  test('a client for state changes is refused at once under a read-only profile (bulk asks for one)', async () => {
    const { rt } = await runtime({}, {}, { readOnly: true });
    await expect(rt.client({ writes: true })).rejects.toBeInstanceOf(ReadOnlyError);
    // The plain client reads, and refuses each state change.
    const api = await rt.client();
    await expect(api.send({ method: 'POST', path: '/v1/events/trigger', body: {} })).rejects.toBeInstanceOf(ReadOnlyError);
    await expect(api.send({ method: 'DELETE', path: '/v1/channel-endpoints/x' })).rejects.toBeInstanceOf(ReadOnlyError);
    await rt.dispose();
  });

  test('--dry-run prints the request with the key masked and sends nothing, even under a read-only profile', async () => {
    const { rt, out } = await runtime({ dryRun: true, idempotencyKey: 'k-1', output: 'json' }, {}, { readOnly: true });
    const api = await rt.client({ writes: true });
    const res = await api.send({ method: 'POST', path: '/v1/events/trigger', body: { name: 'w', to: ['u1'] } });
    expect(res).toBeUndefined();
    const shown = JSON.parse(out.join(''));
    expect(shown).toMatchObject({ method: 'POST', url: 'http://127.0.0.1:1/v1/events/trigger', body: { name: 'w', to: ['u1'] } });
    expect(shown.headers['idempotency-key']).toBe('k-1');
    expect(JSON.stringify(shown)).not.toContain(KEY);
    await rt.dispose();
  });

  test('no key is a credentials error; a base URL that is not http(s) is bad input naming its source', async () => {
    await expect((await runtime({}, { SVC_BASE_URL: 'http://127.0.0.1:1' })).rt.client()).rejects.toBeInstanceOf(CredentialsError);
    await expect((await runtime({}, { SVC_API_KEY: KEY, SVC_BASE_URL: 'ftp://x' })).rt.client()).rejects.toThrow(UsageError);
    await expect((await runtime({}, {}, { baseUrl: 'file:///etc' })).rt.client()).rejects.toThrow("the base URL of profile 'p'");
  });

  test('an empty --api-key is bad input, not a fall-through to the saved profile; a key with a line end or space is refused before sending', async () => {
    await expect((await runtime({ apiKey: '' }, {}, {})).rt.client()).rejects.toThrow('--api-key: empty');
    await expect((await runtime({ baseUrl: ' ' }, { SVC_API_KEY: KEY })).rt.client()).rejects.toThrow('--base-url: empty');
    const newline = (await runtime({ apiKey: `${KEY}\n` }, { SVC_BASE_URL: 'http://127.0.0.1:1' })).rt.client();
    await expect(newline).rejects.toThrow(UsageError);
    await expect(newline).rejects.toThrow(/^--api-key: contains a space/);
    await expect((await runtime({}, { SVC_API_KEY: 'sk one', SVC_BASE_URL: 'http://127.0.0.1:1' })).rt.client()).rejects.toThrow(/^SVC_API_KEY: /);
  });

  test('the same client for every plain call; its own for each caller with options', async () => {
    const { rt } = await runtime({}, { SVC_API_KEY: KEY, SVC_BASE_URL: 'http://127.0.0.1:1' });
    expect(await rt.client()).toBe(await rt.client());
    expect(await rt.client({ retries: 5 })).not.toBe(await rt.client());
    await rt.dispose();
  });
});

test('--idempotency-key applies to a request without a key of its own; a derived key (bulk chunks) keeps its own', async () => {
  const { rt, out } = await runtime({ dryRun: true, idempotencyKey: 'k-global', output: 'ndjson' }, { SVC_API_KEY: KEY, SVC_BASE_URL: 'http://127.0.0.1:1' });
  const api = await rt.client();
  await api.send({ method: 'POST', path: '/v2/contexts', body: {} });
  await api.send({ method: 'POST', path: '/v1/events/trigger/bulk', body: {}, idempotencyKey: 'chunk-7' });
  const keys = out
    .join('')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l).headers['idempotency-key']);
  expect(keys).toEqual(['k-global', 'chunk-7']);
});
