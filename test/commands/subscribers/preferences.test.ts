// svc subscribers preferences: GET without --set (one workflow's with --workflow), PATCH with --set.
import { expect, test } from 'vitest';
import { refusesInput, sendsRequest, stubbedService } from '../../helpers/command-test.js';
import { runSvc } from '../../helpers/run.js';

const svc = stubbedService();
const path = '/v2/subscribers/ada/preferences';
const wf = (identifier: string, channels: Record<string, boolean>) => ({
  enabled: true,
  channels,
  overrides: [],
  workflow: { slug: `${identifier}_wf`, identifier, name: identifier },
});
const view = {
  global: { enabled: true, channels: { in_app: true, email: true } },
  workflows: [wf('welcome', { in_app: true, email: false }), wf('otp', { sms: true })],
};

sendsRequest(svc, [
  ['show', { argv: ['subscribers', 'preferences', 'ada'], method: 'GET', path, answer: { data: view } }],
  ['show one workflow', { argv: ['subscribers', 'preferences', 'ada', '--workflow', 'welcome'], method: 'GET', path, answer: { data: view } }],
  [
    'switch channels of a workflow',
    {
      argv: ['subscribers', 'preferences', 'ada', '--workflow', 'welcome', '--set', 'email=on', '--set', 'in_app=off'],
      method: 'PATCH',
      path,
      body: { channels: { email: true, in_app: false }, workflowId: 'welcome' },
      answer: { data: view },
    },
  ],
  [
    'switch channels everywhere',
    { argv: ['subscribers', 'preferences', 'ada', '--set', 'sms=off'], method: 'PATCH', path, body: { channels: { sms: false } }, answer: { data: view } },
  ],
]);

refusesInput(svc, [
  [['subscribers', 'preferences', 'ada', '--set', 'fax=off'], '--set: unknown channel "fax"'],
  [['subscribers', 'preferences', 'ada', '--set', 'email=maybe'], '--set email: give on or off'],
]);

test('--workflow without --set prints that workflow (and the global preferences) only', async () => {
  svc.stub.on('GET', path, { body: { data: view } });
  const json = await runSvc(['subscribers', 'preferences', 'ada', '--workflow', 'welcome', '-o', 'json'], { env: svc.env });
  expect(json.code, json.stderr).toBe(0);
  expect(JSON.parse(json.stdout)).toEqual({ global: view.global, workflows: [view.workflows[0]] });
  const table = await runSvc(['subscribers', 'preferences', 'ada', '--workflow', 'welcome', '-o', 'table'], { env: svc.env, tty: true });
  expect(table.stdout).toMatch(/^welcome\s+on\s+off/m);
  expect(table.stdout).not.toContain('otp');
});

test('--workflow naming no workflow of the subscriber exits 5 and names those there are', async () => {
  svc.stub.on('GET', path, { body: { data: view } });
  const r = await runSvc(['subscribers', 'preferences', 'ada', '--workflow', 'nope'], { env: svc.env });
  expect(r.code).toBe(5);
  expect(r.stderr).toContain('no workflow nope among the preferences of ada; its workflows: welcome, otp');
});
