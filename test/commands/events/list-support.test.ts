// What a support lookup needs from events list: --status by the overall status (the feed has
// no such filter: each page is filtered as it arrives, and the count says how many were looked at), a
// refused status named with the flag, and on a terminal a count on stderr as --all pages arrive.
import { PassThrough, Readable } from 'node:stream';
import { expect, test } from 'vitest';
import { main } from '../../../src/main.js';
import { KEY, stubbedService } from '../../helpers/command-test.js';
import { runSvc, tempConfigDir } from '../../helpers/run.js';

const svc = stubbedService();

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

test('--status failed reads pages until it has a page of failed events, and says how far it looked', async () => {
  svc.stub.on('GET', '/v1/notifications', (req) => ({ body: page(Number(req.query.get('page') ?? 0), true) }));
  const r = await runSvc(['events', 'list', '--status', 'failed'], { env: svc.env });
  expect(r.code).toBe(0);
  // Page 0 held 2 failed events of its 3: page 1 was read too.
  expect(JSON.parse(r.stdout).map((e: { transactionId: string }) => e.transactionId)).toEqual(['tx-0', 'tx-2', 'tx-3', 'tx-5']);
  expect(r.stderr).toContain('4 events with status failed among 6 (pages 0–1); more with --page 2 --limit 3, or --all to look through every page');
  // Not a filter of the service: nothing about it is sent.
  expect(svc.stub.requests[0]!.query.has('status')).toBe(false);
  expect(svc.stub.requests.map((q) => q.query.get('page'))).toEqual(['0', '1']);
});

test('--status failed finds a failure behind pages of deliveries (not only on the page fetched first)', async () => {
  const delivered = (p: number) => ({ page: p, hasMore: true, pageSize: 3, data: [0, 1, 2].map((i) => event(p * 3 + i, 'completed')) });
  svc.stub.on('GET', '/v1/notifications', (req) => {
    const p = Number(req.query.get('page') ?? 0);
    if (p < 5) return { body: delivered(p) };
    return { body: { page: p, hasMore: false, pageSize: 3, data: [event(15, 'failed'), event(16, 'completed')] } };
  });
  const r = await runSvc(['events', 'list', '--status', 'failed', '-o', 'json'], { env: svc.env });
  expect(r.code, r.stderr).toBe(0);
  expect(JSON.parse(r.stdout).map((e: { transactionId: string }) => e.transactionId)).toEqual(['tx-15']);
  expect(r.stderr).toContain('1 event with status failed among 17 (pages 0–5)');
  expect(r.stderr).not.toContain('--page 6');
});

test('--status looks through at most 40 pages, then says which --page continues', async () => {
  svc.stub.on('GET', '/v1/notifications', (req) => {
    const p = Number(req.query.get('page') ?? 0);
    return { body: { page: p, hasMore: true, pageSize: 3, data: [0, 1, 2].map((i) => event(p * 3 + i, 'completed')) } };
  });
  const r = await runSvc(['events', 'list', '--status', 'failed', '--page', '2', '-o', 'json'], { env: svc.env });
  expect(r.code, r.stderr).toBe(0);
  expect(JSON.parse(r.stdout)).toEqual([]);
  expect(svc.stub.requests).toHaveLength(40);
  expect(r.stderr).toContain('0 events with status failed among 120 (pages 2–41); more with --page 42 --limit 3');
});

test('--status delivered,pending takes a comma list; an unknown status is refused naming the flag', async () => {
  svc.stub.on('GET', '/v1/notifications', { body: page(0, false) });
  const r = await runSvc(['events', 'list', '--status', 'delivered,pending', '-o', 'tsv', '-q', '--fields', 'transactionId'], { env: svc.env });
  expect(r.stdout).toBe('tx-1\n');
  const bad = await runSvc(['events', 'list', '--status', 'broken'], { env: svc.env });
  expect(bad.code).toBe(2);
  expect(bad.stderr).toContain('--status: expected one of');
  expect(svc.stub.requests).toHaveLength(1);
});

test('--all on a terminal counts the events on stderr as pages arrive, and the table gets only records', async () => {
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

test('--status interrupted while it looks: prints what matched so far, and names the --page that continues', async () => {
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
    /interrupted after looking through 9 events \(1 with status failed, printed\); to continue, run the same command with --page 3 --limit 3/,
  );
});
