// Stored records → the API's response shapes.
import type { ActivityNotification, ExecutionDetail, Integration, Job, Message, StepFilter, Subscriber } from '../api/schemas/resources.js';
import type { NotificationRecord } from './store/activity.js';
import type { DetailRecord, JobRecord } from './store/jobs.js';
import type { Store } from './store/index.js';
import type { MessageRecord } from './store/messages.js';
import type { StoredWorkflow } from './store/workflows.js';

/** API-key callers never see integration credentials (api-spec.md, "Authentication"). */
export function integrationView(i: Integration): Integration {
  const { credentials, ...rest } = i;
  return (rest.conditions ? { ...rest, conditions: rest.conditions.map(stepFilterView) } : rest) as Integration;
}

/**
 * A StepFilter as the service answers it: `isNegated`, `type`, `value` and `children` are always
 * there (openapi.json `StepFilterDto` requires them; the official SDK refuses an answer without them),
 * so a filter stored without them (a seed file, a workflow's step `filters`) gets the defaults.
 */
function stepFilterView(f: StepFilter): StepFilter {
  return { ...f, isNegated: f.isNegated ?? false, type: f.type ?? 'GROUP', value: f.value ?? 'AND', children: f.children ?? [] };
}

function detailView(d: DetailRecord): ExecutionDetail {
  return {
    _id: d.id,
    _jobId: d.job_id,
    createdAt: d.created_at,
    status: d.status,
    detail: d.detail,
    isRetry: false,
    isTest: false,
    ...(d.provider_id !== null && { providerId: d.provider_id as ExecutionDetail['providerId'] }),
    raw: d.raw,
    source: d.source,
  };
}

/** A digest job's `digest` metadata: its settings, and the events once it has collected them. */
function digestView(j: JobRecord): Job['digest'] {
  const c = j.step.controlValues;
  const timed = c.type === 'timed' || (c.type === undefined && typeof c.cron === 'string' && c.cron !== '');
  const look = c.lookBackWindow as { amount?: number; unit?: string } | undefined;
  const output = j.state.output as { events?: unknown } | undefined;
  const until = j.state.collectingUntil;
  const meta: Record<string, unknown> = { type: timed ? 'timed' : look ? 'backoff' : 'regular' };
  if (typeof c.amount === 'number') meta.amount = c.amount;
  if (typeof c.unit === 'string') meta.unit = c.unit;
  if (typeof c.digestKey === 'string') meta.digestKey = c.digestKey;
  if (look) Object.assign(meta, { backoff: true, backoffAmount: look.amount, backoffUnit: look.unit });
  if (timed) meta.timed = { cronExpression: c.cron, ...(typeof until === 'number' && { untilDate: new Date(until).toISOString() }) };
  if (Array.isArray(output?.events)) meta.events = output.events;
  return meta as Job['digest'];
}

function jobView(j: JobRecord, details: ExecutionDetail[], n: NotificationRecord): Job {
  return {
    _id: j.id,
    type: j.type,
    ...(j.type === 'digest' && { digest: digestView(j) }),
    executionDetails: details,
    step: {
      _id: j.step._id,
      stepId: j.step.stepId,
      active: true,
      filters: (j.step.filters ?? []).map(stepFilterView),
      _templateId: j.step._id,
      name: j.step.name,
      controlVariables: j.step.controlValues,
      _parentId: null,
    },
    overrides: n.doc.overrides,
    payload: n.doc.payload,
    providerId: j.providerId,
    status: j.status,
    updatedAt: j.updatedAt,
    contextKeys: n.doc.contextKeys,
  };
}

/** The activity feed's short subscriber: absent fields are left out, never null. */
function activitySubscriber(sub: Subscriber): NonNullable<ActivityNotification['subscriber']> {
  const out: NonNullable<ActivityNotification['subscriber']> = { _id: sub._id!, subscriberId: sub.subscriberId };
  for (const k of ['firstName', 'lastName', 'email', 'phone'] as const) {
    const v = sub[k];
    if (typeof v === 'string') out[k] = v;
  }
  return out;
}

/** Notifications with their subscriber, template, jobs and execution details, loaded in batches. */
export function notificationViews(store: Store, records: NotificationRecord[]): ActivityNotification[] {
  const ids = records.map((r) => r.id);
  const detailsByJob = new Map<string, ExecutionDetail[]>();
  for (const d of store.jobs.detailsOf(ids)) {
    const list = detailsByJob.get(d.job_id) ?? [];
    list.push(detailView(d));
    detailsByJob.set(d.job_id, list);
  }
  const jobsByNotification = new Map<string, JobRecord[]>();
  for (const j of store.jobs.jobsOf(ids)) {
    const list = jobsByNotification.get(j.notificationId) ?? [];
    list.push(j);
    jobsByNotification.set(j.notificationId, list);
  }
  const workflows = new Map<string, StoredWorkflow | undefined>();
  return records.map((n) => {
    if (!workflows.has(n.workflowId)) workflows.set(n.workflowId, store.workflows.findById(n.workflowId));
    const wf = workflows.get(n.workflowId);
    const sub = store.subscribers.findById(n.subscriberId);
    return {
      _id: n.id,
      _environmentId: n.envId,
      _organizationId: n.orgId,
      _subscriberId: n.subscriberId,
      transactionId: n.transactionId,
      _templateId: n.workflowId,
      ...(n.doc.digestedNotificationId !== undefined && { _digestedNotificationId: n.doc.digestedNotificationId }),
      createdAt: n.createdAt,
      updatedAt: n.updatedAt,
      channels: n.channels,
      ...(sub && { subscriber: activitySubscriber(sub) }),
      ...(wf && {
        template: {
          _id: wf._id,
          name: wf.name,
          origin: wf.origin,
          triggers: [{ type: 'event' as const, identifier: wf.workflowId, variables: [] }],
        },
      }),
      jobs: (jobsByNotification.get(n.id) ?? []).map((j) => jobView(j, detailsByJob.get(j.id) ?? [], n)),
      payload: n.doc.payload,
      tags: n.doc.tags,
      to: n.doc.to,
      topics: n.doc.topics,
      severity: n.severity as ActivityNotification['severity'],
      critical: n.doc.critical,
      contextKeys: n.doc.contextKeys,
    };
  });
}

/** Messages with their subscriber embedded, as the message list returns them. */
export function messageViews(store: Store, records: MessageRecord[]): Message[] {
  const subs = new Map<string, Subscriber | undefined>();
  return records.map((r) => {
    if (!subs.has(r.subscriberId)) subs.set(r.subscriberId, store.subscribers.findById(r.subscriberId));
    const sub = subs.get(r.subscriberId);
    return sub ? { ...r.doc, subscriber: sub } : r.doc;
  });
}
