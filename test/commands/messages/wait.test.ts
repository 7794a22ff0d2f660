// svc messages wait through the real HTTP core against a loopback stub: against the hosted service
// (GET /v1/svc-dev answers 404) it polls GET /v1/messages and takes the oldest match since its start;
// against svc dev it asks the held route; --extract prints the value alone; exit 8 on timeout.
import { expect, it } from 'vitest';
import { ID, ID2, KEY, refusesInput, stubbedService } from '../../helpers/command-test.js';
import { runSvc } from '../../helpers/run.js';

const svc = stubbedService();

const email = (id: string, createdAt: string, extra: Record<string, unknown> = {}) => ({
  _id: id,
  _environmentId: 'e',
  _organizationId: 'o',
  _notificationId: 'n',
  _subscriberId: 's',
  transactionId: 't1',
  channel: 'email',
  read: false,
  seen: false,
  status: 'sent',
  cta: {},
  createdAt,
  templateIdentifier: 'welcome',
  subject: 'Sign in',
  content: '<p>Your code is <b>482913</b>.</p><p><a href="https://app.test/magic?t=abc">Sign in</a></p>',
  ...extra,
});
const page = (data: unknown[]) => ({ data, hasMore: false, pageSize: 100, page: 0, totalCount: data.length });
const old = '2000-01-01T00:00:00.000Z';

it('hosted service: polls GET /v1/messages, skips what is older than its start, prints the first link alone', async () => {
  svc.stub.on('GET', '/v1/svc-dev', { status: 404, body: { statusCode: 404, message: 'Cannot GET /v1/svc-dev' } });
  let polls = 0;
  svc.stub.on('GET', '/v1/messages', () => ({
    body: page(polls++ === 0 ? [email(ID2, old)] : [email(ID, new Date(Date.now() + 1000).toISOString()), email(ID2, old)]),
  }));
  const r = await runSvc(['messages', 'wait', '--subscriber', 'ada', '--channel', 'email', '--extract', 'link', '--wait-timeout', '10s'], { env: svc.env });
  expect(r.stderr).toBe('');
  expect(r).toMatchObject({ code: 0, stdout: 'https://app.test/magic?t=abc\n' });
  const asked = svc.stub.requests.filter((q) => q.path === '/v1/messages');
  expect(asked.length).toBe(2);
  expect(Object.fromEntries(asked[0]!.query)).toMatchObject({ subscriberId: 'ada', channel: 'email', page: '0', limit: '100' });
});

it('--extract otp, a pattern, and a record with -o json; a workflow or text that does not match is passed over', async () => {
  const now = new Date(Date.now() + 1000).toISOString();
  svc.stub.on('GET', '/v1/svc-dev', { status: 404, body: {} });
  svc.stub.on('GET', '/v1/messages', { body: page([email(ID, now), email(ID2, now, { templateIdentifier: 'other', subject: 'x', content: '1234' })]) });
  const otp = await runSvc(['messages', 'wait', '--workflow', 'welcome', '--extract', 'otp'], { env: svc.env });
  expect(otp.stdout).toBe('482913\n');
  const re = await runSvc(['messages', 'wait', '--contains', 'your CODE', '--extract', 'magic\\?t=(\\w+)'], { env: svc.env });
  expect(re.stdout).toBe('abc\n');
  const json = await runSvc(['messages', 'wait', '--workflow', 'welcome', '-o', 'json'], { env: svc.env });
  expect(JSON.parse(json.stdout)).toMatchObject({ _id: ID, subject: 'Sign in' });
});

it('exit 8 when nothing matches before --wait-timeout, saying what it waited for', async () => {
  svc.stub.on('GET', '/v1/svc-dev', { status: 404, body: {} });
  svc.stub.on('GET', '/v1/messages', { body: page([email(ID, old)]) });
  const r = await runSvc(['messages', 'wait', '--subscriber', 'ada', '--wait-timeout', '200ms'], { env: svc.env });
  expect(r.code).toBe(8);
  expect(r.stdout).toBe('');
  expect(r.stderr).toMatch(/no message matched within 200ms \(subscriberId "ada", since \d{4}-/);
});

it('svc dev: one held request carrying the filters, its start as since, and the hold', async () => {
  svc.stub.on('GET', '/v1/svc-dev', { body: { data: { service: 'svc dev', version: '1', extensions: ['messages.wait'] } } });
  svc.stub.on('GET', '/v1/svc-dev/messages/wait', { body: { data: email(ID, new Date().toISOString()) } });
  const before = Date.now();
  const r = await runSvc(['messages', 'wait', '--transaction-id', 't1', '--channel', 'email', '--extract', 'otp'], { env: svc.env });
  expect(r).toMatchObject({ code: 0, stdout: '482913\n' });
  const held = svc.stub.requests.find((q) => q.path === '/v1/svc-dev/messages/wait')!;
  const q = Object.fromEntries(held.query);
  expect(q).toMatchObject({ transactionId: 't1', channel: 'email' });
  expect(Date.parse(q.since!)).toBeGreaterThanOrEqual(before - 5);
  expect(Number(q.holdMs)).toBeGreaterThan(19_000);
  expect(held.headers.authorization).toBe(`ApiKey ${KEY}`);
});

it('svc dev: a hold that ends empty is asked again until the wait ends, then exit 8', async () => {
  svc.stub.on('GET', '/v1/svc-dev', { body: { data: { service: 'svc dev', version: '1', extensions: ['messages.wait'] } } });
  svc.stub.on('GET', '/v1/svc-dev/messages/wait', { delayMs: 60, body: { data: null } });
  const r = await runSvc(['messages', 'wait', '--since', '5m', '--wait-timeout', '150ms'], { env: svc.env });
  expect(r.code).toBe(8);
  const holds = svc.stub.requests.filter((q) => q.path === '/v1/svc-dev/messages/wait');
  expect(holds.length).toBeGreaterThanOrEqual(2);
  expect(Date.parse(holds[0]!.query.get('since')!)).toBeLessThan(Date.now() - 4 * 60_000);
});

it('a message without the value asked for: exit 1, saying so', async () => {
  svc.stub.on('GET', '/v1/svc-dev', { status: 404, body: {} });
  svc.stub.on('GET', '/v1/messages', { body: page([email(ID, new Date(Date.now() + 1000).toISOString(), { content: '<p>no code</p>' })]) });
  const r = await runSvc(['messages', 'wait', '--extract', 'otp'], { env: svc.env });
  expect(r.code).toBe(1);
  expect(r.stderr).toContain(`message ${ID} (email) has no code of 4 to 8 digits`);
});

refusesInput(svc, [
  [['messages', 'wait', '--extract', '(oops'], '--extract: not a regular expression'],
  [['messages', 'wait', '--since', 'yesterday'], '--since: expected an ISO 8601 time'],
  [['messages', 'wait', '--wait-timeout', 'soon'], 'Expected a duration'],
  [['messages', 'wait', '--channel', 'fax'], '--channel'],
]);
