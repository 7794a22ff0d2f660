// svc messages get: the message as sent with its checks. svc dev answers by id (with the email's
// sender); the hosted service's GET /v1/messages pages are looked through; -o json adds `outbox`.
import { expect, it } from 'vitest';
import { ID, ID2, refusesInput, stubbedService } from '../../helpers/command-test.js';
import { runSvc } from '../../helpers/run.js';

const svc = stubbedService();

const base = {
  _environmentId: 'e',
  _organizationId: 'o',
  _notificationId: 'n',
  _subscriberId: 's',
  transactionId: 't1',
  read: false,
  seen: false,
  status: 'sent',
  cta: {},
  createdAt: '2026-11-22T10:00:00.000Z',
  templateIdentifier: 'welcome',
};
const big = `<p>${'x'.repeat(110 * 1024)}</p><a href="http://localhost:3000/verify">Verify</a>`;
const emailMessage = { ...base, _id: ID, channel: 'email', email: 'ada@example.com', subject: 'Welcome', content: big };
const DEV = { body: { data: { service: 'svc dev', version: '1', extensions: ['messages.get'] } } };

it('svc dev: the email with its headers, text, links and each check as a line saying what exceeded what', async () => {
  svc.stub.on('GET', '/v1/svc-dev', DEV);
  svc.stub.on('GET', `/v1/svc-dev/messages/${ID}`, { body: { data: { ...emailMessage, sender: { address: 'hello@acme.test', name: 'Acme' } } } });
  const r = await runSvc(['messages', 'get', ID], { env: { ...svc.env, NO_COLOR: '1' }, tty: true, columns: 100 });
  expect(r.code).toBe(0);
  expect(r.stdout).toContain(`email ${ID}  sent`);
  expect(r.stdout).toContain('From: "Acme" <hello@acme.test>');
  expect(r.stdout).toContain('To: ada@example.com');
  expect(r.stdout).toContain('Links (1)\n  http://localhost:3000/verify  Verify');
  expect(r.stdout).toMatch(/✗ size +HTML is 110 KB \(112,\d{3} bytes\): over the 102 KB past which Gmail clips the message, by 8\.1 KB/);
  expect(r.stdout).toMatch(/! links +http:\/\/localhost:3000\/verify points at this machine/);
});

it('-o json: the record as the service gave it, with `outbox` holding the checks', async () => {
  svc.stub.on('GET', '/v1/svc-dev', DEV);
  svc.stub.on('GET', `/v1/svc-dev/messages/${ID}`, {
    body: { data: { ...base, _id: ID, channel: 'sms', phone: '+15550100', content: `Your code is 1234 ${'é'.repeat(10)}😀` } },
  });
  const r = await runSvc(['messages', 'get', ID, '-o', 'json'], { env: svc.env });
  const out = JSON.parse(r.stdout);
  expect(out).toMatchObject({ _id: ID, channel: 'sms', outbox: { sms: { encoding: 'UCS-2', segments: 1 } } });
  expect(out.outbox.checks[0].text).toBe("UCS-2 because of '😀' (U+1F600), which GSM-7 does not have");
});

it('hosted service: looks through GET /v1/messages pages for the id', async () => {
  svc.stub.on('GET', '/v1/svc-dev', { status: 404, body: {} });
  let n = 0;
  svc.stub.on('GET', '/v1/messages', () => ({
    body:
      n++ === 0
        ? { data: [{ ...emailMessage, _id: ID2, content: '<p>other</p>' }], hasMore: true, page: 0, pageSize: 100 }
        : {
            data: [{ ...base, _id: ID, channel: 'push', title: 'Hi', content: 'x'.repeat(5000), deviceTokens: ['t'] }],
            hasMore: false,
            page: 1,
            pageSize: 100,
          },
  }));
  const r = await runSvc(['messages', 'get', ID, '--subscriber', 'ada', '-o', 'json'], { env: svc.env });
  const out = JSON.parse(r.stdout);
  expect(out.outbox.checks.map((c: { level: string; check: string }) => `${c.level} ${c.check}`)).toEqual(['problem apns', 'problem fcm']);
  const pages = svc.stub.requests.filter((q) => q.path === '/v1/messages');
  expect(pages.map((q) => q.query.get('page'))).toEqual(['0', '1']);
  expect(pages[0]!.query.get('subscriberId')).toBe('ada');
});

it('hosted service: an id in none of the pages exits 5', async () => {
  svc.stub.on('GET', '/v1/svc-dev', { status: 404, body: {} });
  svc.stub.on('GET', '/v1/messages', { body: { data: [], hasMore: false, page: 0, pageSize: 100 } });
  const r = await runSvc(['messages', 'get', ID], { env: svc.env });
  expect(r.code).toBe(5);
  expect(r.stderr).toContain(`message ${ID} not found`);
});

refusesInput(svc, [[['messages', 'get', 'nope'], 'MESSAGE_ID: expected a 24-character hexadecimal id']]);
