// Activity: the feed (GET /v1/notifications) with filters, refreshed live, and the selected event's
// timeline of jobs and execution details (GET /v1/notifications/{id}). The console is served by svc
// dev, whose store filters by derived status (`svcStatus`, core/status.ts): the status filter looks at
// the whole feed, as the subscriber and workflow filters do.
import { useEffect, useRef, useState } from 'preact/hooks';
import { OBJECT_ID_RE } from '../../core/object-id.js';
import { closest } from '../../core/suggest.js';
import { type ActivityNotification, ApiError, api, onChange, type Page } from '../api.js';
import {
  ago,
  Badge,
  channelLabel,
  channelOutcomes,
  clock,
  dateTime,
  Empty,
  ErrorLine,
  eventReason,
  eventStatus,
  go,
  html,
  Json,
  prettyRaw,
  setParams,
  useDebounced,
  useLoad,
  useParam,
} from '../ui.js';

/** Events per request, as the feed pages them. */
const PAGE_SIZE = 50;

interface Loaded {
  /** Every event of the pages loaded, newest first, each once. */
  rows: ActivityNotification[];
  /** How many pages of the feed that is. */
  pages: number;
  hasMore: boolean;
}

/**
 * The feed, page after page. `more()` loads the next page and appends it (the first load is one such
 * step). When the live stream reports a change, the same number of pages is read again from the top,
 * so rows loaded stay loaded and their status stays current. One read at a time; a change of filters
 * (`key`) starts over and drops whatever the old filters were still reading.
 */
function usePagedFeed(
  fetchPage: (page: number) => Promise<Page<ActivityNotification>>,
  key: string,
): { value: Loaded | undefined; current: boolean; error: unknown; busy: boolean; more: () => void } {
  const [value, setValue] = useState<Loaded | undefined>(undefined);
  // The filters `value` was read for: after a change of filters the old rows stay on screen until the
  // new ones land, but nothing may be chosen from them (`current` is false meanwhile).
  const keyNow = useRef(key);
  const landedKey = useRef<string | null>(null);
  const [error, setError] = useState<unknown>(undefined);
  const [busy, setBusy] = useState(false);
  const latest = useRef({ fetchPage });
  latest.current = { fetchPage };
  const gen = useRef(0);
  const state = useRef<Loaded | undefined>(undefined);
  const running = useRef<'more' | 'refresh' | null>(null);
  // What to do once the read under way is done: look further, read again from the top, or both.
  const queued = useRef({ more: false, refresh: false });

  const land = (mine: number, v: Loaded) => {
    if (mine !== gen.current) return false;
    state.current = v;
    landedKey.current = keyNow.current;
    setValue(v);
    setError(undefined);
    return true;
  };

  /** Appends the page after the loaded ones. */
  const step = async (mine: number) => {
    const start = state.current ?? { rows: [], pages: 0, hasMore: true };
    if (!start.hasMore) return;
    const ids = new Set(start.rows.map((n) => n._id));
    const r = await latest.current.fetchPage(start.pages);
    // Events that arrived meanwhile push older ones down a page: those already here are not repeated.
    const added = r.data.filter((n) => !ids.has(n._id));
    land(mine, { rows: [...start.rows, ...added], pages: start.pages + 1, hasMore: r.hasMore && r.data.length > 0 });
  };

  /** Reads the pages loaded so far again, from the top. */
  const refresh = async (mine: number) => {
    const pages = Math.max(1, state.current?.pages ?? 1);
    // Four at a time: many pages loaded must not become a burst of requests at every live change.
    const answers: Awaited<ReturnType<typeof latest.current.fetchPage>>[] = [];
    for (let p = 0; p < pages; p += 4) {
      const group = Array.from({ length: Math.min(4, pages - p) }, (_, k) => latest.current.fetchPage(p + k));
      answers.push(...(await Promise.all(group)));
      if (mine !== gen.current) return;
    }
    const ids = new Set<string | undefined>();
    const rows: ActivityNotification[] = [];
    for (const r of answers) {
      for (const n of r.data) {
        if (ids.has(n._id)) continue;
        ids.add(n._id);
        rows.push(n);
      }
    }
    const last = answers[answers.length - 1];
    land(mine, { rows, pages, hasMore: !!last?.hasMore && (last?.data.length ?? 0) > 0 });
  };

  const run = (what: 'more' | 'refresh') => {
    if (running.current) {
      // After the read under way: a refresh is worth one more read, and so is "more" (a second "more"
      // while one is under way is the same click twice). Both may wait: neither drops the other.
      if (what === 'more' && running.current === 'more') return;
      queued.current[what] = true;
      if (what === 'more') setBusy(true);
      return;
    }
    const mine = gen.current;
    running.current = what;
    // Only looking further shows as busy: a live refresh happens behind the rows already shown.
    if (what === 'more') setBusy(true);
    // Nothing loaded yet (the first read failed or is still to land): a refresh is the first step.
    (what === 'more' || !state.current ? step(mine) : refresh(mine))
      .catch((e) => {
        if (mine === gen.current) setError(e);
      })
      .finally(() => {
        if (mine !== gen.current) return;
        running.current = null;
        // Looking further first (the click is waiting for it), then the refresh a live change asked for.
        const next = queued.current.more ? 'more' : queued.current.refresh ? 'refresh' : null;
        if (next) queued.current[next] = false;
        if (next !== 'more') setBusy(false);
        if (next) run(next);
      });
  };

  useEffect(() => {
    gen.current++;
    keyNow.current = key;
    state.current = undefined;
    running.current = null;
    queued.current = { more: false, refresh: false };
    run('more');
    // Reads still under way for these filters (or after the page closed) land nowhere.
    return () => void gen.current++;
  }, [key]);
  useEffect(() => onChange(() => run('refresh')), []);
  return { value, current: landedKey.current === key, error, busy, more: () => run('more') };
}

/** The statuses of `svc events list --status`, with what each means. */
const STATUS_CHOICES: ReadonlyArray<readonly [string, string]> = [
  ['delivered', 'Delivered'],
  ['partial', 'Partial (some sent)'],
  ['pending', 'Pending'],
  ['failed', 'Failed'],
  ['skipped', 'Skipped (nothing sent)'],
  ['throttled', 'Throttled (nothing sent)'],
  ['merged', 'Merged into a digest'],
  ['canceled', 'Canceled'],
  ['completed', 'Every step finished'],
];

const SINCE: Record<string, number> = { '15m': 15 * 60_000, '1h': 3_600_000, '24h': 86_400_000, '7d': 7 * 86_400_000 };

interface Filters {
  subscriber: string;
  email: string;
  workflow: string;
  channel: string;
  status: string;
  since: string;
}

export function Activity({ params }: { params: URLSearchParams }) {
  const [subscriberIn, setSubscriber] = useParam(params, 'subscriber');
  const [emailIn, setEmail] = useParam(params, 'email');
  const [workflowIn, setWorkflow] = useParam(params, 'workflow');
  const f: Filters = {
    subscriber: subscriberIn,
    email: emailIn,
    workflow: workflowIn,
    channel: params.get('channel') ?? '',
    status: params.get('status') ?? '',
    since: params.get('since') ?? '',
  };
  const chosen = params.get('event') ?? '';
  // `#/activity?transaction=<id>` is the link to one transaction (`svc trigger` prints it).
  const transactionId = params.get('transaction') ?? params.get('transactionId') ?? '';
  const set = (k: keyof Filters, v: string) => {
    const next = { ...f, [k]: v };
    if (k === 'subscriber') setSubscriber(v);
    if (k === 'email') setEmail(v);
    if (k === 'workflow') setWorkflow(v);
    setParams('activity', { ...next, event: chosen, transaction: transactionId });
  };

  // Workflow identifiers → database ids, as `svc events list --workflow` does.
  const workflowIds = useRef(new Map<string, string>());
  const subscriber = useDebounced(f.subscriber);
  const email = useDebounced(f.email);
  const workflow = useDebounced(f.workflow);
  const fetchPage = async (page: number) => {
    let templates: string[] | undefined;
    if (workflow.trim()) {
      const w = workflow.trim();
      let id = workflowIds.current.get(w);
      if (!id) {
        id = OBJECT_ID_RE.test(w) ? w : (await api.getWorkflow(w))._id;
        workflowIds.current.set(w, id);
      }
      templates = [id];
    }
    const since = SINCE[f.since];
    return api.listEvents({
      page,
      limit: PAGE_SIZE,
      subscriberIds: subscriber.trim() ? [subscriber.trim()] : undefined,
      emails: email.trim() ? [email.trim()] : undefined,
      templates,
      channels: f.channel ? [f.channel] : undefined,
      after: since ? new Date(Date.now() - since).toISOString() : undefined,
      transactionId: transactionId || undefined,
      // svc dev's store judges each event's derived status (core/status.ts) over the whole feed;
      // with a channel chosen, that channel's own outcome.
      svcStatus: f.status ? [f.status] : undefined,
    });
  };
  const scope = { channels: f.channel ? [f.channel] : undefined };
  const feed = usePagedFeed(fetchPage, JSON.stringify([subscriber, email, workflow, f.channel, f.since, f.status, transactionId]));
  const loaded = feed.value?.rows ?? [];
  // The store filtered them; the rows still read the status of the events as they are now.
  const rows = loaded;
  // No event for a subscriber id no subscriber has: say so, with the id it may have meant.
  const hint = useSubscriberHint(feed.value !== undefined && feed.current && rows.length === 0 ? subscriber.trim() : '');

  // Rows that arrived since the page opened are marked for a moment.
  const seen = useRef<Set<string> | null>(null);
  const fresh = new Set<string>();
  if (feed.value) {
    if (!seen.current) seen.current = new Set(loaded.map((n) => n._id!));
    // New arrivals come in at the top; rows an older page brought are not new.
    for (const n of loaded) {
      if (seen.current.has(n._id!)) break;
      fresh.add(n._id!);
    }
  }
  useEffect(() => {
    if (!feed.value || !seen.current) return;
    const t = setTimeout(() => {
      for (const n of feed.value!.rows) seen.current!.add(n._id!);
    }, 2500);
    return () => clearTimeout(t);
  }, [feed.value]);

  // A transaction's link opens on its event's timeline: the first one listed for it, kept while more
  // events of the transaction arrive above it (the timeline being read does not switch), and never a
  // row of the filters before. Another filter (a status) that hides it opens the first row it shows.
  const opened = useRef<{ transactionId: string; id: string } | null>(null);
  if (!chosen && transactionId && feed.current && rows[0]) {
    const kept = opened.current?.transactionId === transactionId && rows.some((n) => n._id === opened.current!.id);
    if (!kept) opened.current = { transactionId, id: rows[0]._id! };
  }
  const selected = chosen || (transactionId && opened.current?.transactionId === transactionId ? opened.current.id : '');
  return html`<div class="split activity-page">
    <section class="pane list-pane">
      <form class="filters even" onSubmit=${(e: Event) => e.preventDefault()} aria-label="Filters">
        <input type="search" placeholder="Subscriber ID" aria-label="Subscriber" value=${f.subscriber} onInput=${(e: any) => set('subscriber', e.currentTarget.value)} />
        <input type="search" placeholder="E-mail" aria-label="Email" value=${f.email} onInput=${(e: any) => set('email', e.currentTarget.value)} />
        <input type="search" placeholder="Workflow ID" aria-label="Workflow" value=${f.workflow} onInput=${(e: any) => set('workflow', e.currentTarget.value)} />
        <select aria-label="Status" value=${f.status} onChange=${(e: any) => set('status', e.currentTarget.value)}>
          <option value="">Any status</option>
          ${STATUS_CHOICES.map(([v, label]) => html`<option value=${v}>${label}</option>`)}
        </select>
        <select aria-label="Channel" value=${f.channel} onChange=${(e: any) => set('channel', e.currentTarget.value)}>
          <option value="">Any channel</option>
          ${['email', 'in_app', 'sms', 'chat', 'push'].map((c) => html`<option value=${c}>${channelLabel(c)}</option>`)}
        </select>
        <select aria-label="Time" value=${f.since} onChange=${(e: any) => set('since', e.currentTarget.value)}>
          <option value="">Any time</option><option value="15m">Last 15 minutes</option><option value="1h">Last hour</option><option value="24h">Last 24 hours</option><option value="7d">Last 7 days</option>
        </select>
      </form>
      ${
        transactionId &&
        html`<div class="note">Transaction <code>${transactionId}</code> <button class="link" onClick=${() => go('activity', { ...f })}>show all</button></div>`
      }
      <${ErrorLine} error=${feed.error} />
      ${feed.value && html`<div class="feed-count muted small" aria-live="polite">${countLine(feed.value, rows.length, f.status, feed.busy)}</div>`}
      ${feed.value && rows.length === 0 && !feed.value.hasMore && hint && html`<${Empty}><span class="subscriber-hint">${hint}</span><//>`}
      ${
        feed.value &&
        rows.length === 0 &&
        !feed.value.hasMore &&
        !hint &&
        html`<${Empty}>No events match. Trigger one from the <a href="#/trigger">Trigger</a> page or with <code>svc trigger</code>.<//>`
      }
      <table class="feed" aria-label="Activity feed">
        <colgroup><col class="c-when" /><col class="c-wf" /><col class="c-sub" /><col class="c-chans" /><col class="c-status" /><col class="c-reason" /></colgroup>
        <thead><tr><th>When</th><th>Workflow</th><th>Subscriber</th><th>Channels</th><th>Status</th><th>Reason</th></tr></thead>
        <tbody>
          ${rows.map((n) => {
            const status = eventStatus(n, scope);
            const name = [n.subscriber?.firstName, n.subscriber?.lastName].filter(Boolean).join(' ');
            const reason = eventReason(n, scope) ?? '';
            // Any text can be long (a name, a workflow, a provider's error): each cell shows one line,
            // cut with an ellipsis, and the whole value on hover (and in the timeline beside).
            return html`<tr key=${n._id} class=${`${n._id === selected ? 'sel' : ''} ${fresh.has(n._id!) ? 'fresh' : ''}`} data-event=${n._id} data-transaction=${n.transactionId}
              onClick=${() => go('activity', { ...f, transaction: transactionId, event: n._id })}>
              <td class="when" title=${dateTime(n.createdAt)}>${ago(n.createdAt)}</td>
              <td><div class="wf cut" title=${n.template?.name ?? ''}>${n.template?.name ?? '(deleted workflow)'}</div><div class="muted small cut">${n.template?.triggers?.[0]?.identifier}</div></td>
              <td><div class="cut" title=${n.subscriber?.subscriberId ?? ''}>${n.subscriber?.subscriberId ?? ''}</div><div class="muted small cut sub-name" title=${name}>${name}</div></td>
              <td class="chans">${(n.channels ?? []).map((c) => html`<span class="chip">${channelLabel(c)}</span>`)}</td>
              <td class="status"><${Badge} value=${status} /></td>
              <td class="reason-cell"><div class=${`clamp small${status === 'failed' ? '' : ' why'}`} title=${reason}>${reason}</div></td>
            </tr>`;
          })}
        </tbody>
      </table>
      ${
        feed.value?.hasMore
          ? html`<div class="feed-more"><button type="button" class="more" aria-busy=${feed.busy} onClick=${feed.more}>${
              feed.busy ? 'Loading…' : 'Load older events'
            }</button></div>`
          : feed.value && feed.value.rows.length > PAGE_SIZE && html`<div class="feed-more muted small">No older events: the whole feed is loaded.</div>`
      }
    </section>
    <section class="pane detail-pane">
      ${selected ? html`<${EventDetail} key=${selected} id=${selected} />` : html`<${Empty}>Select an event to see its timeline.<//>`}
    </section>
  </div>`;
}

/** What the list holds: "50 events shown · more older", "19 merged, all shown" (the store looked at every event). */
function countLine(v: Loaded, shown: number, status: string, busy: boolean): string {
  const events = (n: number) => `${n} ${status ? `${status} ` : ''}event${n === 1 ? '' : 's'}`;
  if (v.hasMore) return `${events(shown)} shown · more older${busy ? ' · loading…' : ''}`;
  return shown === 0 ? '' : `${events(shown)}, all shown`;
}

/**
 * The hint the CLI gives when a subscriber id names no subscriber: "no subscriber has the id 'Ada';
 * did you mean 'ada'?". Empty while the id is unknown to be missing (or when there is one).
 */
function useSubscriberHint(id: string): string {
  const [hint, setHint] = useState('');
  useEffect(() => {
    setHint('');
    if (!id) return;
    let alive = true;
    subscriberHint(id).then(
      (h) => alive && setHint(h),
      () => undefined,
    );
    return () => void (alive = false);
  }, [id]);
  return hint;
}

async function subscriberHint(id: string): Promise<string> {
  try {
    await api.getSubscriber(id);
    return '';
  } catch (e) {
    if (!(e instanceof ApiError) || e.status !== 404) return '';
  }
  // Ids differing in case, or close to it, among those the service finds for the same text.
  const found = await Promise.all([id, id.toLowerCase()].map((q) => api.searchSubscribers({ subscriberId: q, limit: 10 }).catch(() => ({ data: [] }))));
  const ids = found.flatMap((r) => r.data.map((x) => x.subscriberId));
  const near = closest(id, ids.length ? ids : (await api.searchSubscribers({ limit: 100 }).catch(() => ({ data: [] }))).data.map((x) => x.subscriberId));
  return `no subscriber has the id '${id}'${near.length ? `; did you mean ${near.map((n) => `'${n}'`).join(' or ')}?` : ''}`;
}

export function EventDetail({ id }: { id: string }) {
  const ev = useLoad(() => api.getEvent(id), [id]);
  const n: ActivityNotification | undefined = ev.value;
  if (ev.error && !n) return html`<${ErrorLine} error=${ev.error} />`;
  if (!n) return html`<div class="muted">Loading…</div>`;
  return html`<div class="event" data-event-detail=${n._id}>
    <header class="event-head">
      <h2>${n.template?.name ?? 'Event'} <${Badge} value=${eventStatus(n)} /></h2>
      <dl class="facts">
        <dt>Subscriber</dt><dd>${n.subscriber?.subscriberId} ${n.subscriber?.email ? html`<span class="muted">${n.subscriber.email}</span>` : ''}</dd>
        ${(n.subscriber?.firstName || n.subscriber?.lastName) && html`<dt>Name</dt><dd class="sub-full-name">${[n.subscriber?.firstName, n.subscriber?.lastName].filter(Boolean).join(' ')}</dd>`}
        <dt>Transaction</dt><dd><code>${n.transactionId}</code></dd>
        <dt>Created</dt><dd>${dateTime(n.createdAt)}</dd>
        ${eventReason(n) && html`<dt>Why</dt><dd class="reason">${eventReason(n)}</dd>`}
        ${
          new Set(channelOutcomes(n).map((c) => c.outcome)).size > 1 &&
          html`<dt>Channels</dt><dd class="outcomes">${channelOutcomes(n).map(
            (c) => html`<span class="outcome" title=${c.reason ?? ''}>${channelLabel(c.channel)} <${Badge} value=${c.outcome} /></span> `,
          )}</dd>`
        }
        <dt>Messages</dt><dd><a href=${`#/messages?transaction=${encodeURIComponent(n.transactionId)}`}>open the delivered messages</a></dd>
      </dl>
    </header>
    <ol class="timeline">
      ${(n.jobs ?? []).map(
        (j) => html`<li class="job" data-job=${j._id}>
          <div class="job-head"><span class="chip">${channelLabel(j.type)}</span> <strong>${(j.step as any)?.name ?? (j.step as any)?.stepId ?? j.type}</strong> <${Badge} value=${j.status} />
            ${j.providerId && html`<span class="muted small">${j.providerId}</span>`}</div>
          <ul class="details">
            ${j.executionDetails.map(
              (d) => html`<li class=${`detail ${d.status}`}>
                <span class="t">${clock(d.createdAt)}</span>
                <span class="d">${d.detail}</span>
                <span class="muted small">${d.source}${d.providerId ? ` · ${d.providerId}` : ''}</span>
                ${d.raw && html`<details><summary>raw</summary><pre class="json">${prettyRaw(d.raw)}</pre></details>`}
              </li>`,
            )}
          </ul>
        </li>`,
      )}
    </ol>
    <details class="payload"><summary>Payload</summary><${Json} value=${n.payload ?? {}} /></details>
  </div>`;
}
