// JSON a script can read: events carry svc's derived status beside the service's untouched fields, in
// every format (json, ndjson, yaml, tsv), reachable by --fields and --query; and --fields with a name the
// resource does not have is exit 2 naming it and the fields there are, for every resource.
import { describe, expect, test } from 'vitest';
import { ActivityNotification, ChannelConnection, ChannelEndpoint, Context, Integration, Message, Subscriber } from '../../src/api/schemas/resources.js';
import { TriggerResult } from '../../src/api/schemas/requests.js';
import { Topic, TopicSubscription } from '../../src/api/schemas/inbox.js';
import { PreviewResponse, Workflow, WorkflowListItem } from '../../src/api/schemas/workflow.js';
import { checkFields, SCHEMA_FIELDS } from '../../src/io/fields.js';
import { fixture, stubbedService } from '../helpers/command-test.js';
import { runSvc } from '../helpers/run.js';

const svc = stubbedService();

const PREFS = 'Step filtered by subscriber preferences: the subscriber turned the email channel off for this workflow';
const event = {
  _id: '6761f0c2a3b4c5d6e7f80912',
  transactionId: 'txn-1',
  _environmentId: 'e',
  _organizationId: 'o',
  _subscriberId: 's',
  createdAt: '2026-11-22T10:00:00.000Z',
  channels: ['in_app', 'email'],
  subscriber: { _id: 's', subscriberId: 'ada' },
  template: { name: 'Welcome', triggers: [{ type: 'event', identifier: 'welcome', variables: [] }] },
  jobs: [
    {
      _id: 'j1',
      type: 'in_app',
      status: 'completed',
      providerId: 'svc',
      step: { _id: 's1', stepId: 'in-app', active: true, filters: [], _templateId: 't' },
      executionDetails: [{ _id: 'd1', status: 'Success', detail: 'Message sent', isRetry: false, isTest: false, source: 'Internal' }],
    },
    {
      _id: 'j2',
      type: 'email',
      status: 'skipped',
      providerId: null,
      step: { _id: 's2', stepId: 'email', active: true, filters: [], _templateId: 't' },
      executionDetails: [{ _id: 'd2', status: 'Warning', detail: PREFS, isRetry: false, isTest: false, source: 'Internal' }],
    },
  ],
};
const feed = { body: { data: [event], hasMore: false, page: 0, pageSize: 10 } };
const DERIVED = {
  status: 'partial',
  reason: `email skipped: ${PREFS}`,
  channels: [
    { stepId: 'in-app', channel: 'in_app', outcome: 'delivered', reason: null },
    { stepId: 'email', channel: 'email', outcome: 'skipped', reason: PREFS },
  ],
};

describe('events carry the derived status as svc’s own field', () => {
  test('json: the service’s fields untouched, `derived` beside them; --fields and --query reach it', async () => {
    svc.stub.on('GET', '/v1/notifications', feed);
    const r = await runSvc(['events', 'list', '-o', 'json'], { env: svc.env });
    expect(r.code, r.stderr).toBe(0);
    const [{ derived, ...service }] = JSON.parse(r.stdout);
    expect(service).toEqual(event);
    expect(derived).toEqual(DERIVED);
    const fields = await runSvc(['events', 'list', '--fields', '_id,derived.status,derived.reason'], { env: svc.env });
    expect(JSON.parse(fields.stdout)).toEqual([{ _id: event._id, derived: { status: 'partial', reason: DERIVED.reason } }]);
    const query = await runSvc(['events', 'list', '--query', '[].derived.status'], { env: svc.env });
    expect(JSON.parse(query.stdout)).toEqual(['partial']);
  });
  test('ndjson, yaml and tsv carry it too', async () => {
    svc.stub.on('GET', '/v1/notifications', feed);
    const nd = await runSvc(['events', 'list', '-o', 'ndjson'], { env: svc.env });
    expect(JSON.parse(nd.stdout.trim()).derived).toEqual(DERIVED);
    const yaml = await runSvc(['events', 'list', '-o', 'yaml', '--fields', 'derived.status'], { env: svc.env });
    expect(yaml.stdout).toBe('- derived:\n    status: partial\n');
    const tsv = await runSvc(['events', 'list', '-o', 'tsv', '-q', '--fields', '_id,derived.status,derived.reason'], { env: svc.env });
    expect(tsv.stdout).toBe(`${event._id}\tpartial\temail skipped: ${PREFS}\n`);
  });
  test('--channel email judges the email step’s own outcome', async () => {
    svc.stub.on('GET', '/v1/notifications', feed);
    const r = await runSvc(['events', 'list', '--channel', 'email', '--fields', 'derived.status,derived.reason'], { env: svc.env });
    expect(JSON.parse(r.stdout)).toEqual([{ derived: { status: 'skipped', reason: PREFS } }]);
  });
});

describe('--fields with a name the resource does not have', () => {
  test('events: exit 2 naming it and the known fields (derived among them)', async () => {
    svc.stub.on('GET', '/v1/notifications', feed);
    const r = await runSvc(['events', 'list', '--fields', '_id,nope'], { env: svc.env });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^error: --fields: events have no field 'nope'; known fields: _id, .*transactionId.*derived/);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });
  test('an empty list is judged by the schema: an optional field no record has is still known', async () => {
    svc.stub.on('GET', '/v1/notifications', { body: { data: [], hasMore: false, page: 0, pageSize: 10 } });
    const ok = await runSvc(['events', 'list', '--fields', '_digestedNotificationId,derived.status'], { env: svc.env });
    expect(ok.code, ok.stderr).toBe(0);
    const bad = await runSvc(['events', 'list', '--fields', 'nope'], { env: svc.env });
    expect(bad.code).toBe(2);
  });
  test('integrations and subscribers alike, in table output too', async () => {
    svc.stub.on('GET', '/v1/integrations/active', { body: { data: [fixture.integration()] } });
    const table = await runSvc(['integrations', 'active', '--fields', 'identifier,colour', '-o', 'table'], { env: svc.env });
    expect(table.code).toBe(2);
    expect(table.stderr).toMatch(/--fields: integrations have no field 'colour'; known fields: _id, _environmentId/);
    svc.stub.on('GET', '/v2/subscribers/ada', { body: { data: fixture.subscriber() } });
    const sub = await runSvc(['subscribers', 'get', 'ada', '--fields', 'emial'], { env: svc.env });
    expect(sub.code).toBe(2);
    // `subscribers get` names no layout: the record is known by its fields.
    expect(sub.stderr).toContain("--fields: subscribers have no field 'emial'; known fields: _id, firstName, lastName, email");
    // An optional field the record leaves out is no mistake.
    const phone = await runSvc(['subscribers', 'get', 'ada', '--fields', 'subscriberId,avatar'], { env: svc.env });
    expect(phone.code, phone.stderr).toBe(0);
  });
  test('the schema table is the schemas’ own keys', () => {
    const schemas = {
      events: ActivityNotification,
      subscribers: Subscriber,
      integrations: Integration,
      endpoints: ChannelEndpoint,
      connections: ChannelConnection,
      messages: Message,
      contexts: Context,
      trigger: TriggerResult,
      workflow: Workflow,
      workflows: WorkflowListItem,
      preview: PreviewResponse,
      topics: Topic,
      subscriptions: TopicSubscription,
    };
    for (const [view, schema] of Object.entries(schemas)) expect(SCHEMA_FIELDS[view as keyof typeof SCHEMA_FIELDS], view).toEqual(Object.keys(schema.shape));
    expect(Object.keys(SCHEMA_FIELDS).sort()).toEqual(Object.keys(schemas).sort());
  });
  test('our own records are judged by their keys; a record that is no resource is not judged', async () => {
    expect(() => checkFields(['name', 'nope'], [{ name: 'a', baseUrl: 'x' }], 'profiles')).toThrow(
      /profiles have no field 'nope'; known fields: name, baseUrl/,
    );
    expect(() => checkFields(['anything'], [], undefined)).not.toThrow();
    expect(() => checkFields(['nope'], [{ method: 'GET', url: 'x', headers: {} }], undefined)).not.toThrow();
    // --dry-run prints the request, whatever --fields says.
    const dry = await runSvc(['events', 'list', '--dry-run', '--fields', '_id'], { env: svc.env });
    expect(dry.code, dry.stderr).toBe(0);
  });
});
