// The local service listening on 127.0.0.1 (port 0) for the real Inbox client, and that client.
import type { AddressInfo } from 'node:net';
import { Novu } from '@novu/js';
import type { LocalServiceOptions } from '../../../src/server/index.js';
import { type TestService, testService } from '../../helpers/service.js';

export interface Listening {
  svc: TestService;
  base: string;
  appId: string;
  client(subscriberId: string, extra?: Record<string, unknown>): Novu;
  /** A raw call of the Inbox API with a session token. */
  inbox(
    method: string,
    path: string,
    token: string | undefined,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<{ status: number; body: any; headers: Headers }>;
  session(subscriberId: string, extra?: Record<string, unknown>): Promise<string>;
  close(): Promise<void>;
}

export async function listening(opts: Partial<LocalServiceOptions> = {}): Promise<Listening> {
  const svc = testService(opts);
  await svc.app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(svc.app.server.address() as AddressInfo).port}`;
  const me = await svc.request('GET', '/v1/environments/me');
  const appId = me.body.data.identifier as string;
  const clients: Novu[] = [];
  const inbox: Listening['inbox'] = async (method, path, token, body, headers = {}) => {
    const res = await fetch(`${base}/v1/inbox${path}`, {
      method,
      headers: {
        ...(token !== undefined && { authorization: `Bearer ${token}` }),
        ...(body !== undefined && { 'content-type': 'application/json' }),
        ...headers,
      },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined, headers: res.headers };
  };
  return {
    svc,
    base,
    appId,
    inbox,
    client(subscriberId, extra = {}) {
      const novu = new Novu({ applicationIdentifier: appId, subscriberId, apiUrl: base, socketUrl: base, ...extra } as ConstructorParameters<typeof Novu>[0]);
      clients.push(novu);
      return novu;
    },
    async session(subscriberId, extra = {}) {
      const r = await inbox('POST', '/session', undefined, { applicationIdentifier: appId, subscriberId, ...extra });
      if (r.status !== 201) throw new Error(`session: ${r.status} ${JSON.stringify(r.body)}`);
      return r.body.data.token as string;
    },
    async close() {
      for (const c of clients) await c.socket.disconnect().catch(() => undefined);
      await svc.close();
    },
  };
}

/** Resolves with the first event of that name the client's emitter raises (rejects after `ms`). */
export function nextEvent<T = any>(novu: Novu, event: string, ms = 5_000): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ${event} within ${ms} ms`)), ms);
    const off = novu.on(event as 'notifications.notification_received', (e: unknown) => {
      clearTimeout(timer);
      off();
      resolve((e as { result: T }).result);
    });
  });
}
