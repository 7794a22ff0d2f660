// The compact activity tables: what the store leaves out must come back exactly as it went in, and
// what it keeps is readable.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Message } from '../../src/api/schemas/resources.js';
import { txKey } from '../../src/server/store/repo.js';
import { testService } from '../helpers/service.js';

const svc = testService();
afterAll(() => svc.close());

let event: { id: string; jobId: string; stepId: string };
beforeAll(async () => {
  const r = await svc.request('POST', '/v1/events/trigger', { body: { name: 'welcome', to: 'ada', transactionId: 'compact-1' } });
  expect(r.status).toBe(201);
  await svc.runner.idle();
  const n = svc.store.activity.listNotifications(svc.environment.id, { transactionId: 'compact-1' }, 0, 10).rows[0]!;
  const job = svc.store.jobs.jobsOf([n.id])[0]!;
  event = { id: n.id, jobId: job.id, stepId: job.step._id };
});

/** A message of the event's first job, as the runner builds one, with `change` applied. */
function message(change: Partial<Message>): Message & { _id: string } {
  const n = svc.store.activity.notificationById(event.id)!;
  const now = new Date(svc.clock.now()).toISOString();
  return {
    _id: svc.store.messages.newMessageId(),
    _templateId: n.workflowId,
    _environmentId: n.envId,
    _messageTemplateId: event.stepId,
    _organizationId: n.orgId,
    _notificationId: n.id,
    _subscriberId: n.subscriberId,
    _jobId: event.jobId,
    templateIdentifier: 'welcome',
    createdAt: now,
    updatedAt: now,
    deliveredAt: [now],
    transactionId: n.transactionId,
    channel: 'in_app',
    read: false,
    seen: false,
    cta: {},
    _feedId: null,
    status: 'sent',
    providerId: 'svc',
    payload: n.doc.payload,
    overrides: n.doc.overrides,
    contextKeys: n.doc.contextKeys,
    content: 'Hello',
    ...change,
  } as Message & { _id: string };
}

const stored = (id: string) =>
  svc.store.messages.list(svc.environment.id, { transactionIds: ['compact-1'] }, 0, 100).rows.find((r) => r.id === id)?.doc as Record<string, unknown>;

describe('message documents', () => {
  it.each<[string, Partial<Message>]>([
    ['the usual values (left out)', {}],
    ['a call to action', { cta: { type: 'redirect', data: { url: '/x' } } as Message['cta'] }],
    ['no call to action at all', { cta: undefined }],
    ['sent but never delivered', { deliveredAt: undefined }],
    ['delivered later than created', { deliveredAt: ['2030-01-01T00:00:00.000Z'] }],
    ['an error, delivered when created', { status: 'error', errorText: 'down' } as Partial<Message>],
    ['an error, not delivered', { status: 'error', deliveredAt: undefined }],
    ["another step's template", { _messageTemplateId: '0123456789abcdef01234567' }],
    ['no template id', { _messageTemplateId: undefined }],
  ])('%s: read back as written', (_, change) => {
    const doc = message(change);
    for (const [k, v] of Object.entries(doc)) if (v === undefined) delete (doc as Record<string, unknown>)[k];
    svc.store.tx(() => svc.store.messages.create(event.jobId, doc, event.stepId));
    expect(stored(doc._id)).toEqual(doc);
  });

  it('a message marked read keeps what was left out', () => {
    const doc = message({});
    svc.store.tx(() => svc.store.messages.create(event.jobId, doc, event.stepId));
    const [marked] = svc.store.tx(() => svc.store.messages.markAs(doc._subscriberId as string, [doc._id], 'read'));
    expect(marked!.doc).toMatchObject({ read: true, seen: true });
    const again = stored(doc._id);
    expect(again).toMatchObject({ cta: {}, _messageTemplateId: event.stepId, deliveredAt: doc.deliveredAt, read: true });
  });
});

describe('jobs as the store keeps them', () => {
  it("a job's status, state and timeline are readable words in its row; a later output replaces the state's", () => {
    const job = svc.store.jobs.job(event.jobId)!;
    expect(job.state).toEqual({ output: { seen: false, read: false, lastSeenDate: null, lastReadDate: null } });
    const raw = () =>
      svc.store.db.prepare('SELECT status, state, details FROM jobs WHERE id = unhex(?)').get(event.jobId) as {
        status: string;
        state: string;
        details: string;
      };
    expect(raw().status).toBe('completed');
    expect(JSON.parse(raw().state)).toEqual({ output: { seen: false, read: false, lastSeenDate: null, lastReadDate: null } });
    expect(JSON.parse(raw().details).map((d: unknown[]) => d.slice(0, 2))).toEqual([
      ['Pending', 'Step queued'],
      ['Pending', 'Start sending message'],
      ['Pending', 'Message created'],
      ['Success', 'Message sent'],
    ]);
    svc.store.jobs.setOutput(event.jobId, { seen: true, read: true, lastSeenDate: 'x', lastReadDate: 'y' });
    expect(svc.store.jobs.job(event.jobId)!.state).toEqual({ output: { seen: true, read: true, lastSeenDate: 'x', lastReadDate: 'y' } });
  });

  it("a status that is not one of the API's words is refused by the schema", () => {
    expect(() => svc.store.db.prepare("UPDATE jobs SET status = 'done' WHERE id = unhex(?)").run(event.jobId)).toThrow(/CHECK constraint/);
  });
});

describe('transactionIds', () => {
  it('a UUID is kept as 16 bytes; other text (an upper-case UUID too) as it is; each is found by itself', async () => {
    const ids = ['0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b', '0190A1B2-C3D4-7E5F-8A9B-0C1D2E3F4A5B', 'order-77'];
    for (const transactionId of ids) {
      expect((await svc.request('POST', '/v1/events/trigger', { body: { name: 'otp', to: 'ada', transactionId } })).status).toBe(201);
    }
    const types = svc.store.db.prepare('SELECT typeof(transaction_id) AS t FROM notifications WHERE transaction_id IN (?, ?, ?)').all(...ids.map(txKey));
    expect(types.map((r) => (r as { t: string }).t).sort()).toEqual(['blob', 'text', 'text']);
    for (const transactionId of ids) {
      const found = (await svc.request('GET', `/v1/notifications?transactionId=${transactionId}`)).body.data as { transactionId: string }[];
      expect(found.map((n) => n.transactionId)).toEqual([transactionId]);
    }
  });
});

describe('digest groups', () => {
  it('a group is kept as its short reference and found by its key', () => {
    const key = 'digest:["w","digest","s","p1"]';
    svc.store.tx(() => svc.store.jobs.setGroup(event.jobId, key));
    const ref = (svc.store.db.prepare('SELECT group_key FROM jobs WHERE id = unhex(?)').get(event.jobId) as { group_key: string }).group_key;
    expect(ref).toMatch(/^#[\w-]{16}$/);
    expect(svc.store.jobs.lastGroupEventAt(key, 'ffffffffffffffffffffffff')).toBe(Date.parse(svc.store.jobs.job(event.jobId)!.createdAt));
    expect(svc.store.jobs.lastGroupEventAt(ref, 'ffffffffffffffffffffffff')).toBe(Date.parse(svc.store.jobs.job(event.jobId)!.createdAt));
    expect(svc.store.jobs.lastGroupEventAt('digest:["w","digest","s","p2"]', 'ffffffffffffffffffffffff')).toBeNull();
  });
});

describe('what stays as it was', () => {
  it("marking a message read moves its job's time, not the event's", async () => {
    const before = (await svc.request('GET', `/v1/notifications/${event.id}`)).body.data as { updatedAt: string };
    svc.clock.advance(5_000);
    const inbox = (await svc.request('GET', '/v1/messages?subscriberId=ada&channel=in_app&transactionId=compact-1')).body.data as { _id: string }[];
    // The same message named twice, in two cases, is marked once.
    const id = inbox[0]!._id;
    const r = await svc.request('POST', '/v1/subscribers/ada/messages/mark-as', { body: { messageId: [id, id.toUpperCase()], markAs: 'read' } });
    expect(r.status).toBe(201);
    expect(r.body.data).toHaveLength(1);
    const after = (await svc.request('GET', `/v1/notifications/${event.id}`)).body.data as {
      updatedAt: string;
      jobs: { executionDetails: { status: string }[] }[];
    };
    expect(after.updatedAt).toBe(before.updatedAt);
    expect(after.jobs.flatMap((j) => j.executionDetails).filter((d) => d.status === 'ReadConfirmation')).toHaveLength(1);
  });

  it('a job whose event is gone (a damaged store) fails when due instead of never running', async () => {
    await svc.request('POST', '/v1/events/trigger', { body: { name: 'otp', to: 'ada', transactionId: 'orphan' } });
    const n = svc.store.activity.listNotifications(svc.environment.id, { transactionId: 'orphan' }, 0, 1).rows[0]!;
    const [job] = svc.store.jobs.jobsOf([n.id]);
    svc.store.db.prepare('DELETE FROM notifications WHERE id = unhex(?)').run(n.id);
    await svc.runner.idle();
    expect(svc.store.jobs.job(job!.id)!.status).toBe('failed');
  });
});

describe('retention', () => {
  it('deletes finished events older than the window with their jobs and messages; a repeat of their transactionId is a new event', async () => {
    const { pruneActivity } = await import('../../src/server/store/retention.js');
    // The events of the tests above are older than the window; this one is newer.
    const window = new Date(svc.clock.now() + 500).toISOString();
    svc.clock.advance(1_000);
    expect((await svc.request('POST', '/v1/events/trigger', { body: { name: 'otp', to: 'ada', transactionId: 'kept' } })).status).toBe(201);
    await svc.runner.idle();
    expect(svc.store.tx(() => pruneActivity(svc.store.db, window, 500)).notifications).toBeGreaterThan(0);
    const byTx = (transactionId: string) => svc.store.activity.listNotifications(svc.environment.id, { transactionId }, 0, 10).rows;
    expect(byTx('compact-1')).toEqual([]);
    expect(byTx('kept')).toHaveLength(1);
    expect((svc.store.db.prepare('SELECT count(*) AS n FROM jobs WHERE notification_id = unhex(?)').get(event.id) as { n: number }).n).toBe(0);
    expect((await svc.request('GET', '/v1/messages?transactionId=compact-1')).body.data).toEqual([]);
    const again = await svc.request('POST', '/v1/events/trigger', { body: { name: 'welcome', to: 'ada', transactionId: 'compact-1' } });
    expect(again.status).toBe(201);
    expect(byTx('compact-1')).toHaveLength(1);
  });
});
