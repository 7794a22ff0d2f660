// The console's HTTP client: the same public API as the CLI (/v1, /v2) under the same API key, sent
// in the Authorization header and kept in this tab's sessionStorage only, never in a URL.
import type { ActivityNotification, Message, Subscriber } from '../api/schemas/resources.js';
import type { PreviewResponse, Workflow } from '../api/schemas/workflow.js';

export type { ActivityNotification, Message, Subscriber, PreviewResponse, Workflow };

/** A channel's switch: on, off, or not set (the workflow's or the global default applies). */
export type ChannelSwitches = Partial<Record<'in_app' | 'email' | 'sms' | 'chat' | 'push', boolean>>;
/** GET /v2/subscribers/{id}/preferences (the shape of SubscriberPreferencesView in src/api/schemas/inbox.ts). */
export interface SubscriberPreferences {
  global: { enabled: boolean; channels: ChannelSwitches };
  workflows: Array<{ enabled: boolean; channels: ChannelSwitches; workflow: { identifier: string; name: string; critical?: boolean } }>;
}

const KEY = 'svc.console.apiKey';

export const session = {
  get: (): string | null => sessionStorage.getItem(KEY),
  set: (key: string) => sessionStorage.setItem(KEY, key),
  clear: () => sessionStorage.removeItem(KEY),
};

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** Called when the service refuses the key (401): the shell forgets it and asks again. */
let onUnauthorized: () => void = () => undefined;
export const setUnauthorizedHandler = (fn: () => void) => {
  onUnauthorized = fn;
};

type Query = Record<string, string | number | boolean | string[] | undefined | null>;

function queryString(q: Query = {}): string {
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(q)) {
    if (v === undefined || v === null || v === '') continue;
    if (Array.isArray(v)) for (const x of v) p.append(k, x);
    else p.append(k, String(v));
  }
  const s = p.toString();
  return s ? `?${s}` : '';
}

export async function call<T = unknown>(method: string, path: string, opts: { query?: Query; body?: unknown; key?: string; bearer?: string } = {}): Promise<T> {
  const key = opts.bearer !== undefined ? '' : (opts.key ?? session.get());
  const headers: Record<string, string> = { accept: 'application/json' };
  if (key) headers.authorization = `ApiKey ${key}`;
  // A subscriber's Inbox session token, in the header only (never in a URL, never logged).
  if (opts.bearer) headers.authorization = `Bearer ${opts.bearer}`;
  if (opts.body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${path}${queryString(opts.query)}`, {
    method,
    headers,
    ...(opts.body !== undefined && { body: JSON.stringify(opts.body) }),
    cache: 'no-store',
    credentials: 'omit',
  });
  const text = await res.text();
  let body: any;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = undefined;
  }
  if (!res.ok) {
    // The saved key refused: not a key being tried, not a read that went out with a key since replaced
    // or signed out of.
    if (res.status === 401 && key && key === session.get() && opts.key === undefined && opts.bearer === undefined) onUnauthorized();
    const message = typeof body?.message === 'string' ? body.message : `HTTP ${res.status}`;
    throw new ApiError(res.status, message);
  }
  return body as T;
}

const data = <T>(p: Promise<{ data: T }>) => p.then((r) => r.data);

export interface Page<T> {
  data: T[];
  hasMore: boolean;
  page?: number;
}

let noWorkflowList = false;

export const api = {
  listEvents: (q: Query) => call<Page<ActivityNotification>>('GET', '/v1/notifications', { query: q }),
  getEvent: (id: string) => data(call<{ data: ActivityNotification }>('GET', `/v1/notifications/${encodeURIComponent(id)}`)),
  listMessages: (q: Query) => call<Page<Message> & { totalCount?: number }>('GET', '/v1/messages', { query: q }),
  /** svc dev's own route: one message, an email with its sender (its integration's `from`). */
  getMessage: (id: string) =>
    data(call<{ data: Message & { sender?: { address: string; name?: string } } }>('GET', `/v1/svc-dev/messages/${encodeURIComponent(id)}`)),
  searchSubscribers: (q: Query) => call<{ data: Subscriber[]; next: string | null }>('GET', '/v2/subscribers', { query: q }),
  getSubscriber: (id: string) => data(call<{ data: Subscriber }>('GET', `/v2/subscribers/${encodeURIComponent(id)}`)),
  /** The environment, with the application identifier the in-app Inbox is given. */
  currentEnvironment: () => data(call<{ data: { _id: string; name: string; identifier: string } }>('GET', '/v1/environments/me')),
  getPreferences: (subscriberId: string) =>
    data(call<{ data: SubscriberPreferences }>('GET', `/v2/subscribers/${encodeURIComponent(subscriberId)}/preferences`)),
  /** One switch: the global one without `workflowId`, else that workflow's. Answers the whole view again. */
  setPreference: (subscriberId: string, channels: ChannelSwitches, workflowId?: string) =>
    data(
      call<{ data: SubscriberPreferences }>('PATCH', `/v2/subscribers/${encodeURIComponent(subscriberId)}/preferences`, {
        body: { channels, ...(workflowId !== undefined && { workflowId }) },
      }),
    ),
  getWorkflow: (id: string) => data(call<{ data: Workflow }>('GET', `/v2/workflows/${encodeURIComponent(id)}`)),
  /** GET /v2/workflows where the service has it; null where it answers 404. */
  listWorkflows: async (): Promise<Array<{ workflowId: string; name: string; origin?: string }> | null> => {
    if (noWorkflowList) return null;
    try {
      const r = await call<any>('GET', '/v2/workflows', { query: { limit: 100 } });
      const list = r?.data?.workflows ?? r?.workflows ?? r?.data;
      return Array.isArray(list) ? list : null;
    } catch (e) {
      if (e instanceof ApiError && (e.status === 404 || e.status === 405)) {
        noWorkflowList = true; // asked once per page load
        return null;
      }
      throw e;
    }
  },
  preview: (workflowId: string, stepId: string, body: unknown) =>
    data(call<{ data: PreviewResponse }>('POST', `/v2/workflows/${encodeURIComponent(workflowId)}/step/${encodeURIComponent(stepId)}/preview`, { body })),
  trigger: (body: unknown) =>
    data(call<{ data: { acknowledged: boolean; status: string; transactionId?: string; error?: string[] } }>('POST', '/v1/events/trigger', { body })),
  activeIntegrations: () =>
    data(call<{ data: Array<{ identifier: string; name: string; providerId: string; channel: string }> }>('GET', '/v1/integrations/active')),
};

/** A notification as the in-app Inbox lists it (GET /v1/inbox/notifications; InboxNotification in src/api/schemas/inbox.ts). */
export interface InboxNotification {
  id: string;
  subject?: string;
  body: string;
  isRead: boolean;
  isSeen: boolean;
  createdAt: string;
  avatar?: string;
  primaryAction?: { label: string };
  secondaryAction?: { label: string };
}

/** hex HMAC-SHA256 of the subscriber ID under the API key: the Inbox's `subscriberHash` when HMAC is on. */
async function subscriberHash(key: string, subscriberId: string): Promise<string | undefined> {
  if (!globalThis.crypto?.subtle) return undefined; // not a secure context: no WebCrypto
  const enc = new TextEncoder();
  const k = await crypto.subtle.importKey('raw', enc.encode(key), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const mac = new Uint8Array(await crypto.subtle.sign('HMAC', k, enc.encode(subscriberId)));
  return Array.from(mac, (b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * The in-app Inbox's front-end API (/v1/inbox/*), as an app's <Inbox/> calls it: a session for one
 * subscriber, then that session's token as a Bearer header.
 */
export const inbox = {
  /**
   * POST /v1/inbox/session. The hash is sent whenever WebCrypto can compute it: the service checks it
   * only when the in-app integration has HMAC on, and ignores it otherwise.
   */
  async session(applicationIdentifier: string, subscriberId: string): Promise<{ token: string; totalUnreadCount: number }> {
    const key = session.get();
    const hash = key ? await subscriberHash(key, subscriberId) : undefined;
    const r = await call<{ data: { token: string; totalUnreadCount: number } }>('POST', '/v1/inbox/session', {
      key: '',
      body: { applicationIdentifier, subscriberId, ...(hash !== undefined && { subscriberHash: hash }) },
    });
    return r.data;
  },
  list: (token: string, limit: number) =>
    call<{ data: InboxNotification[]; hasMore: boolean }>('GET', '/v1/inbox/notifications', { bearer: token, query: { limit } }),
  unreadCount: async (token: string): Promise<number> => {
    const r = await call<{ data: Array<{ count: number }> }>('GET', '/v1/inbox/notifications/count', {
      bearer: token,
      query: { filters: JSON.stringify([{ read: false }]) },
    });
    return r.data[0]?.count ?? 0;
  },
  mark: (token: string, id: string, as: 'read' | 'unread') =>
    call('PATCH', `/v1/inbox/notifications/${encodeURIComponent(id)}/${as}`, { bearer: token, body: {} }),
  markSeen: (token: string, ids: string[]) => call('POST', '/v1/inbox/notifications/seen', { bearer: token, body: { notificationIds: ids } }),
  markAllRead: (token: string) => call('POST', '/v1/inbox/notifications/read', { bearer: token, body: {} }),
};

/** Trades the one-time code of `svc dev`'s link for the key (the code works once). */
export async function redeemCode(code: string): Promise<string> {
  const r = await call<{ data: { apiKey: string } }>('POST', '/console/session', { body: { code }, key: '' });
  return r.data.apiKey;
}

/** Checks a key with a cheap read, without disturbing the session. */
export async function checkKey(key: string): Promise<void> {
  await call('GET', '/v1/integrations/active', { key });
}

type Listener = () => void;
const listeners = new Set<Listener>();
let liveState: 'off' | 'connecting' | 'live' = 'off';
const stateListeners = new Set<(s: typeof liveState) => void>();
let controller: AbortController | undefined;

/** Runs `fn` whenever the service reports a change (and once when the stream (re)connects). */
export function onChange(fn: Listener): () => void {
  listeners.add(fn);
  return () => listeners.delete(fn);
}
export function onLiveState(fn: (s: typeof liveState) => void): () => void {
  stateListeners.add(fn);
  fn(liveState);
  return () => stateListeners.delete(fn);
}
function setLive(s: typeof liveState) {
  liveState = s;
  for (const l of stateListeners) l(s);
}

let pending: ReturnType<typeof setTimeout> | undefined;
function emit() {
  // Changes arrive in bursts (a trigger writes several rows): one refresh per burst.
  if (pending) return;
  pending = setTimeout(() => {
    pending = undefined;
    for (const l of listeners) l();
  }, 60);
}

/**
 * The live stream, read with fetch so the key travels in a header (EventSource cannot send one).
 * Reconnects after a second when the stream drops.
 */
export function startLive(): void {
  stopLive();
  const key = session.get();
  if (!key) return;
  const ac = new AbortController();
  controller = ac;
  const run = async () => {
    while (!ac.signal.aborted) {
      setLive('connecting');
      try {
        const res = await fetch('/console/live', {
          headers: { authorization: `ApiKey ${key}`, accept: 'text/event-stream' },
          signal: ac.signal,
          cache: 'no-store',
        });
        if (res.status === 401) {
          onUnauthorized();
          return;
        }
        if (!res.ok || !res.body) throw new Error(`HTTP ${res.status}`);
        const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
        let buf = '';
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          buf += value;
          let sep: number;
          while ((sep = buf.indexOf('\n\n')) >= 0) {
            const frame = buf.slice(0, sep);
            buf = buf.slice(sep + 2);
            const event = /^event: (\w+)/m.exec(frame)?.[1];
            if (event === 'ready') {
              setLive('live');
              emit();
            } else if (event === 'change') emit();
          }
        }
      } catch {
        if (ac.signal.aborted) return;
      }
      setLive('connecting');
      await new Promise((r) => setTimeout(r, 1000));
    }
  };
  void run();
}

export function stopLive(): void {
  // A refresh still due would read with no key, after signing out.
  clearTimeout(pending);
  pending = undefined;
  controller?.abort();
  controller = undefined;
  setLive('off');
}
