/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
// The svc dev web console: a shell (sign-in, navigation, live indicator) around five pages. Routes
// live in the URL fragment (`#/activity?event=...`); so does the one-time sign-in code of the link
// `svc dev` prints (`#code=...`), which is removed from the address bar before anything else runs.
// First: every vnode made after this passes the display sanitiser (control and bidi characters).
import './safe.js';
import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { checkKey, onLiveState, redeemCode, session, setUnauthorizedHandler, startLive, stopLive } from './api.js';
import { Activity } from './pages/activity.js';
import { Inbox } from './pages/inbox.js';
import { Messages } from './pages/messages.js';
import { Trigger } from './pages/trigger.js';
import { Workflows } from './pages/workflows.js';
import { html, useRoute } from './ui.js';
import './app.css';

const PAGES = [
  { id: 'activity', label: 'Activity', component: Activity },
  { id: 'messages', label: 'Messages', component: Messages },
  { id: 'inbox', label: 'Inbox', component: Inbox },
  { id: 'workflows', label: 'Workflows', component: Workflows },
  { id: 'trigger', label: 'Trigger', component: Trigger },
] as const;

// Taken before the first render, so the code is never in the address bar, history or a screenshot.
const code = /^#code=([A-Za-z0-9_-]+)$/.exec(location.hash)?.[1];
if (code) history.replaceState(null, '', `${location.pathname}#/activity`);

function SignIn({ onDone, note }: { onDone: () => void; note?: string | undefined }) {
  const [key, setKey] = useState('');
  const [error, setError] = useState<string | null>(note ?? null);
  const [busy, setBusy] = useState(false);
  const submit = async (e: Event) => {
    e.preventDefault();
    const k = key.trim();
    if (!k) return setError('API key: paste the key svc dev uses');
    setBusy(true);
    try {
      await checkKey(k);
      session.set(k);
      setKey('');
      onDone();
    } catch (err) {
      setError((err as Error).message === 'API Key not found' ? 'API key: the service does not know this key' : (err as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return html`<main class="signin">
    <form onSubmit=${submit} aria-label="Sign in">
      <h1><span class="logo">svc</span> dev console</h1>
      <p>Open the one-time link <code>svc dev</code> printed, or paste the API key of this service.
        It is kept in this tab only and sent in the Authorization header, as the CLI sends it.</p>
      <label>API key <input name="apiKey" type="password" autocomplete="off" spellcheck="false" value=${key} onInput=${(e: any) => setKey(e.currentTarget.value)} autofocus /></label>
      <button class="primary" type="submit" disabled=${busy}>${busy ? 'Checking…' : 'Open the console'}</button>
      ${error && html`<div class="error" role="alert">${error}</div>`}
      <p class="muted small">Where is the key? <code>svc profile show local --show-secrets</code>, or start <code>svc dev --show-secrets</code>.</p>
    </form>
  </main>`;
}

function LiveDot() {
  const [state, setState] = useState('off');
  useEffect(() => onLiveState(setState), []);
  return html`<span class=${`live ${state}`} title=${state === 'live' ? 'Updates arrive as they happen' : 'Reconnecting…'}>${state === 'live' ? 'live' : state === 'connecting' ? 'connecting' : 'offline'}</span>`;
}

function App() {
  const [signedIn, setSignedIn] = useState<boolean | null>(code ? null : !!session.get());
  const [note, setNote] = useState<string | undefined>(undefined);
  const route = useRoute();

  useEffect(() => {
    setUnauthorizedHandler(() => {
      session.clear();
      stopLive();
      setNote('The service refused the saved key: paste it again.');
      setSignedIn(false);
    });
    if (code) {
      redeemCode(code).then(
        (k) => {
          session.set(k);
          setSignedIn(true);
        },
        (e: Error) => {
          setNote(e.message);
          setSignedIn(!!session.get());
        },
      );
    }
  }, []);
  useEffect(() => {
    if (signedIn) startLive();
    return () => stopLive();
  }, [signedIn]);

  if (signedIn === null) return html`<main class="signin"><p class="muted">Signing in…</p></main>`;
  if (!signedIn)
    return html`<${SignIn} note=${note} onDone=${() => {
      setNote(undefined);
      setSignedIn(true);
    }} />`;
  const page = PAGES.find((p) => p.id === route.page) ?? PAGES[0];
  const Page = page.component;
  return html`<div class="shell">
    <header class="top">
      <a class="brand" href="#/activity"><span class="logo">svc</span> dev</a>
      <nav aria-label="Pages">
        ${PAGES.map((p) => html`<a href=${`#/${p.id}`} class=${p.id === page.id ? 'on' : ''} aria-current=${p.id === page.id ? 'page' : undefined}>${p.label}</a>`)}
      </nav>
      <span class="spacer"></span>
      <${LiveDot} />
      <button class="link" type="button" onClick=${() => {
        session.clear();
        stopLive();
        setSignedIn(false);
      }}>Sign out</button>
    </header>
    <${Page} key=${page.id} params=${route.params} />
  </div>`;
}

render(html`<${App} />`, document.getElementById('app')!);
// The first screen is on the page: the load time the tests hold under 300 ms.
performance.mark('svc:ready');
