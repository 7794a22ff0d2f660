// What a support lookup needs from events list against a service whose feed has no status filter (the
// hosted service: GET /v1/svc-dev answers 404): --status reads the feed until it has --limit matches or
// the feed ends, never says "none" after looking at part of it (exit 8, saying how far it looked), a
// refused status is named with the flag, and on a terminal a count on stderr as pages arrive.
import { PassThrough, Readable } from 'node:stream';
import { expect, test } from 'vitest';
import { main } from '../../../src/main.js';
import { KEY, stubbedService } from '../../helpers/command-test.js';
import { runSvc, tempConfigDir } from '../../helpers/run.js';
import { SEARCH_EVENTS } from '../../../src/commands/events/status-search.js';

const svc = stubbedService();
/** The hosted service has no GET /v1/svc-dev: --status asks, and filters itself. */
const hosted = () => svc.stub.on('GET', '/v1/svc-dev', { status: 404, body: { statusCode: 404, message: 'Cannot GET /v1/svc-dev', error: 'Not Found' } });

const S = '6b06f27682de279871df0001';
const event = (n: number, status: string) => ({
  _id: `6b06f27682de279871df${String(1000 + n)}`,
  transactionId: `tx-${n}`,
  _environmentId: 'e',
  _organizationId: 'o',
  _subscriberId: S,
  createdAt: '2026-11-22T19:41:07.123Z',
  channels: ['email'],
  subscriber: { _id: S, subscriberId: `user-${n}` },
  template: { name: 'Welcome', triggers: [{ type: 'event', identifier: 'welcome', variables: [] }] },
  jobs: [
    {
      _id: `j${n}`,
      type: 'email',
      status,
      providerId: 'sendgrid',
      step: { _id: 's', active: true, filters: [], _templateId: 't' },
      executionDetails: [
        {
          _id: `d${n}`,
          status: status === 'failed' ? 'Failed' : 'Success',
          detail: status === 'failed' ? 'no address' : 'sent',
          isRetry: false,
          isTest: false,
          source: 'Internal',
        },
      ],
    },
  ],
});
const page = (p: number, hasMore: boolean) => ({
  page: p,
  hasMore,
  pageSize: 3,
  data: [event(p * 3, 'failed'), event(p * 3 + 1, 'completed'), event(p * 3 + 2, 'failed')],
});

test('--status failed reads the feed until it has --limit failed events, and says how far it looked', async () => {
  hosted();
  svc.stub.on('GET', '/v1/notifications', (req) => ({ body: page(Number(req.query.get('page') ?? 0), true) }));
  const r = await runSvc(['events', 'list', '--status', 'failed', '--limit', '4'], { env: svc.env });
  expect(r.code, r.stderr).toBe(0);
  // Page 0 held 2 failed events of its 3: page 1 was read too.
  expect(JSON.parse(r.stdout).map((e: { transactionId: string }) => e.transactionId)).toEqual(['tx-0', 'tx-2', 'tx-3', 'tx-5']);
  expect(r.stderr).toContain('4 events with status failed (page 0), found among the newest 6 events; more: --page 1');
  // Not a filter of this service: nothing about it is sent, and the feed is read 50 at a time.
  const feed = svc.stub.requests.filter((q) => q.path === '/v1/notifications');
  expect(feed.every((q) => !q.query.has('svcStatus') && q.query.get('limit') === '50')).toBe(true);
  expect(feed.map((q) => q.query.get('page'))).toEqual(['0', '1']);
});

test('--status failed finds a failure behind pages of deliveries, and a feed read to its end is a true "none"', async () => {
  hosted();
  const delivered = (p: number) => ({ page: p, hasMore: true, pageSize: 3, data: [0, 1, 2].map((i) => event(p * 3 + i, 'completed')) });
  svc.stub.on('GET', '/v1/notifications', (req) => {
    const p = Number(req.query.get('page') ?? 0);
    if (p < 5) return { body: delivered(p) };
    return { body: { page: p, hasMore: false, pageSize: 3, data: [event(15, 'failed'), event(16, 'completed')] } };
  });
  const r = await runSvc(['events', 'list', '--status', 'failed', '-o', 'json'], { env: svc.env });
  expect(r.code, r.stderr).toBe(0);
  expect(JSON.parse(r.stdout).map((e: { transactionId: string }) => e.transactionId)).toEqual(['tx-15']);
  expect(r.stderr).toContain('1 event with status failed: looked through the whole feed (17 events)');
  const none = await runSvc(['events', 'list', '--status', 'skipped', '-o', 'json'], { env: svc.env });
  expect(none.code, none.stderr).toBe(0);
  expect(JSON.parse(none.stdout)).toEqual([]);
  expect(none.stderr).toContain('0 events with status skipped: looked through the whole feed (17 events)');
});

test(`--status stops after ${SEARCH_EVENTS.toLocaleString('en-US')} events with exit 8, prints what it found and says how far back it looked`, async () => {
  hosted();
  const at = (n: number) => new Date(Date.UTC(2026, 10, 22) - n * 1000).toISOString();
  svc.stub.on('GET', '/v1/notifications', (req) => {
    const p = Number(req.query.get('page') ?? 0);
    const data = Array.from({ length: 50 }, (_, i) => ({ ...event(p * 50 + i, p === 7 && i === 3 ? 'failed' : 'completed'), createdAt: at(p * 50 + i) }));
    return { body: { page: p, hasMore: true, pageSize: 50, data } };
  });
  const r = await runSvc(['events', 'list', '--status', 'failed', '-o', 'json'], { env: svc.env });
  expect(r.code).toBe(8);
  expect(JSON.parse(r.stdout).map((e: { transactionId: string }) => e.transactionId)).toEqual(['tx-353']);
  expect(svc.stub.requests.filter((q) => q.path === '/v1/notifications')).toHaveLength(SEARCH_EVENTS / 50);
  const oldest = at(SEARCH_EVENTS - 1);
  expect(r.stderr).toContain(`search stopped after 10,000 events (back to ${oldest}): 1 with status failed found, more events not looked through`);
  expect(r.stderr).toContain(`add --until ${oldest}`);
});

test('--status on a terminal shows how far it has looked on stderr as it reads', async () => {
  hosted();
  svc.stub.on('GET', '/v1/notifications', (req) => {
    const p = Number(req.query.get('page') ?? 0);
    const data = Array.from({ length: 50 }, (_, i) => event(p * 50 + i, p === 2 && i === 0 ? 'failed' : 'completed'));
    return { body: { page: p, hasMore: p < 2, pageSize: 50, data } };
  });
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let err = '';
  stderr.on('data', (c: Buffer) => (err += c.toString()));
  Object.assign(stderr, { isTTY: true, columns: 80 });
  const code = await main(['events', 'list', '--status', 'failed', '-o', 'json'], {
    io: { stdout, stderr, stdin: Readable.from([]) },
    env: { PATH: process.env.PATH, NO_COLOR: '1', SVC_CONFIG_DIR: tempConfigDir(), SVC_API_KEY: KEY, SVC_BASE_URL: svc.stub.url },
    cwd: process.cwd(),
    handleSignals: false,
  });
  expect(code).toBe(0);
  expect(err).toContain('looked through 50 events, 0 failed…');
  expect(err).toContain('looked through 100 events, 0 failed…');
  expect(err).toContain('looked through 150 events, 1 failed…');
  expect(err).toContain('1 event with status failed: looked through the whole feed (150 events)');
});

test('--page with --status is a page of the matches', async () => {
  hosted();
  svc.stub.on('GET', '/v1/notifications', (req) => ({ body: page(Number(req.query.get('page') ?? 0), Number(req.query.get('page') ?? 0) < 3) }));
  const r = await runSvc(['events', 'list', '--status', 'failed', '--limit', '3', '--page', '1', '-o', 'json'], { env: svc.env });
  expect(r.code, r.stderr).toBe(0);
  // failed: tx-0, tx-2, tx-3, tx-5, tx-6, tx-8, ...: the second page of three is tx-5, tx-6, tx-8.
  expect(JSON.parse(r.stdout).map((e: { transactionId: string }) => e.transactionId)).toEqual(['tx-5', 'tx-6', 'tx-8']);
});

test('--status delivered,pending takes a comma list; an unknown status is refused naming the flag', async () => {
  hosted();
  svc.stub.on('GET', '/v1/notifications', { body: page(0, false) });
  const r = await runSvc(['events', 'list', '--status', 'delivered,pending', '-o', 'tsv', '-q', '--fields', 'transactionId'], { env: svc.env });
  expect(r.stdout).toBe('tx-1\n');
  const bad = await runSvc(['events', 'list', '--status', 'broken'], { env: svc.env });
  expect(bad.code).toBe(2);
  expect(bad.stderr).toContain('--status: expected one of');
  expect(svc.stub.requests).toHaveLength(2);
});

test('--all on a terminal counts the events on stderr as pages arrive, and the table gets only records', async () => {
  hosted();
  svc.stub.on('GET', '/v1/notifications', (req) => {
    const n = Number(req.query.get('page') ?? 0);
    return { body: page(n, n < 2) };
  });
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (c: Buffer) => (out += c.toString()));
  stderr.on('data', (c: Buffer) => (err += c.toString()));
  Object.assign(stdout, { isTTY: true, columns: 80 });
  Object.assign(stderr, { isTTY: true, columns: 80 });
  const code = await main(['events', 'list', '--all', '--status', 'failed'], {
    io: { stdout, stderr, stdin: Readable.from([]) },
    env: { PATH: process.env.PATH, NO_COLOR: '1', SVC_CONFIG_DIR: tempConfigDir(), SVC_API_KEY: KEY, SVC_BASE_URL: svc.stub.url },
    cwd: process.cwd(),
    handleSignals: false,
  });
  expect(code).toBe(0);
  // The count line redrawn after each page, ending with the total.
  expect(err).toContain('2 of 3 events with status failed…');
  expect(err).toContain('4 of 6 events with status failed…');
  expect(err).toMatch(/6 of 9 events with status failed\n$/);
  expect(out).not.toContain('events with status');
  expect(out.match(/ failed /g)).toHaveLength(6);
});

test('--status interrupted while it looks: prints what matched so far, and says how to look further back', async () => {
  hosted();
  const ctl = new AbortController();
  svc.stub.on('GET', '/v1/notifications', (req) => {
    const p = Number(req.query.get('page') ?? 0);
    if (p === 3) ctl.abort();
    const data = p === 1 ? [event(3, 'failed'), event(4, 'completed'), event(5, 'completed')] : [0, 1, 2].map((i) => event(p * 3 + i, 'completed'));
    return { status: 200, delayMs: p === 3 ? 200 : 0, body: { page: p, hasMore: true, pageSize: 3, data } };
  });
  const r = await runSvc(['events', 'list', '--status', 'failed'], { env: svc.env, signal: ctl.signal });
  expect(r.code, r.stderr).toBe(130);
  expect(JSON.parse(r.stdout).map((e: { transactionId: string }) => e.transactionId)).toEqual(['tx-3']);
  expect(r.stderr).toMatch(
    /interrupted after looking through 9 events \(back to 2026-11-22T19:41:07.123Z\): 1 with status failed; to look further back, add --until 2026-11-22T19:41:07.123Z/,
  );
});

test('against svc dev (GET /v1/svc-dev names the extension), the store filters: svcStatus is sent, one request', async () => {
  svc.stub.on('GET', '/v1/svc-dev', { body: { data: { service: 'svc dev', version: '0.1.0', extensions: ['listEvents.svcStatus'] } } });
  svc.stub.on('GET', '/v1/notifications', { body: { page: 0, hasMore: false, pageSize: 10, data: [event(0, 'failed')] } });
  const r = await runSvc(['events', 'list', '--status', 'failed', '--channel', 'email', '-o', 'json'], { env: svc.env });
  expect(r.code, r.stderr).toBe(0);
  const feed = svc.stub.requests.filter((q) => q.path === '/v1/notifications');
  expect(feed).toHaveLength(1);
  expect(feed[0]!.query.getAll('svcStatus')).toEqual(['failed']);
  expect(feed[0]!.query.getAll('channels')).toEqual(['email']);
  expect(JSON.parse(r.stdout)[0].derived.status).toBe('failed');
});
