// A body over the limit sent to the built `svc dev` in another process by clients that write the
// whole body before reading the answer (Node's fetch, and the official SDK built on it): each must
// get the 413 and its message, not a closed socket ("fetch failed", EPIPE).
import { Novu } from '@novu/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_BODY_BYTES } from '../../src/api/limits.js';
import { startDev, type DevProcess } from '../helpers/dev.js';

// A trigger takes the service's largest body (26 MiB): this one is 1 MiB over it.
const LIMIT = MAX_BODY_BYTES;
const BLOB = 'a'.repeat(LIMIT + 1024 * 1024);
const TOO_LARGE = `Request body is larger than ${LIMIT} bytes`;
let dev: DevProcess;
beforeAll(async () => {
  dev = await startDev({ args: ['--no-save-profile', '--quiet'] });
});
afterAll(async () => {
  await dev?.stop();
});

const body = JSON.stringify({ name: 'otp', to: 'ada', payload: { blob: BLOB } });
const headers = () => ({ authorization: `ApiKey ${dev.apiKey}`, 'content-type': 'application/json' });

async function answer(init: RequestInit): Promise<string> {
  try {
    const r = await fetch(`${dev.baseUrl}/v1/events/trigger`, { method: 'POST', ...init });
    return `${r.status} ${((await r.json()) as { message: string }).message}`;
  } catch (e) {
    return `${(e as Error).message}: ${((e as Error).cause as Error | undefined)?.message ?? ''}`;
  }
}

describe('a trigger body 1 MiB over the limit', () => {
  it('Node fetch gets the 413 and its message every time, with a length given or chunked', { timeout: 60_000 }, async () => {
    const seen: string[] = [];
    for (let i = 0; i < 4; i++) seen.push(await answer({ headers: headers(), body }));
    seen.push(await answer({ headers: headers(), body: new Blob([body]).stream(), duplex: 'half' } as RequestInit));
    expect(seen).toEqual(Array(5).fill(`413 ${TOO_LARGE}`));
  });

  it('an answer given before the body is read (a wrong key) reaches the client too', { timeout: 60_000 }, async () => {
    const seen: string[] = [];
    for (let i = 0; i < 3; i++) seen.push(await answer({ headers: { ...headers(), authorization: 'ApiKey sk_nope' }, body }));
    expect(seen).toEqual(Array(3).fill('401 API Key not found'));
  });

  it('the official SDK sees the 413 as an API error with its message', { timeout: 60_000 }, async () => {
    const novu = new Novu({ serverURL: dev.baseUrl, secretKey: dev.apiKey, retryConfig: { strategy: 'none' } });
    for (let i = 0; i < 3; i++) {
      const err = await novu.trigger({ workflowId: 'otp', to: 'ada', payload: { blob: BLOB } }).then(
        () => undefined,
        (e: unknown) => e as { statusCode?: number; body?: string; message: string },
      );
      expect(err?.statusCode, err?.message).toBe(413);
      expect(err?.body).toContain(TOO_LARGE);
    }
  });
});
