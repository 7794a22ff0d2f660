// Messages: every delivered message (GET /v1/messages) rendered as its recipient sees it, with the
// checks a person would otherwise do by hand (core/message-checks.ts, as `svc messages get` prints
// them), and the delivery record and the provider exchange from its job's execution details beside it.
import { type Check, type Inspection, inspectMessage } from '../../core/message-checks.js';
import { api, type Message } from '../api.js';
import { ChatCard, EmailView, InAppCard, PushCard, SmsView } from '../render.js';
import { ago, Badge, channelLabel, dateTime, Empty, ErrorLine, go, html, Json, prettyRaw, setParams, useDebounced, useLoad, useParam } from '../ui.js';

export function Messages({ params }: { params: URLSearchParams }) {
  const channel = params.get('channel') ?? '';
  const [subscriber, setSubscriber] = useParam(params, 'subscriber');
  const transaction = params.get('transaction') ?? '';
  const selected = params.get('message') ?? '';
  const state = (over: Record<string, string> = {}) => ({ channel, subscriber, transaction, message: selected, ...over });

  const subscriberQ = useDebounced(subscriber);
  const list = useLoad(
    () =>
      api.listMessages({
        limit: 50,
        channel: channel || undefined,
        subscriberId: subscriberQ.trim() || undefined,
        transactionId: transaction ? [transaction] : undefined,
      }),
    [channel, subscriberQ, transaction],
  );
  const integrations = useLoad(() => api.activeIntegrations(), [], false);
  const rows = list.value?.data ?? [];
  const current = rows.find((m) => m._id === selected);

  return html`<div class="split messages-page">
    <section class="pane list-pane">
      <form class="filters" onSubmit=${(e: Event) => e.preventDefault()}>
        <input type="search" placeholder="Subscriber ID" aria-label="Subscriber" value=${subscriber}
          onInput=${(e: any) => {
            setSubscriber(e.currentTarget.value);
            setParams('messages', state({ subscriber: e.currentTarget.value }));
          }} />
        <select aria-label="Channel" value=${channel} onChange=${(e: any) => setParams('messages', state({ channel: e.currentTarget.value, message: '' }))}>
          <option value="">Any channel</option>
          ${['email', 'in_app', 'sms', 'chat', 'push'].map((c) => html`<option value=${c}>${channelLabel(c)}</option>`)}
        </select>
      </form>
      ${transaction && html`<div class="note">Transaction <code>${transaction}</code> <button class="link" onClick=${() => go('messages', { channel, subscriber })}>show all</button></div>`}
      <${ErrorLine} error=${list.error} />
      ${list.value && rows.length === 0 && html`<${Empty}>No messages yet. Messages appear here as workflows deliver them.<//>`}
      <ul class="messages" aria-label="Messages">
        ${rows.map(
          (m) => html`<li key=${m._id} class=${m._id === selected ? 'sel' : ''} data-message=${m._id} data-channel=${m.channel}
            onClick=${() => go('messages', state({ message: m._id! }))}>
            <div class="row1"><span class="chip">${channelLabel(m.channel)}</span> <span class="title">${summary(m)}</span></div>
            <div class="row2 muted small"><span>${m.subscriber?.subscriberId ?? ''}</span> · <span>${m.templateIdentifier ?? ''}</span> · <span title=${dateTime(m.createdAt)}>${ago(m.createdAt)}</span> <${Badge} value=${m.status} /></div>
          </li>`,
        )}
      </ul>
    </section>
    <section class="pane detail-pane">
      ${
        current
          ? html`<${MessageDetail} key=${current._id} message=${current} integrations=${integrations.value ?? []} />`
          : html`<${Empty}>${selected && list.value ? 'This message is not in the list above (filters?).' : 'Select a message to see it as its recipient does.'}<//>`
      }
    </section>
  </div>`;
}

function summary(m: Message): string {
  const text = m.subject || m.title || (typeof m.content === 'string' ? m.content : '') || '';
  return m.channel === 'email' ? text : text.replace(/<[^>]*>/g, ' ').slice(0, 90);
}

type Integration = { identifier: string; name: string; providerId: string; channel: string };

function MessageView({ m, integrations }: { m: Message; integrations: Integration[] }) {
  const body = typeof m.content === 'string' ? m.content : JSON.stringify(m.content ?? '');
  const provider = integrations.find((i) => i.providerId === m.providerId && i.channel === m.channel);
  switch (m.channel) {
    case 'email':
      return html`<${EmailView} subject=${m.subject} body=${body}
        from=${provider ? `${provider.name} integration (${provider.identifier})` : (m.providerId ?? '')}
        to=${m.email ?? m.subscriber?.email ?? ''} />`;
    case 'in_app': {
      const buttons = ((m.cta as any)?.action?.buttons ?? []) as Array<{ type?: string; content?: string }>;
      return html`<${InAppCard} subject=${m.subject} body=${body} actions=${buttons} read=${m.read} seen=${m.seen} time=${ago(m.createdAt)} />`;
    }
    case 'sms':
      return html`<${SmsView} body=${body} to=${m.phone} />`;
    case 'chat':
      return html`<${ChatCard} body=${body} provider=${provider?.name ?? m.providerId} time=${ago(m.createdAt)} />`;
    case 'push':
      return html`<${PushCard} title=${m.title} body=${body} devices=${m.deviceTokens?.length} />`;
    default:
      return html`<pre class="json">${body}</pre>`;
  }
}

function MessageDetail({ message: m, integrations }: { message: Message; integrations: Integration[] }) {
  const jobId = (m as { _jobId?: string })._jobId;
  const ev = useLoad(() => api.getEvent(m._notificationId), [m._notificationId]);
  const job = ev.value?.jobs?.find((j) => j._id === jobId);
  const exchanges = (job?.executionDetails ?? []).filter((d) => d.raw);
  const { subscriber, ...record } = m;
  return html`<div class="message" data-message-detail=${m._id}>
    <header class="msg-head">
      <h2>${channelLabel(m.channel)} to ${m.subscriber?.subscriberId ?? ''} <${Badge} value=${m.status} /></h2>
      <div class="muted small">${m.templateIdentifier} · ${dateTime(m.createdAt)}${' · '}<a href=${`#/activity?event=${encodeURIComponent(m._notificationId)}`}>timeline</a>${m.channel === 'in_app' ? ` · ${m.read ? 'read' : 'unread'}, ${m.seen ? 'seen' : 'unseen'}` : ''}</div>
      ${m.errorText && html`<div class="error">${m.errorText}</div>`}
    </header>
    <div class="side-by-side">
      <div class="rendered"><${MessageView} m=${m} integrations=${integrations} /><${Outbox} m=${m} /></div>
      <aside class="raw">
        <h3>Provider request</h3>
        ${
          exchanges.length > 0
            ? exchanges.map((d) => html`<div class="muted small">${d.detail}</div><pre class="json">${prettyRaw(d.raw!)}</pre>`)
            : m.channel === 'in_app'
              ? html`<p class="muted small">In-app messages stay in the service: the subscriber's inbox reads them (GET /v1/messages), no provider is called.</p>`
              : html`<p class="muted small">svc dev delivered this message locally: no request went to ${m.providerId ?? 'a provider'}. The record below is what the service stored and would hand to the provider.</p>`
        }
        <h3>Delivery record</h3>
        <${Json} value=${{ ...record, subscriber: subscriber ? { subscriberId: subscriber.subscriberId, email: subscriber.email, phone: subscriber.phone } : undefined }} />
      </aside>
    </div>
  </div>`;
}

const MARK: Record<Check['level'], string> = { ok: '✓', warning: '!', problem: '✗' };

/** The message as sent and its checks: each a line that says what exceeded what. */
function Outbox({ m }: { m: Message }) {
  // An email's sender is its integration's `from`, which svc dev gives with the message alone.
  const full = useLoad(() => (m.channel === 'email' ? api.getMessage(m._id!) : Promise.resolve(undefined)), [m._id]);
  const o: Inspection = inspectMessage(m, { from: full.value?.sender });
  const links = o.email?.links ?? o.links ?? [];
  return html`<section class="outbox" data-outbox=${m._id}>
    <h3>Checks</h3>
    <ul class="checks" aria-label="Checks">
      ${o.checks.map((c) => html`<li class=${`check ${c.level}`} data-check=${c.check}><span class="mark" aria-label=${c.level}>${MARK[c.level]}</span> <span class="k">${c.check}</span> ${c.text}</li>`)}
    </ul>
    ${
      o.email &&
      html`<h3>Headers</h3>
        <table class="headers" aria-label="Headers"><tbody>
          ${Object.entries(o.email.headers).map(([k, v]) => html`<tr><th>${k}</th><td>${v}</td></tr>`)}
        </tbody></table>
        <details class="text-part"><summary>Text part (${o.email.text.length} characters)</summary><pre>${o.email.text}</pre></details>`
    }
    ${
      links.length > 0 &&
      html`<h3>Links (${links.length})</h3>
        <ol class="links" aria-label="Links">${links.map((l) => html`<li><code>${l.url}</code>${l.text ? html` <span class="muted small">${l.text}</span>` : ''}</li>`)}</ol>`
    }
    ${o.email && o.email.images.length > 0 && html`<div class="muted small">${o.email.images.length} image(s)</div>`}
    ${o.push && Object.keys(o.push.data).length > 0 && html`<h3>Data</h3><${Json} value=${o.push.data} />`}
  </section>`;
}
