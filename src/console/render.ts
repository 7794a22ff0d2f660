// Each channel as its recipient sees it: an e-mail in a sandboxed frame (no scripts, its own origin),
// an in-app notification with its actions, an SMS bubble with its segment count, a chat post and a
// push card. Used for delivered messages and for previews alike.
import { useState } from 'preact/hooks';
import { smsInfo } from '../core/message-checks.js';
import { html } from './ui.js';

interface Segments {
  encoding: 'GSM-7' | 'UCS-2';
  /** Septets for GSM-7, UTF-16 code units for UCS-2. */
  units: number;
  segments: number;
  perSegment: number;
}

/** How many SMS parts a text is sent in (160/153 GSM-7 septets, 70/67 UCS-2 units): the CLI's count. */
export function smsSegments(text: string): Segments {
  const s = smsInfo(text);
  return { encoding: s.encoding, units: s.units, segments: s.segments, perSegment: s.segments > 1 ? s.perSegment : s.single };
}

/**
 * An e-mail's HTML in a frame with `sandbox` (no allow-scripts, no allow-same-origin): its scripts
 * never run and it cannot reach the console or its key. `srcdoc` loads no document from anywhere, and
 * the frame inherits the console's Content-Security-Policy (`img-src 'self' data:`, no remote styles,
 * fonts or frames): a remote image (a tracking pixel) is not fetched, so showing an e-mail tells no one.
 */
export function EmailView(props: { subject?: string | undefined; from?: string | undefined; to?: string | undefined; body: string; title?: string }) {
  const [width, setWidth] = useState<'desktop' | 'mobile'>('desktop');
  return html`<div class="email">
    <div class="email-head">
      <div class="email-fields">
        <div><span class="k">Subject</span> <strong class="subject">${props.subject || '(no subject)'}</strong></div>
        ${props.from !== undefined && html`<div><span class="k">From</span> ${props.from}</div>`}
        ${props.to !== undefined && html`<div><span class="k">To</span> ${props.to}</div>`}
      </div>
      <div class="seg" role="group" aria-label="Width">
        <button class=${width === 'desktop' ? 'on' : ''} onClick=${() => setWidth('desktop')}>Desktop</button>
        <button class=${width === 'mobile' ? 'on' : ''} onClick=${() => setWidth('mobile')}>Mobile</button>
      </div>
    </div>
    <div class=${`email-frame ${width}`}>
      <iframe sandbox="" referrerpolicy="no-referrer" title=${props.title ?? 'E-mail'} srcdoc=${props.body}></iframe>
    </div>
  </div>`;
}

interface Action {
  label?: string;
  content?: string;
  type?: string;
}

export function InAppCard(props: {
  subject?: string | undefined;
  body?: string | undefined;
  avatar?: string | undefined;
  actions?: Action[];
  read?: boolean;
  seen?: boolean;
  time?: string | undefined;
}) {
  const actions = props.actions ?? [];
  return html`<div class=${`inapp ${props.read === false ? 'unread' : ''}`}>
    <div class="avatar" aria-hidden="true">${(props.subject ?? props.body ?? '?').trim().charAt(0).toUpperCase()}</div>
    <div class="inapp-main">
      ${props.subject && html`<div class="inapp-subject">${props.subject}</div>`}
      <div class="inapp-body">${props.body}</div>
      ${
        actions.length > 0 &&
        html`<div class="inapp-actions">
        ${actions.map((a, i) => html`<button class=${i === 0 || a.type === 'primary' ? 'primary' : ''} type="button">${a.label ?? a.content}</button>`)}
      </div>`
      }
      ${props.time && html`<div class="inapp-time">${props.time}</div>`}
    </div>
    ${props.read === false && html`<span class="dot" title="unread"></span>`}
  </div>`;
}

export function SmsView(props: { body: string; to?: string | undefined }) {
  const s = smsSegments(props.body);
  return html`<div class="sms">
    ${props.to && html`<div class="sms-to"><span class="k">To</span> ${props.to}</div>`}
    <div class="phone"><div class="bubble">${props.body}</div></div>
    <div class="sms-meta">
      <span class="segments">${s.segments} segment${s.segments === 1 ? '' : 's'}</span>${` · ${s.units} ${s.encoding === 'GSM-7' ? 'characters' : 'UCS-2 units'} · ${s.encoding} (${s.perSegment} per segment)`}
    </div>
  </div>`;
}

export function ChatCard(props: { body: string; provider?: string | undefined; time?: string | undefined }) {
  return html`<div class="chat">
    <div class="chat-avatar" aria-hidden="true">S</div>
    <div>
      <div class="chat-head"><strong>svc</strong> <span class="app">APP</span> <span class="muted">${props.time ?? ''}</span></div>
      <div class="chat-body">${props.body}</div>
      ${props.provider && html`<div class="muted small">via ${props.provider}</div>`}
    </div>
  </div>`;
}

export function PushCard(props: { title?: string | undefined; body: string; devices?: number | undefined }) {
  return html`<div class="lockscreen"><div class="push">
    <div class="push-app"><span class="push-icon" aria-hidden="true"></span> SVC · now</div>
    ${props.title && html`<div class="push-title">${props.title}</div>`}
    <div class="push-body">${props.body}</div>
    ${props.devices !== undefined && html`<div class="muted small">to ${props.devices} device${props.devices === 1 ? '' : 's'}</div>`}
  </div></div>`;
}

/** A step preview's result (POST .../preview), rendered with the same cards as a delivered message. */
export function PreviewView({ type, preview }: { type?: string | undefined; preview: Record<string, any> }) {
  switch (type) {
    case 'email':
      return html`<${EmailView} subject=${preview.subject} body=${String(preview.body ?? '')} title="E-mail preview" />`;
    case 'in_app': {
      const actions = [preview.primaryAction, preview.secondaryAction].filter((a) => a?.label);
      return html`<${InAppCard} subject=${preview.subject} body=${preview.body} actions=${actions} />`;
    }
    case 'sms':
      return html`<${SmsView} body=${String(preview.body ?? '')} />`;
    case 'chat':
      return html`<${ChatCard} body=${String(preview.body ?? '')} />`;
    case 'push':
      return html`<${PushCard} title=${preview.subject} body=${String(preview.body ?? '')} />`;
    default:
      return html`<pre class="json">${JSON.stringify(preview, null, 2)}</pre>`;
  }
}
