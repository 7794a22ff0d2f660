// Activity: the feed (GET /v1/notifications) with filters, refreshed live, and the selected event's
// timeline of jobs and execution details (GET /v1/notifications/{id}).
import { useEffect, useRef } from 'preact/hooks';
import { OBJECT_ID_RE } from '../../core/object-id.js';
import { api, type ActivityNotification } from '../api.js';
import {
  ago,
  Badge,
  channelLabel,
  clock,
  dateTime,
  Empty,
  ErrorLine,
  eventReason,
  eventStatus,
  go,
  html,
  Json,
  matchesStatus,
  prettyRaw,
  setParams,
  useDebounced,
  useLoad,
  useParam,
} from '../ui.js';

/** The statuses of `svc events list --status`, with what each means. */
const STATUS_CHOICES: ReadonlyArray<readonly [string, string]> = [
  ['delivered', 'Delivered'],
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
  const feed = useLoad(async () => {
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
    const r = await api.listEvents({
      limit: 50,
      subscriberIds: subscriber.trim() ? [subscriber.trim()] : undefined,
      emails: email.trim() ? [email.trim()] : undefined,
      templates,
      channels: f.channel ? [f.channel] : undefined,
      after: since ? new Date(Date.now() - since).toISOString() : undefined,
      transactionId: transactionId || undefined,
    });
    // The feed has no status filter: it is computed from the jobs, as `svc events list --status` does
    // (`completed`: every step finished, whatever went out).
    return f.status ? { ...r, data: r.data.filter((n) => matchesStatus(eventStatus(n), f.status)) } : r;
  }, [subscriber, email, workflow, f.channel, f.since, f.status, transactionId]);

  // Rows that arrived since the page opened are marked for a moment.
  const seen = useRef<Set<string> | null>(null);
  const fresh = new Set<string>();
  if (feed.value) {
    if (!seen.current) seen.current = new Set(feed.value.data.map((n) => n._id!));
    for (const n of feed.value.data) if (!seen.current.has(n._id!)) fresh.add(n._id!);
  }
  useEffect(() => {
    if (!feed.value || !seen.current) return;
    const t = setTimeout(() => {
      for (const n of feed.value!.data) seen.current!.add(n._id!);
    }, 2500);
    return () => clearTimeout(t);
  }, [feed.value]);

  const rows = feed.value?.data ?? [];
  // A transaction's link opens on its event's timeline.
  const selected = chosen || (transactionId && rows[0]?._id) || '';
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
      ${feed.value && rows.length === 0 && html`<${Empty}>No events match. Trigger one from the <a href="#/trigger">Trigger</a> page or with <code>svc trigger</code>.<//>`}
      <table class="feed" aria-label="Activity feed">
        <colgroup><col class="c-when" /><col class="c-wf" /><col class="c-sub" /><col class="c-chans" /><col class="c-status" /><col class="c-reason" /></colgroup>
        <thead><tr><th>When</th><th>Workflow</th><th>Subscriber</th><th>Channels</th><th>Status</th><th>Reason</th></tr></thead>
        <tbody>
          ${rows.map((n) => {
            const status = eventStatus(n);
            const name = [n.subscriber?.firstName, n.subscriber?.lastName].filter(Boolean).join(' ');
            const reason = eventReason(n) ?? '';
            // Any text can be long (a name, a workflow, a provider's error): each cell shows one line,
            // cut with an ellipsis, and the whole value on hover (and in the timeline beside).
            return html`<tr key=${n._id} class=${`${n._id === selected ? 'sel' : ''} ${fresh.has(n._id!) ? 'fresh' : ''}`} data-event=${n._id} data-transaction=${n.transactionId}
              onClick=${() => go('activity', { ...f, transaction: transactionId, event: n._id })}>
              <td class="when" title=${dateTime(n.createdAt)}>${ago(n.createdAt)}</td>
              <td><div class="wf cut" title=${n.template?.name ?? ''}>${n.template?.name ?? '(deleted workflow)'}</div><div class="muted small cut">${n.template?.triggers?.[0]?.identifier}</div></td>
              <td><div class="cut" title=${n.subscriber?.subscriberId ?? ''}>${n.subscriber?.subscriberId ?? ''}</div><div class="muted small cut sub-name" title=${name}>${name}</div></td>
              <td class="chans">${(n.channels ?? []).map((c) => html`<span class="chip">${channelLabel(c)}</span>`)}</td>
              <td class="status"><${Badge} value=${status} /></td>
              <td class="reason-cell"><div class="clamp small" title=${reason}>${reason}</div></td>
            </tr>`;
          })}
        </tbody>
      </table>
    </section>
    <section class="pane detail-pane">
      ${selected ? html`<${EventDetail} id=${selected} />` : html`<${Empty}>Select an event to see its timeline.<//>`}
    </section>
  </div>`;
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
