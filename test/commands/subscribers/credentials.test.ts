// svc subscribers credentials set|remove: PUT (PATCH with --append) and DELETE of a subscriber's
// provider credentials; a terminal sees what the subscriber can be reached at, never a webhook's path.
import { expect, test } from 'vitest';
import { fixture, refusesInput, sendsRequest, stubbedService } from '../../helpers/command-test.js';
import { runSvc } from '../../helpers/run.js';

const svc = stubbedService();
const path = '/v1/subscribers/ada/credentials';
const ID = '6761f0c2a3b4c5d6e7f80912';
const withChannels = fixture.subscriber({
  subscriberId: 'ada',
  channels: [
    { providerId: 'fcm', integrationIdentifier: 'fcm', _integrationId: ID, credentials: { deviceTokens: ['t1', 't2'] } },
    { providerId: 'slack', integrationIdentifier: 'slack', _integrationId: ID, credentials: { webhookUrl: 'https://hooks.slack.com/services/T0/B0/secret' } },
  ],
});

sendsRequest(svc, [
  [
    'set device tokens (PUT: they replace the kept ones)',
    {
      argv: ['subscribers', 'credentials', 'set', 'ada', '--provider', 'fcm', '--token', 't1', '--token', 't2'],
      method: 'PUT',
      path,
      body: { providerId: 'fcm', credentials: { deviceTokens: ['t1', 't2'] } },
      answer: { data: withChannels },
    },
  ],
  [
    'add a device token (PATCH) through a named integration',
    {
      argv: ['subscribers', 'credentials', 'set', 'ada', '--provider', 'fcm', '--token', 't3', '--append', '--integration', 'fcm-eu'],
      method: 'PATCH',
      path,
      body: { providerId: 'fcm', credentials: { deviceTokens: ['t3'] }, integrationIdentifier: 'fcm-eu' },
      answer: { data: withChannels },
    },
  ],
  [
    'set a chat webhook URL',
    {
      argv: ['subscribers', 'credentials', 'set', 'ada', '--provider', 'slack', '--webhook-url', 'https://hooks.slack.com/services/T0/B0/secret'],
      method: 'PUT',
      path,
      body: { providerId: 'slack', credentials: { webhookUrl: 'https://hooks.slack.com/services/T0/B0/secret' } },
      answer: { data: withChannels },
    },
  ],
  ['remove a provider', { argv: ['subscribers', 'credentials', 'remove', 'ada', '--provider', 'fcm'], method: 'DELETE', path: `${path}/fcm`, status: 204 }],
]);

refusesInput(svc, [
  [['subscribers', 'credentials', 'set', 'ada', '--provider', 'fcm', '--token', 't', '--webhook-url', 'https://x.example'], '--token and --webhook-url'],
  [['subscribers', 'credentials', 'set', 'ada', '--provider', 'fcm'], '--token T (repeatable, push) or --webhook-url URL (chat)'],
  [['subscribers', 'credentials', 'set', 'ada', '--token', 't'], "missing required option '--provider"],
  [
    ['subscribers', 'credentials', 'set', 'ada', '--provider', 'slack', '--webhook-url', 'ftp://x.example/h'],
    '--webhook-url: expected an http:// or https:// URL',
  ],
  [
    ['subscribers', 'credentials', 'set', 'ada', '--provider', 'slack', '--webhook-url', 'https://x.example/h', '--append'],
    '--append only applies with --token',
  ],
  [['subscribers', 'credentials', 'remove', 'ada', '--provider', 'sendgrid'], '--provider'],
]);

test('a terminal sees one row per provider: how many device tokens, and only the origin of a webhook URL', async () => {
  svc.stub.on('PUT', path, { body: { data: withChannels } });
  const r = await runSvc(['subscribers', 'credentials', 'set', 'ada', '--provider', 'fcm', '--token', 't1', '-o', 'table'], { env: svc.env, tty: true });
  expect(r.code, r.stderr).toBe(0);
  expect(r.stdout).toMatch(/^fcm\s+fcm\s+2\s*$/m);
  expect(r.stdout).toMatch(/^slack\s+slack\s+https:\/\/hooks\.slack\.com\/…\s*$/m);
  expect(r.stdout).not.toContain('secret');
  expect(r.stdout).not.toContain('t1');
});
