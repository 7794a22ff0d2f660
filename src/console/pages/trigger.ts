// Trigger: a workflow to a subscriber with a payload (POST /v1/events/trigger), then the transaction
// followed live: its events and their timelines as the jobs run.
import { useEffect, useRef, useState } from 'preact/hooks';
import { api } from '../api.js';
import { Empty, ErrorLine, go, html, setParams, useDebounced, useLoad, useParam } from '../ui.js';
import { EventDetail } from './activity.js';
import { knownWorkflows } from './workflows.js';

export function Trigger({ params }: { params: URLSearchParams }) {
  const [workflow, setWorkflow] = useParam(params, 'workflow');
  const [to, setTo] = useParam(params, 'to');
  const [payload, setPayload] = useState('{}');
  // Set by the first keystroke in the payload; read when the example arrives (a read in flight while
  // the user types must not replace what they typed).
  const payloadTouched = useRef(false);
  const [error, setError] = useState<unknown>(undefined);
  const [sending, setSending] = useState(false);
  const transactionId = params.get('transaction') ?? '';

  const workflows = useLoad(knownWorkflows, [], false);
  const subscribers = useLoad(() => api.searchSubscribers({ limit: 100 }), [], false);

  // The workflow's example payload fills the editor until the user has typed in it.
  const workflowQ = useDebounced(workflow);
  useEffect(() => {
    if (!workflowQ.trim() || payloadTouched.current) return;
    let stale = false;
    api.getWorkflow(workflowQ.trim()).then(
      (w) => !stale && !payloadTouched.current && setPayload(JSON.stringify((w as any).payloadExample ?? {}, null, 2)),
      () => undefined,
    );
    return () => {
      stale = true;
    };
  }, [workflowQ]);

  const submit = async (e: Event) => {
    e.preventDefault();
    setError(undefined);
    let body: unknown;
    try {
      body = payload.trim() ? JSON.parse(payload) : {};
      if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new Error('expected a JSON object');
    } catch (err) {
      setError(new Error(`Payload: ${(err as Error).message}`));
      return;
    }
    if (!workflow.trim()) return setError(new Error('Workflow: enter a workflow ID'));
    if (!to.trim()) return setError(new Error('Subscriber: enter a subscriber ID'));
    setSending(true);
    try {
      const r = await api.trigger({ name: workflow.trim(), to: to.trim(), payload: body });
      if (!r.acknowledged || !r.transactionId) throw new Error(`Not processed: ${r.status}${r.error ? ` (${r.error.join('; ')})` : ''}`);
      setParams('trigger', { workflow: workflow.trim(), to: to.trim(), transaction: r.transactionId });
    } catch (err) {
      setError(err);
    } finally {
      setSending(false);
    }
  };

  // While the trigger is on its way the fields are read-only: its answer writes what was sent into the
  // route, which would replace anything typed meanwhile.
  return html`<div class="split">
    <section class="pane list-pane">
      <form class="trigger-form" onSubmit=${submit} aria-label="Trigger a workflow">
        <label>Workflow
          <input name="workflow" list="wf-options" required placeholder="welcome" readOnly=${sending} value=${workflow} onInput=${(e: any) => setWorkflow(e.currentTarget.value)} /></label>
        <datalist id="wf-options">${(workflows.value?.list ?? []).map((w) => html`<option value=${w.workflowId}>${w.name}</option>`)}</datalist>
        <label>Subscriber
          <input name="to" list="sub-options" required placeholder="subscriber ID" readOnly=${sending} value=${to} onInput=${(e: any) => setTo(e.currentTarget.value)} /></label>
        <datalist id="sub-options">${(subscribers.value?.data ?? []).map((s) => html`<option value=${s.subscriberId}>${[s.firstName, s.lastName].filter(Boolean).join(' ')}</option>`)}</datalist>
        <label>Payload (JSON)
          <textarea name="payload" rows="10" spellcheck="false" readOnly=${sending} value=${payload} onInput=${(e: any) => {
            setPayload(e.currentTarget.value);
            payloadTouched.current = true;
          }}></textarea></label>
        <div class="form-actions">
          <button class="primary" type="submit" disabled=${sending}>${sending ? 'Triggering…' : 'Trigger'}</button>
          <span class="muted small">POST /v1/events/trigger, as <code>svc trigger</code> sends it</span>
        </div>
        <${ErrorLine} error=${error} />
      </form>
    </section>
    <section class="pane detail-pane">
      ${transactionId ? html`<${Follow} key=${transactionId} transactionId=${transactionId} />` : html`<${Empty}>Trigger a workflow to follow its delivery here, live.<//>`}
    </section>
  </div>`;
}

function Follow({ transactionId }: { transactionId: string }) {
  const events = useLoad(() => api.listEvents({ transactionId, limit: 20 }), [transactionId]);
  return html`<div class="follow" data-transaction=${transactionId}>
    <div class="note">Following transaction <code>${transactionId}</code>${' · '}<a href=${`#/activity?transaction=${encodeURIComponent(transactionId)}`} onClick=${(
      e: Event,
    ) => {
      e.preventDefault();
      go('activity', { transaction: transactionId });
    }}>in the feed</a>${' · '}<a href=${`#/messages?transaction=${encodeURIComponent(transactionId)}`}>its messages</a></div>
    <${ErrorLine} error=${events.error} />
    ${events.value && events.value.data.length === 0 && html`<div class="muted">Waiting for the event…</div>`}
    ${(events.value?.data ?? []).map((n) => html`<${EventDetail} key=${n._id} id=${n._id!} />`)}
  </div>`;
}
