// Workflows: a workflow's steps and their issues (GET /v2/workflows/{id}), and every step rendered
// for an editable preview payload (POST /v2/workflows/{id}/step/{stepId}/preview).
import { useEffect, useState } from 'preact/hooks';
import { api, type PreviewResponse, type Workflow } from '../api.js';
import { PreviewView } from '../render.js';
import { Badge, channelLabel, Empty, ErrorLine, go, html, useLoad } from '../ui.js';

/**
 * The workflows to list: GET /v2/workflows where the service offers it, otherwise the workflows seen
 * in the recent feed (the local service has no list operation yet).
 */
export async function knownWorkflows(): Promise<{ list: Array<{ workflowId: string; name: string; origin?: string }>; fromFeed: boolean }> {
  const listed = await api.listWorkflows();
  if (listed) return { list: listed, fromFeed: false };
  const feed = await api.listEvents({ limit: 50 });
  const seen = new Map<string, string>();
  for (const n of feed.data) {
    const id = n.template?.triggers?.[0]?.identifier;
    if (id && !seen.has(id)) seen.set(id, n.template!.name);
  }
  return { list: [...seen].map(([workflowId, name]) => ({ workflowId, name })), fromFeed: true };
}

export function Workflows({ params }: { params: URLSearchParams }) {
  const selected = params.get('workflow') ?? '';
  const known = useLoad(knownWorkflows, []);
  const [typed, setTyped] = useState('');
  const list = known.value?.list ?? [];
  return html`<div class="split">
    <section class="pane list-pane narrow">
      <form class="filters" onSubmit=${(e: Event) => {
        e.preventDefault();
        if (typed.trim()) go('workflows', { workflow: typed.trim() });
      }}>
        <input type="search" placeholder="Workflow ID" aria-label="Workflow ID" value=${typed} onInput=${(e: any) => setTyped(e.currentTarget.value)} />
        <button type="submit">Open</button>
      </form>
      <${ErrorLine} error=${known.error} />
      ${known.value?.fromFeed && html`<p class="muted small">Workflows seen in the recent activity. Open any other by its ID.</p>`}
      <ul class="wf-list" aria-label="Workflows">
        ${list.map(
          (w) => html`<li key=${w.workflowId} class=${w.workflowId === selected ? 'sel' : ''} onClick=${() => go('workflows', { workflow: w.workflowId })}>
          <div>${w.name}${w.origin === 'external' && html` <span class="chip origin" title="Code-first: defined in the app and run through its bridge">external</span>`}</div><div class="muted small">${w.workflowId}</div></li>`,
        )}
      </ul>
    </section>
    <section class="pane detail-pane wide">
      ${selected ? html`<${WorkflowDetail} key=${selected} id=${selected} />` : html`<${Empty}>Pick a workflow to see its steps and preview them.<//>`}
    </section>
  </div>`;
}

function WorkflowDetail({ id }: { id: string }) {
  const wf = useLoad(() => api.getWorkflow(id), [id], false);
  const w: Workflow | undefined = wf.value;
  // What was typed, or null until something is. The editor shows the workflow's example payload from
  // its first frame: were the example set by a later effect, text typed in between would be appended
  // to it (the editor changing under the cursor).
  const [typed, setText] = useState<string | null>(null);
  const text = typed ?? (w ? JSON.stringify({ payload: (w as any).payloadExample ?? {} }, null, 2) : null);
  const [previews, setPreviews] = useState<Record<string, PreviewResponse | { error: string }>>({});
  const [parseError, setParseError] = useState<string | null>(null);

  // Every step re-renders for the edited payload, a moment after typing stops.
  useEffect(() => {
    if (!w || text === null) return;
    let body: unknown;
    try {
      body = JSON.parse(text);
      if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new Error('expected a JSON object like {"payload": {...}}');
      setParseError(null);
    } catch (e) {
      setParseError(`Preview payload: ${(e as Error).message}`);
      return;
    }
    let stale = false;
    const t = setTimeout(async () => {
      const steps = (w.steps ?? []) as Array<{ stepId: string }>;
      const results = await Promise.all(
        steps.map((s) =>
          api.preview(id, s.stepId, { previewPayload: body }).then(
            (r) => [s.stepId, r] as const,
            (e: Error) => [s.stepId, { error: e.message }] as const,
          ),
        ),
      );
      if (!stale) setPreviews(Object.fromEntries(results));
    }, 250);
    return () => {
      stale = true;
      clearTimeout(t);
    };
  }, [w, text]);

  if (wf.error) return html`<${ErrorLine} error=${wf.error} />`;
  if (!w) return html`<div class="muted">Loading…</div>`;
  const steps = (w.steps ?? []) as Array<Record<string, any>>;
  return html`<div class="workflow" data-workflow=${w.workflowId}>
    <header>
      <h2>${w.name} <${Badge} value=${(w as any).status ?? (w.active ? 'active' : 'inactive')} /></h2>
      <div class="muted small">${w.workflowId}${(w as any).description ? ` · ${(w as any).description}` : ''}${(w.tags ?? []).length ? ` · ${(w.tags ?? []).join(', ')}` : ''}</div>
      ${
        (w as any).origin === 'external' &&
        html`<div class="bridge-origin small">
          <span class="chip origin">external</span> Code-first: its steps run in the app, through the bridge at
          <code class="bridge-url">${(w as any).bridgeUrl ?? 'an unknown URL'}</code>; previews are rendered by the bridge.
        </div>`
      }
      <div class="wf-actions"><a href=${`#/trigger?workflow=${encodeURIComponent(w.workflowId)}`}>Trigger it</a> · <a href=${`#/activity?workflow=${encodeURIComponent(w.workflowId)}`}>its activity</a></div>
    </header>
    ${(w as any).issues && Object.keys((w as any).issues).length > 0 && html`<div class="issues"><strong>Workflow issues</strong><${Issues} issues=${(w as any).issues} /></div>`}
    <div class="wf-body">
      <div class="payload-editor">
        <label for="preview-payload"><strong>Preview payload</strong> <span class="muted small">(payload, subscriber, steps, context)</span></label>
        <textarea id="preview-payload" spellcheck="false" rows="12" value=${text ?? ''} onInput=${(e: any) => setText(e.currentTarget.value)}></textarea>
        ${parseError && html`<div class="error">${parseError}</div>`}
      </div>
      <ol class="steps">
        ${steps.map((s, i) => {
          const p = previews[s.stepId];
          return html`<li class="step" data-step=${s.stepId}>
            <div class="step-head"><span class="num">${i + 1}</span> <span class="chip">${channelLabel(s.type)}</span> <strong>${s.name}</strong> <span class="muted small">${s.stepId}</span></div>
            ${s.issues && Object.keys(s.issues).length > 0 && html`<div class="issues"><${Issues} issues=${s.issues} /></div>`}
            <div class="step-preview">
              ${
                !p
                  ? html`<div class="muted small">Rendering…</div>`
                  : 'error' in p
                    ? html`<div class="error">${p.error}</div>`
                    : p.result.error
                      ? html`<div class="error">${p.result.error.title}: ${p.result.error.message}</div>`
                      : p.result.preview
                        ? html`<${PreviewView} type=${p.result.type} preview=${p.result.preview} />`
                        : html`<div class="muted small">${['digest', 'delay', 'throttle', 'custom', 'http_request'].includes(s.type) ? `${channelLabel(s.type)} step: nothing to render` : 'No preview'}</div>`
              }
            </div>
          </li>`;
        })}
      </ol>
    </div>
  </div>`;
}

function Issues({ issues }: { issues: Record<string, unknown> }) {
  const lines: string[] = [];
  const walk = (v: unknown, path: string) => {
    if (Array.isArray(v)) for (const x of v) walk(x, path);
    else if (v && typeof v === 'object') {
      const o = v as Record<string, unknown>;
      if (typeof o.message === 'string') lines.push(`${path}: ${o.message}`);
      else for (const [k, x] of Object.entries(o)) walk(x, path ? `${path}.${k}` : k);
    } else if (v !== undefined) lines.push(`${path}: ${String(v)}`);
  };
  walk(issues, '');
  return html`<ul class="issue-list">${lines.map((l) => html`<li>${l}</li>`)}</ul>`;
}
