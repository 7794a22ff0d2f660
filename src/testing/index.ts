// `svc-cli/testing`: svc dev for a team's own test files. `startLocalService()` starts the local service
// in the test's process on a free loopback port and hands back what a test needs: where it listens, a
// key, the Inbox's application identifier, and the harness (new environments, reset, the clock, waiting
// for a message). Everything goes through the service's HTTP API, as the CLI's admin commands do, so a
// test sees exactly what an app's code would see. `stop()` closes the server, the runner's timers and
// the store: nothing is left that keeps the test process alive.
import { parseDuration } from '../core/duration.js';
import { createLocalService, type LocalService } from '../server/index.js';
import { MEMORY } from '../server/store/index.js';
import type { LocalServiceHandle, Message, StartOptions } from './types.js';

export type * from './types.js';

/** Raised when a wait ends without a matching message. */
export class MessageWaitTimeout extends Error {
  override name = 'MessageWaitTimeout';
}

const HOLD_STEP_MS = 5_000;

/**
 * The official SDK (`@novu/api`) checks answers against enums that carry the hosted service's name
 * (`novu-cloud`), where svc dev answers with the spec's (`svc-cloud`): this fetch hands the SDK each JSON
 * answer with those values renamed, for `new HTTPClient({ fetcher: svc.sdkFetch })`.
 */
const sdkFetch: typeof fetch = async (input, init) => {
  const res = await fetch(input, init);
  if (!(res.headers.get('content-type') ?? '').includes('json')) return res;
  const text = (await res.text())
    .replace(/"svc(-[a-z0-9-]+)?"/g, (_m, rest: string | undefined) => `"novu${rest ?? ''}"`)
    .replace(/"svcSignature"/g, '"novuSignature"');
  return new Response(text, { status: res.status, statusText: res.statusText, headers: res.headers });
};

function toMs(duration: number | string): number {
  const ms = typeof duration === 'number' ? duration : parseDuration(duration);
  if (ms === undefined || !Number.isInteger(ms) || ms < 0)
    throw new TypeError(`clock.advance: expected milliseconds or a duration such as '1h', got ${JSON.stringify(duration)}`);
  return ms;
}

export async function startLocalService(opts: StartOptions = {}): Promise<LocalServiceHandle> {
  const service: LocalService = createLocalService({
    data: opts.data ?? MEMORY,
    empty: opts.empty,
    apiKey: opts.apiKey,
    clockMode: opts.clock ?? 'manual',
  });
  let url: string;
  try {
    await service.app.listen({ host: '127.0.0.1', port: 0 });
    const address = service.app.server.address();
    if (address === null || typeof address === 'string') throw new Error('svc dev: no TCP address');
    url = `http://127.0.0.1:${address.port}`;
  } catch (e) {
    await service.close();
    throw e;
  }
  const apiKey = service.environment.apiKey;
  const call = async <T>(path: string, init: { method?: string; body?: unknown; key?: string } = {}): Promise<T> => {
    const res = await fetch(`${url}${path}`, {
      method: init.method ?? 'GET',
      headers: { authorization: `ApiKey ${init.key ?? apiKey}`, ...(init.body !== undefined && { 'content-type': 'application/json' }) },
      ...(init.body !== undefined && { body: JSON.stringify(init.body) }),
    });
    const text = await res.text();
    const json = text === '' ? undefined : (JSON.parse(text) as { data?: T; message?: unknown });
    if (!res.ok) throw new Error(`svc dev answered ${res.status} to ${init.method ?? 'GET'} ${path}: ${JSON.stringify(json?.message ?? text)}`);
    return json?.data as T;
  };
  const clockAnswer = (a: { mode: 'real' | 'scaled' | 'manual'; now: string }) => ({ mode: a.mode, now: new Date(a.now) });
  let mark = new Date((await call<{ now: string }>('/v1/svc-dev/clock')).now);

  return {
    url,
    apiKey,
    environmentId: service.environment.id,
    applicationIdentifier: service.store.tx(() => service.store.inbox.settings(service.environment.id).identifier),
    async newEnvironment(name = `test-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}`) {
      const env = await call<{ _id: string; name: string; identifier: string; apiKeys: { key: string }[] }>('/v1/environments', {
        method: 'POST',
        body: { name, color: '#3a7f5c' },
      });
      return { id: env._id, name: env.name, apiKey: env.apiKeys[0]!.key, applicationIdentifier: env.identifier, url };
    },
    async reset(o = {}) {
      await call('/v1/svc-dev/reset', { method: 'POST', body: { empty: o.empty ?? opts.empty ?? false } });
      mark = new Date((await call<{ now: string }>('/v1/svc-dev/clock')).now);
    },
    clock: {
      now: async () => clockAnswer(await call('/v1/svc-dev/clock')),
      advance: async (duration) => clockAnswer(await call('/v1/svc-dev/clock/advance', { method: 'POST', body: { ms: toMs(duration) } })),
    },
    async waitForMessage(q) {
      const timeout = q.timeout ?? 10_000;
      const deadline = performance.now() + timeout;
      const since = q.since === undefined ? mark : new Date(q.since);
      const query = new URLSearchParams({ subscriberId: q.subscriberId, since: since.toISOString() });
      for (const k of ['workflowId', 'channel', 'transactionId', 'contains'] as const) if (q[k] !== undefined) query.set(k, q[k]);
      // The service answers as soon as a match is stored; a long wait is held in steps, so that no
      // single request outlives a proxy's or the service's own limit.
      for (;;) {
        const left = Math.max(0, Math.ceil(deadline - performance.now()));
        query.set('holdMs', String(Math.min(left, HOLD_STEP_MS)));
        const found = await call<Message | null>(`/v1/svc-dev/messages/wait?${query}`);
        if (found) return found;
        if (left <= HOLD_STEP_MS) throw new MessageWaitTimeout(`no message for ${JSON.stringify({ ...q, since })} within ${timeout} ms`);
      }
    },
    sdkFetch,
    stop: () => service.close(),
  };
}
