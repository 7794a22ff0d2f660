// --fields naming a field the printed resource does not have is bad input like any other: on a command
// that changes something it is refused before the request is sent (exit 2, naming it and the known
// fields), not after the subscriber was created or the workflow triggered. The strict stub fails the
// test on any request it receives.
import { expect, test } from 'vitest';
import { fixture, refusesInput, stubbedService } from '../helpers/command-test.js';
import { runSvc } from '../helpers/run.js';

const svc = stubbedService();

refusesInput(svc, [
  [['subscribers', 'create', 'ada', '--first-name', 'Ada', '--fields', 'nope'], "--fields: subscribers have no field 'nope'; known fields: _id, firstName"],
  [['subscribers', 'update', 'ada', '--first-name', 'Ada', '--fields', 'subscriberId,emial'], "subscribers have no field 'emial'"],
  [['subscribers', 'online', 'ada', 'true', '--fields', 'nope'], "subscribers have no field 'nope'"],
  [['trigger', 'welcome', '--to', 'ada', '--fields', 'nope'], "--fields: trigger results have no field 'nope'; known fields: acknowledged, status"],
  [
    ['trigger', 'welcome', '--to', 'ada', '--wait', '--fields', 'outcome,nope'],
    "--fields: wait reports have no field 'nope'; known fields: trigger, transactionId, outcome",
  ],
  [['topics', 'create', 'news', '--fields', 'nope'], "topics have no field 'nope'"],
  [['workflow', 'create', '--data', '-', '--fields', 'nope'], "workflows have no field 'nope'"],
  [['workflow', 'activate', 'welcome', '--fields', 'nope'], "workflows have no field 'nope'"],
  [['integrations', 'create', '--provider-id', 'sendgrid', '--channel', 'email', '--fields', 'nope'], "integrations have no field 'nope'"],
  [['contexts', 'create', 'tenant', 'acme', '--fields', 'nope'], "contexts have no field 'nope'"],
  [['messages', 'mark-as', 'ada', 'read', '6761f0c2a3b4c5d6e7f80912', '--fields', 'nope'], "messages have no field 'nope'"],
  // Answers that are no resource the printed record would be recognised by: judged by their own fields.
  [['topics', 'add', 'news', 'ada', '--fields', 'nope'], "--fields: topic subscription changes have no field 'nope'; known fields: data, meta, errors"],
  [['topics', 'remove', 'news', 'ada', '--fields', 'data,nope'], "topic subscription changes have no field 'nope'"],
  [
    ['topics', 'get', 'news', '--fields', 'nope'],
    "--fields: topics have no field 'nope'; known fields: _id, key, name, createdAt, updatedAt, subscribers, subscriberCount",
  ],
  [['subscribers', 'preferences', 'ada', '--fields', 'nope'], "--fields: subscriber preferences have no field 'nope'; known fields: global, workflows"],
  [['subscribers', 'preferences', 'ada', '--set', 'email=off', '--fields', 'nope'], "subscriber preferences have no field 'nope'"],
  [['profile', 'show', '--fields', 'nope'], "--fields: profile settings have no field 'nope'; known fields: profile, baseUrl, apiKey"],
]);

test('their own fields pass: topics add --fields meta prints the counts', async () => {
  svc.stub.on('POST', '/v2/topics/news/subscriptions', { body: { data: [], meta: { totalCount: 1, successful: 1, failed: 0 }, errors: [] } });
  const r = await runSvc(['topics', 'add', 'news', 'ada', '--fields', 'meta.successful'], { env: svc.env });
  expect(r.code, r.stderr).toBe(0);
  expect(JSON.parse(r.stdout)).toEqual({ meta: { successful: 1 } });
});

test('a field the resource has passes, and the answer is printed with it', async () => {
  svc.stub.on('POST', '/v2/subscribers', { status: 201, body: { data: fixture.subscriber({ subscriberId: 'ada', firstName: 'Ada' }) } });
  const r = await runSvc(['subscribers', 'create', 'ada', '--first-name', 'Ada', '--fields', 'subscriberId,firstName,avatar'], { env: svc.env });
  expect(r.code, r.stderr).toBe(0);
  expect(JSON.parse(r.stdout)).toEqual({ subscriberId: 'ada', firstName: 'Ada' });
  expect(svc.stub.requests).toHaveLength(1);
});

test('the wait report’s own fields pass with --wait (the trigger result’s are refused there)', async () => {
  const r = await runSvc(['trigger', 'welcome', '--to', 'ada', '--wait', '--fields', 'acknowledged'], { env: svc.env });
  expect(r.code).toBe(2);
  expect(svc.stub.requests).toHaveLength(0);
});
