// svc integrations update: the request it sends (--active true|false as the spec says, on|off too) and
// the input it refuses before sending anything.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { ID, fixture, refusesInput, sendsRequest, stubbedService } from '../../helpers/command-test.js';
import { runSvc, tempConfigDir } from '../../helpers/run.js';

const svc = stubbedService();
const path = `/v1/integrations/${ID}`;
const answer = { data: fixture.integration() };

sendsRequest(svc, [
  ['--active true', { argv: ['integrations', 'update', ID, '--active', 'true'], method: 'PUT', path, body: { active: true }, answer }],
  ['--active false', { argv: ['integrations', 'update', ID, '--active', 'false'], method: 'PUT', path, body: { active: false }, answer }],
  ['--active on', { argv: ['integrations', 'update', ID, '--active', 'on'], method: 'PUT', path, body: { active: true }, answer }],
  ['--active off', { argv: ['integrations', 'update', ID, '--active', 'off'], method: 'PUT', path, body: { active: false }, answer }],
  [
    'every flag',
    {
      argv: ['integrations', 'update', ID, '--name', 'Mail', '--active', 'false', '--credentials', '{"apiKey":"k1"}', '--hmac', 'on'],
      method: 'PUT',
      path,
      body: { name: 'Mail', active: false, credentials: { apiKey: 'k1', hmac: true } },
      answer,
    },
  ],
  [
    '--credentials from stdin',
    { argv: ['integrations', 'update', ID, '--credentials', '-'], stdin: '{"from":"x"}', method: 'PUT', path, body: { credentials: { from: 'x' } }, answer },
  ],
]);

refusesInput(svc, [
  [['integrations', 'update', ID, '--active', 'yes'], 'Expected one of: true, false, on, off'],
  [['integrations', 'update', ID], 'nothing to update'],
  [['integrations', 'update', ID, '--credentials', '[1]'], '--credentials: expected a JSON object'],
]);

test('--credentials @file reads the file', async () => {
  const file = join(tempConfigDir(), 'creds.json');
  writeFileSync(file, '{"apiKey":"from-file"}');
  svc.stub.on('PUT', path, { body: answer });
  const r = await runSvc(['integrations', 'update', ID, '--credentials', `@${file}`], { env: svc.env });
  expect(r.code, r.stderr).toBe(0);
  expect(svc.stub.requests[0]?.body).toEqual({ credentials: { apiKey: 'from-file' } });
});

test('--help names true|false', async () => {
  const r = await runSvc(['integrations', 'update', '--help'], { env: svc.env });
  expect(r.stdout).toContain('--active <true|false>');
});

test('an identifier is looked up among the active integrations, then that _id is updated', async () => {
  svc.stub.on('GET', '/v1/integrations/active', { body: { data: [fixture.integration({ _id: ID, identifier: 'postmark', providerId: 'postmark' })] } });
  svc.stub.on('PUT', path, { body: answer });
  const r = await runSvc(['integrations', 'update', 'postmark', '--active', 'false'], { env: svc.env });
  expect(r.code, r.stderr).toBe(0);
  expect(svc.stub.requests.map((q) => `${q.method} ${q.path}`)).toEqual(['GET /v1/integrations/active', `PUT ${path}`]);
  expect(svc.stub.requests[1]?.body).toEqual({ active: false });
});

test('an identifier no active integration has: exit 5, nothing updated', async () => {
  svc.stub.on('GET', '/v1/integrations/active', { body: { data: [fixture.integration()] } });
  const r = await runSvc(['integrations', 'update', 'nope', '--name', 'x'], { env: svc.env });
  expect(r.code).toBe(5);
  expect(r.stderr).toContain("no active integration has the identifier 'nope'");
  expect(svc.stub.requests).toHaveLength(1);
});

test('--dry-run with an identifier prints the PUT it would send (its _id looked up first, as stderr says); nothing sent', async () => {
  const r = await runSvc(['integrations', 'update', 'postmark', '--credentials', '{"apiKey":"SG.secret-value-1234"}', '--dry-run'], { env: svc.env });
  expect(r.code, r.stderr).toBe(0);
  const printed = JSON.parse(r.stdout);
  expect(printed).toMatchObject({ method: 'PUT', url: `${svc.stub.url}/v1/integrations/INTEGRATION_ID` });
  expect(Object.keys(printed.body)).toEqual(['credentials']);
  expect(JSON.stringify(printed.body)).not.toContain('secret-value');
  expect(r.stderr).toContain("INTEGRATION_ID below is the _id of the active integration 'postmark'");
  expect(svc.stub.requests).toHaveLength(0);
  // With an _id, the request is exact.
  const exact = await runSvc(['integrations', 'update', ID, '--name', 'x', '--dry-run'], { env: svc.env });
  expect(JSON.parse(exact.stdout)).toMatchObject({ method: 'PUT', url: `${svc.stub.url}${path}`, body: { name: 'x' } });
  expect(exact.stderr).toBe('');
});
