// Workflows: a workflow's steps and their issues (GET /v2/workflows/{id}), and every step rendered
// for an editable preview payload (POST /v2/workflows/{id}/step/{stepId}/preview), starting from the
// service's own example values. A code-first workflow's steps also show their control values, which
// are edited here and stored as the dashboard stores them (PUT /v2/workflows/{id}).
import { useEffect, useState } from 'preact/hooks';
import { api, call, type PreviewResponse, type Workflow } from '../api.js';
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

/** Merges the previews' example payloads: what each step reads, the service's example values. */
function examplePayload(previews: Record<string, PreviewResponse | { error: string }>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const p of Object.values(previews)) {
    const payload = 'error' in p ? undefined : (p.previewPayloadExample as { payload?: unknown } | undefined)?.payload;
    if (payload && typeof payload === 'object' && !Array.isArray(payload)) Object.assign(out, payload);
  }
  return out;
}

type Previews = Record<string, PreviewResponse | { error: string }>;

/** Every step previewed with `body` (none: the service's own example values); per step, its typed controls. */
async function previewAll(id: string, steps: Array<{ stepId: string }>, body: unknown, controls: Record<string, unknown>): Promise<Previews> {
  const results = await Promise.all(
    steps.map((s) => {
      const request = { ...(body !== undefined && { previewPayload: body }), ...(controls[s.stepId] !== undefined && { controlValues: controls[s.stepId] }) };
      return api.preview(id, s.stepId, request).then(
        (r) => [s.stepId, r] as const,
        (e: Error) => [s.stepId, { error: e.message }] as const,
      );
    }),
  );
  return Object.fromEntries(results);
}

function WorkflowDetail({ id }: { id: string }) {
  const wf = useLoad(() => api.getWorkflow(id), [id], false);
  const w: Workflow | undefined = wf.value;
  // What was typed, or null until something is. Until then the previews are asked with no payload, so
  // they show the service's own example values (a `default` filter's text, not a placeholder), and the
  // editor shows those values once they are in.
  const [typed, setText] = useState<string | null>(null);
  const [previews, setPreviews] = useState<Previews>({});
  const [example, setExample] = useState<string | null>(null);
  const [parseError, setParseError] = useState<string | null>(null);
  // Code-first steps: control values as typed (JSON text by stepId), before they are saved.
  const [controlsText, setControlsText] = useState<Record<string, string>>({});
  const [saved, setSaved] = useState<string | null>(null);
  const external = w?.origin === 'external';
  const controls = parsedControls(controlsText);

  // Every step re-renders for the edited payload or controls, a moment after typing stops.
  useEffect(() => {
    if (!w) return;
    let body: unknown;
    if (typed !== null) {
      try {
        body = JSON.parse(typed);
        if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new Error('expected a JSON object like {"payload": {...}}');
        setParseError(null);
      } catch (e) {
        setParseError(`Preview payload: ${(e as Error).message}`);
        return;
      }
    }
    if (controls.error) return;
    let stale = false;
    const t = setTimeout(
      async () => {
        const results = await previewAll(id, (w.steps ?? []) as Array<{ stepId: string }>, body, controls.values);
        if (stale) return;
        setPreviews(results);
        if (typed === null) setExample(JSON.stringify({ payload: examplePayload(results) }, null, 2));
      },
      typed === null && Object.keys(controlsText).length === 0 ? 0 : 250,
    );
    return () => {
      stale = true;
      clearTimeout(t);
    };
  }, [w, typed, JSON.stringify(controlsText)]);

  const save = async () => {
    if (!w || controls.error) return;
    setSaved('Saving…');
    try {
      await call('PUT', `/v2/workflows/${encodeURIComponent(w.workflowId)}`, { body: updateBody(w, controls.values) });
      setSaved('Saved: executions and previews send these values to the app.');
      setControlsText({});
      wf.reload();
    } catch (e) {
      setSaved(`Not saved: ${(e as Error).message}`);
    }
  };

  if (wf.error) return html`<${ErrorLine} error=${wf.error} />`;
  if (!w) return html`<div class="muted">Loading…</div>`;
  const steps = (w.steps ?? []) as Array<Record<string, any>>;
  const text = typed ?? example;
  return html`<div class="workflow" data-workflow=${w.workflowId}>
    <${Header} w=${w} external=${external} />
    ${(w as any).issues && Object.keys((w as any).issues).length > 0 && html`<div class="issues"><strong>Workflow issues</strong><${Issues} issues=${(w as any).issues} /></div>`}
    <div class="wf-body">
      <div class="payload-editor">
        <label for="preview-payload"><strong>Preview payload</strong> <span class="muted small">(payload, subscriber, steps, context)</span></label>
        ${
          // Shown once it holds the example: were it shown empty first, what is typed meanwhile would be lost.
          text === null
            ? html`<div class="muted small">Asking the service for the example payload…</div>`
            : html`<textarea id="preview-payload" spellcheck="false" rows="12" value=${text} onInput=${(e: any) => setText(e.currentTarget.value)}></textarea>`
        }
        ${parseError && html`<div class="error">${parseError}</div>`}
        ${
          external &&
          html`<div class="controls-actions">
            <button type="button" class="save-controls" disabled=${Object.keys(controlsText).length === 0 || controls.error !== null} onClick=${save}>Save control values</button>
            ${controls.error && html`<div class="error">${controls.error}</div>`}
            ${saved && html`<div class="muted small saved">${saved}</div>`}
          </div>`
        }
      </div>
      <ol class="steps">
        ${steps.map(
          (s, i) => html`<${StepItem} key=${s.stepId} step=${s} index=${i} preview=${previews[s.stepId]} external=${external}
          controlsText=${controlsText[s.stepId] ?? JSON.stringify(s.controls?.values ?? {}, null, 2)}
          onControls=${(v: string) => setControlsText({ ...controlsText, [s.stepId]: v })} />`,
        )}
      </ol>
    </div>
  </div>`;
}

/** The workflow's name, status, origin and links. */
function Header({ w, external }: { w: Workflow; external: boolean }) {
  return html`<header>
      <h2>${w.name} <${Badge} value=${(w as any).status ?? (w.active ? 'active' : 'inactive')} /></h2>
      <div class="muted small">${w.workflowId}${(w as any).description ? ` · ${(w as any).description}` : ''}${(w.tags ?? []).length ? ` · ${(w.tags ?? []).join(', ')}` : ''}</div>
      ${
        external &&
        html`<div class="bridge-origin small">
          <span class="chip origin">external</span> Code-first: its steps run in the app, through the bridge at
          <code class="bridge-url">${(w as any).bridgeUrl ?? 'an unknown URL'}</code>; previews are rendered by the bridge, with the control values below.
        </div>`
      }
      <div class="wf-actions"><a href=${`#/trigger?workflow=${encodeURIComponent(w.workflowId)}`}>Trigger it</a> · <a href=${`#/activity?workflow=${encodeURIComponent(w.workflowId)}`}>its activity</a></div>
    </header>`;
}

/** The typed control values, parsed: by stepId, or the first one that is not a JSON object. */
function parsedControls(texts: Record<string, string>): { values: Record<string, unknown>; error: string | null } {
  const values: Record<string, unknown> = {};
  for (const [stepId, text] of Object.entries(texts)) {
    try {
      const v = JSON.parse(text);
      if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new Error('expected a JSON object');
      values[stepId] = v;
    } catch (e) {
      return { values, error: `Control values of ${stepId}: ${(e as Error).message}` };
    }
  }
  return { values, error: null };
}

/** PUT /v2/workflows/{id} as the dashboard sends it: the workflow as it is, with the steps' new control values. */
function updateBody(w: Workflow, values: Record<string, unknown>): Record<string, unknown> {
  return {
    name: w.name,
    ...(w.description !== undefined && { description: w.description }),
    tags: w.tags ?? [],
    active: w.active,
    ...(w.validatePayload !== undefined && { validatePayload: w.validatePayload }),
    steps: w.steps.map((s) => ({
      _id: s._id,
      stepId: s.stepId,
      name: s.name,
      type: s.type,
      controlValues: values[s.stepId] ?? s.controls?.values ?? {},
    })),
  };
}

function StepItem(props: {
  step: Record<string, any>;
  index: number;
  preview: PreviewResponse | { error: string } | undefined;
  external: boolean;
  controlsText: string;
  onControls: (text: string) => void;
}) {
  const { step: s, preview: p } = props;
  return html`<li class="step" data-step=${s.stepId}>
    <div class="step-head"><span class="num">${props.index + 1}</span> <span class="chip">${channelLabel(s.type)}</span> <strong>${s.name}</strong> <span class="muted small">${s.stepId}</span></div>
    ${s.issues && Object.keys(s.issues).length > 0 && html`<div class="issues"><${Issues} issues=${s.issues} /></div>`}
    ${
      props.external &&
      html`<label class="step-controls small"><span class="muted">Control values</span>
        <textarea spellcheck="false" rows="3" aria-label=${`Control values of ${s.stepId}`} value=${props.controlsText} onInput=${(e: any) => props.onControls(e.currentTarget.value)}></textarea></label>`
    }
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
