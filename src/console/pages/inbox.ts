// Inbox: a subscriber's in-app messages as their notification centre shows them, through the same
// front-end API an app's <Inbox/> calls (/v1/inbox/*: a session for the subscriber, then its Bearer
// token), marked read, unread, seen or all read there, with the subscriber's preferences and latest
// activity beside it.
import { useState } from 'preact/hooks';
import { api, type ChannelSwitches, inbox as inboxApi, type InboxNotification, type Subscriber, type SubscriberPreferences } from '../api.js';
import { InAppCard } from '../render.js';
import { ago, Badge, CHANNEL_LABEL, clock, Empty, ErrorLine, go, html, setParams, useDebounced, useLoad } from '../ui.js';

const FOUND = 20;
/** As many notifications as the Inbox's list gives in one page. */
const LISTED = 100;

/**
 * Subscribers matching what was typed, through the subscribers search (GET /v2/subscribers): the
 * subscriber ID exactly, or a part of the name or of the e-mail. With nothing typed, the first few.
 */
async function findSubscribers(q: string): Promise<Subscriber[]> {
  if (!q) return (await api.searchSubscribers({ limit: FOUND })).data;
  const pages = await Promise.all([
    api.searchSubscribers({ subscriberId: q, limit: 1 }),
    api.searchSubscribers({ name: q, limit: FOUND }),
    api.searchSubscribers({ email: q, limit: FOUND }),
  ]);
  const seen = new Set<string>();
  return pages
    .flatMap((p) => p.data)
    .filter((s) => !seen.has(s.subscriberId) && seen.add(s.subscriberId))
    .slice(0, FOUND);
}

const label = (s: Subscriber) => {
  const name = [s.firstName, s.lastName].filter(Boolean).join(' ');
  return `${s.subscriberId}${name ? ` (${name})` : ''}${s.email ? ` ${s.email}` : ''}`;
};

export function Inbox({ params }: { params: URLSearchParams }) {
  const subscriberId = params.get('subscriber') ?? '';
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(undefined);
  const [query, setQuery] = useState('');
  const q = useDebounced(query.trim());
  const subscribers = useLoad(() => findSubscribers(q), [q], false);
  // The application identifier an app's <Inbox/> needs; an extra, so a service without it shows nothing.
  const environment = useLoad(() => api.currentEnvironment().catch(() => undefined), [], false);
  const identifier = environment.value?.identifier;
  // The subscriber's Inbox session: one per subscriber picked, its token kept here only (memory).
  const inboxSession = useLoad(
    async () => (subscriberId && identifier ? { subscriberId, ...(await inboxApi.session(identifier, subscriberId)) } : undefined),
    [subscriberId, identifier],
    false,
  );
  const token = inboxSession.value?.subscriberId === subscriberId ? inboxSession.value.token : undefined;
  const inbox = useLoad(async () => (token ? inboxApi.list(token, LISTED) : undefined), [token]);
  const unreadCount = useLoad(async () => (token ? inboxApi.unreadCount(token) : undefined), [token]);
  const feed = useLoad(async () => (subscriberId ? api.listEvents({ subscriberIds: [subscriberId], limit: 5 }) : undefined), [subscriberId]);

  const pick = (id: string) => {
    setQuery('');
    setParams('inbox', { subscriber: id });
  };
  const mark = async (what: string, change: (token: string) => Promise<unknown>) => {
    if (!token) return;
    setBusy(what);
    setError(undefined);
    try {
      await change(token);
      inbox.reload();
      unreadCount.reload();
      feed.reload();
    } catch (e) {
      setError(e);
    } finally {
      setBusy(null);
    }
  };

  const messages: InboxNotification[] = token ? (inbox.value?.data ?? []) : [];
  const unread = unreadCount.value ?? inboxSession.value?.totalUnreadCount ?? messages.filter((m) => !m.isRead).length;
  const loadError =
    error ??
    (subscriberId && !environment.loading && !identifier ? new Error('The service gave no application identifier: the Inbox API cannot be used.') : undefined);
  return html`<div class="split">
    <section class="pane list-pane">
      <form class="filters" onSubmit=${(e: Event) => e.preventDefault()}>
        <div class="picker">
          <input type="search" aria-label="Find a subscriber" placeholder="Find a subscriber: ID, name or e-mail" value=${query}
            onInput=${(e: any) => setQuery(e.currentTarget.value)} />
          ${subscriberId && !query && html`<div class="small cut" title=${subscriberId}>Inbox of <strong>${subscriberId}</strong></div>`}
          ${
            (query || !subscriberId) &&
            html`<ul class="picker-results" aria-label="Subscribers found">
              ${(subscribers.value ?? []).map(
                (s) => html`<li key=${s.subscriberId}><button type="button" class=${s.subscriberId === subscriberId ? 'on' : ''} title=${label(s)}
                  data-subscriber=${s.subscriberId} onClick=${() => pick(s.subscriberId)}>${label(s)}</button></li>`,
              )}
              ${subscribers.value && subscribers.value.length === 0 && html`<li class="muted small">No subscriber matches ${query}.</li>`}
            </ul>`
          }
        </div>
        ${subscriberId && token && html`<span class="muted small counts">${unread} unread of ${messages.length}</span>`}
        ${unread > 0 && token && html`<button type="button" disabled=${!!busy} onClick=${() => mark('all-read', (t) => inboxApi.markAllRead(t))}>Mark all read</button>`}
      </form>
      ${
        environment.value?.identifier &&
        html`<div class="small muted app-id">Application identifier <code title="applicationIdentifier of the in-app Inbox">${environment.value.identifier}</code> (${environment.value.name})</div>`
      }
      <${ErrorLine} error=${loadError ?? inboxSession.error ?? inbox.error ?? unreadCount.error ?? subscribers.error} />
      ${!subscriberId && html`<${Empty}>Pick a subscriber to see their in-app inbox.<//>`}
      ${subscriberId && token && inbox.value && messages.length === 0 && html`<${Empty}>No in-app messages for ${subscriberId} yet.<//>`}
      <ul class="inbox" aria-label="Inbox">
        ${messages.map(
          (m) => html`<li key=${m.id} data-message=${m.id} class=${m.isRead ? 'read' : 'unread'}>
            <${InAppCard} subject=${m.subject} body=${m.body} avatar=${m.avatar}
              actions=${[m.primaryAction, m.secondaryAction].filter(Boolean)}
              read=${m.isRead} seen=${m.isSeen} time=${ago(m.createdAt)} />
            <div class="inbox-actions">
              <span class="muted small state">${m.isRead ? 'read' : 'unread'} · ${m.isSeen ? 'seen' : 'unseen'}</span>
              ${
                m.isRead
                  ? html`<button type="button" disabled=${!!busy} onClick=${() => mark(`unread:${m.id}`, (t) => inboxApi.mark(t, m.id, 'unread'))}>Mark unread</button>`
                  : html`<button type="button" disabled=${!!busy} onClick=${() => mark(`read:${m.id}`, (t) => inboxApi.mark(t, m.id, 'read'))}>Mark read</button>`
              }
              ${!m.isSeen && html`<button type="button" disabled=${!!busy} onClick=${() => mark(`seen:${m.id}`, (t) => inboxApi.markSeen(t, [m.id]))}>Mark seen</button>`}
              <a class="small" href=${`#/messages?message=${m.id}&subscriber=${encodeURIComponent(subscriberId)}&channel=in_app`}>details</a>
            </div>
          </li>`,
        )}
      </ul>
    </section>
    <section class="pane detail-pane">
      ${subscriberId && html`<${Preferences} key=${subscriberId} subscriberId=${subscriberId} />`}
      <h3>Latest activity${subscriberId ? ` for ${subscriberId}` : ''}</h3>
      ${subscriberId && feed.value?.data.length === 0 && html`<${Empty}>No events.<//>`}
      <ul class="mini-feed" aria-label="Subscriber activity">
        ${(feed.value?.data ?? []).map((n) => {
          const last = (n.jobs ?? [])
            .flatMap((j) => j.executionDetails.map((d) => ({ ...d, type: j.type })))
            .sort((a, b) => String(a.createdAt).localeCompare(String(b.createdAt)))
            .at(-1);
          return html`<li key=${n._id} onClick=${() => go('activity', { event: n._id, subscriber: subscriberId })}>
            <div><strong>${n.template?.name}</strong> <span class="muted small">${ago(n.createdAt)}</span></div>
            ${last && html`<div class="small last-detail"><span class="t">${clock(last.createdAt)}</span> ${last.type}: ${last.detail} <${Badge} value=${last.status} /></div>`}
          </li>`;
        })}
      </ul>
    </section>
  </div>`;
}

/** The channels a row shows, in the console's usual order: those the service answers for it. */
const channelsOf = (c: ChannelSwitches) => Object.keys(CHANNEL_LABEL).filter((k) => k in c) as Array<keyof ChannelSwitches>;

/**
 * The subscriber's preferences (GET /v2/subscribers/{id}/preferences): the global channel switches and
 * each workflow's, every switch a checkbox that PATCHes that one channel. A critical workflow's
 * switches cannot be changed (the service refuses), so they are shown but disabled.
 */
function Preferences({ subscriberId }: { subscriberId: string }) {
  const prefs = useLoad(() => api.getPreferences(subscriberId), [subscriberId]);
  // What the last switch showed, until a read started after its PATCH answered lands: the box moves
  // as soon as it is clicked, and keeps the service's answer while older reads (a live refresh sent
  // before the click, landing after it) are still arriving. Decided at render time from the reads'
  // order, so no late effect can put the old state back.
  const [patched, setPatched] = useState<{ state: SubscriberPreferences; until: number } | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(undefined);
  const view = patched && prefs.valueSeq < patched.until ? patched.state : prefs.value;

  const toggle = async (channel: keyof ChannelSwitches, on: boolean, workflowId?: string) => {
    if (!view) return;
    setBusy(true);
    setError(undefined);
    setPatched({
      state: {
        global: workflowId === undefined ? { ...view.global, channels: { ...view.global.channels, [channel]: on } } : view.global,
        workflows: view.workflows.map((w) => (w.workflow.identifier === workflowId ? { ...w, channels: { ...w.channels, [channel]: on } } : w)),
      },
      until: Number.POSITIVE_INFINITY,
    });
    try {
      const answer = await api.setPreference(subscriberId, { [channel]: on }, workflowId);
      setPatched({ state: answer, until: prefs.reload() });
    } catch (e) {
      setPatched(undefined);
      setError(e);
      prefs.reload();
    } finally {
      setBusy(false);
    }
  };

  // One column per channel any row has, so each channel's switches line up.
  const columns = view ? channelsOf(Object.assign({}, view.global.channels, ...view.workflows.map((w) => w.channels))) : [];
  const row = (label: unknown, channels: ChannelSwitches, attrs: { workflow?: string; critical?: boolean }) =>
    html`<tr data-preference=${attrs.workflow ?? 'global'}>
      <th scope="row">${label}</th>
      ${columns.map((c) => {
        if (!(c in channels)) return html`<td key=${c} class="muted none" title=${`No ${CHANNEL_LABEL[c]} step`}>·</td>`;
        const on = channels[c] !== false;
        return html`<td key=${c}><label class=${`switch ${on ? 'on' : 'off'}`} title=${attrs.critical ? 'Critical workflow: always sent' : `${CHANNEL_LABEL[c]} ${on ? 'on' : 'off'}`}>
          <input type="checkbox" data-channel=${c} aria-label=${`${CHANNEL_LABEL[c]} for ${attrs.workflow ?? 'all workflows'}`} checked=${on} disabled=${busy || attrs.critical}
            onChange=${(e: any) => toggle(c, e.currentTarget.checked, attrs.workflow)} /> ${on ? 'on' : 'off'}</label></td>`;
      })}
    </tr>`;

  return html`<div class="preferences" aria-label="Preferences">
    <h3>Preferences of ${subscriberId}</h3>
    <${ErrorLine} error=${error ?? prefs.error} />
    ${!view && !prefs.error && html`<div class="muted small">Loading…</div>`}
    ${
      view &&
      html`<table class="pref-table">
        <thead><tr><th></th>${columns.map((c) => html`<th key=${c} scope="col">${CHANNEL_LABEL[c]}</th>`)}</tr></thead>
        <tbody>
          ${row(html`<strong>All workflows</strong>`, view.global.channels, {})}
          ${view.workflows.map((w) =>
            row(
              html`<span class="cut" title=${w.workflow.identifier}>${w.workflow.name}</span>${w.workflow.critical ? html` <span class="badge warn">critical</span>` : ''}`,
              w.channels,
              { workflow: w.workflow.identifier, critical: !!w.workflow.critical },
            ),
          )}
        </tbody>
      </table>
      <p class="muted small">A workflow's switch wins over the global one; a critical workflow ignores both.</p>`
    }
  </div>`;
}
