// Shared pieces of the console: the htm tag bound to preact, formatting, and small components.
// Everything rendered goes through preact, which escapes text and attributes; nothing here sets HTML.
import { html } from 'htm/preact';
import type { ComponentChildren } from 'preact';
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { maskData } from '../core/mask.js';
import { type EventStatus, type JudgeScope, judge, type StatusJob } from '../core/status.js';
import { onChange, session } from './api.js';

export { html };

export function ago(iso: string | undefined | null): string {
  if (!iso) return '';
  const s = Math.round((Date.now() - Date.parse(iso)) / 1000);
  if (!Number.isFinite(s)) return '';
  if (s < 5) return 'just now';
  if (s < 60) return `${s}s ago`;
  if (s < 3600) return `${Math.floor(s / 60)}m ago`;
  if (s < 86400) return `${Math.floor(s / 3600)}h ago`;
  return `${Math.floor(s / 86400)}d ago`;
}

export function clock(iso: string | undefined | null): string {
  if (!iso) return '';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? '' : d.toLocaleTimeString(undefined, { hour12: false }) + `.${String(d.getMilliseconds()).padStart(3, '0')}`;
}

export function dateTime(iso: string | undefined | null): string {
  if (!iso) return '';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? '' : d.toLocaleString(undefined, { hour12: false });
}

/**
 * An event's derived status from its jobs, the same function `svc events list` uses (core/status.ts):
 * delivered, partial (a channel not sent beside a delivered one), why nothing went out (skipped,
 * throttled, merged, canceled), failed or pending; with a channel, that channel's own outcome.
 */
export function eventStatus(n: { jobs?: ReadonlyArray<unknown> | undefined }, scope?: JudgeScope): EventStatus {
  return judge(n.jobs as StatusJob[] | undefined, scope).status;
}

/** Why: the failure, the channel not sent and why, or why nothing went out, as one line (the CLI's REASON column). */
export function eventReason(n: { jobs?: ReadonlyArray<unknown> | undefined }, scope?: JudgeScope): string | undefined {
  return judge(n.jobs as StatusJob[] | undefined, scope).reason;
}

/** Each channel step's own outcome (delivered, skipped, failed, ...), with its reason. */
export function channelOutcomes(n: { jobs?: ReadonlyArray<unknown> | undefined }) {
  return judge(n.jobs as StatusJob[] | undefined).channels;
}

const TONE: Record<string, string> = {
  completed: 'ok',
  sent: 'ok',
  Success: 'ok',
  delivered: 'ok',
  read: 'ok',
  ReadConfirmation: 'accent',
  failed: 'bad',
  error: 'bad',
  Failed: 'bad',
  warning: 'warn',
  Warning: 'warn',
  skipped: 'warn',
  partial: 'warn',
  throttled: 'warn',
  canceled: 'warn',
  merged: 'accent',
  pending: 'wait',
  queued: 'wait',
  running: 'wait',
  delayed: 'wait',
  Pending: 'wait',
  Queued: 'wait',
};
export const Badge = ({ value }: { value: string }) => html`<span class=${`badge ${TONE[value] ?? 'plain'}`}>${value}</span>`;

export const CHANNEL_LABEL: Record<string, string> = { email: 'Email', in_app: 'In-app', sms: 'SMS', chat: 'Chat', push: 'Push' };
export const channelLabel = (c: string) => CHANNEL_LABEL[c] ?? c;

/** JSON for the raw panels, masked as the CLI's output masks it (tokens, credentials, the key in use). */
function maskedJson(value: unknown): string {
  const key = session.get();
  return JSON.stringify(maskData(value, key ? { knownSecrets: [key] } : {}), null, 2);
}

/** A stored `raw` string (often JSON) for display, masked the same way. */
export function prettyRaw(raw: string): string {
  try {
    const value = JSON.parse(raw);
    // A webhook exchange keeps the answer's body as text: a JSON answer reads better as JSON.
    if (value && typeof value === 'object' && typeof value.body === 'string') {
      try {
        value.body = JSON.parse(value.body);
      } catch {
        // not JSON: kept as the text it was
      }
    }
    return maskedJson(value);
  } catch {
    return String(maskData(raw, { knownSecrets: [session.get() ?? ''] }));
  }
}

export const Json = ({ value, masked = true }: { value: unknown; masked?: boolean }) =>
  html`<pre class="json">${masked ? maskedJson(value) : JSON.stringify(value, null, 2)}</pre>`;

export const Empty = ({ children }: { children: ComponentChildren }) => html`<div class="empty">${children}</div>`;

export const ErrorLine = ({ error }: { error: unknown }) =>
  error ? html`<div class="error" role="alert">${error instanceof Error ? error.message : String(error)}</div>` : null;

/**
 * Loads with `fn` now, again when its inputs change, and again whenever the live stream reports a
 * change (unless `live` is false). Keeps the last good value while reloading.
 */
export function useLoad<T>(
  fn: () => Promise<T>,
  deps: unknown[],
  live = true,
): { value: T | undefined; error: unknown; reload: () => number; loading: boolean; valueSeq: number } {
  const [value, setValue] = useState<T | undefined>(undefined);
  // Which read `value` came from (reads are numbered as they start; only the newest one lands).
  const [valueSeq, setValueSeq] = useState(0);
  const [error, setError] = useState<unknown>(undefined);
  const [loading, setLoading] = useState(true);
  const seq = useRef(0);
  const fnRef = useRef(fn);
  fnRef.current = fn;
  /** Starts a read; returns its number, which `valueSeq` takes when it lands. */
  const reload = () => {
    const mine = ++seq.current;
    setLoading(true);
    fnRef.current().then(
      (v) => {
        if (mine !== seq.current) return;
        setValue(v);
        setValueSeq(mine);
        setError(undefined);
        setLoading(false);
      },
      (e) => {
        if (mine !== seq.current) return;
        setError(e);
        setLoading(false);
      },
    );
    return mine;
  };
  useEffect(() => void reload(), deps);
  useEffect(() => (live ? onChange(() => void reload()) : undefined), [live]);
  return { value, error, reload, loading, valueSeq };
}

/** The hash route: `#/page?k=v`. Pages keep their state (selection, filters) in it, so links work. */
export function useRoute(): { page: string; params: URLSearchParams } {
  const read = () => {
    const raw = location.hash.replace(/^#\/?/, '');
    const [page = '', q = ''] = raw.split('?');
    return { page: page || 'activity', params: new URLSearchParams(q) };
  };
  const [route, setRoute] = useState(read);
  useEffect(() => {
    const on = () => setRoute(read());
    addEventListener('hashchange', on);
    return () => removeEventListener('hashchange', on);
  }, []);
  return route;
}

export function go(page: string, params: Record<string, string | undefined> = {}): void {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v) q.set(k, v);
  const s = q.toString();
  location.hash = `#/${page}${s ? `?${s}` : ''}`;
}

/** Replaces the current route's query without a history entry per keystroke. */
export function setParams(page: string, params: Record<string, string | undefined>): void {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v) q.set(k, v);
  const s = q.toString();
  history.replaceState(null, '', `#/${page}${s ? `?${s}` : ''}`);
  dispatchEvent(new HashChangeEvent('hashchange'));
}

/**
 * Local state that follows a route parameter when the route changes (links, back, forward). Which one
 * shows is decided while rendering: an effect copying the route in would run a frame late, after a
 * faster keystroke, and put the older text back into the box.
 */
export function useParam(params: URLSearchParams, name: string): [string, (v: string) => void] {
  const fromRoute = params.get(name) ?? '';
  const state = useRef({ value: fromRoute, route: fromRoute });
  if (state.current.route !== fromRoute) state.current = { value: fromRoute, route: fromRoute };
  const [, rendered] = useState(0);
  const set = useCallback((v: string) => {
    state.current.value = v;
    rendered((n) => n + 1);
  }, []);
  return [state.current.value, set];
}

/** `value`, once it has stopped changing for `ms` (typing in a filter reloads once, not per key). */
export function useDebounced<T>(value: T, ms = 300): T {
  const [v, setV] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setV(value), ms);
    return () => clearTimeout(t);
  }, [value]);
  return v;
}
