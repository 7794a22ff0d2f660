// A short id a table printed resolves however old its event is: the full ids of the last lists shown
// are remembered (bounded), looked at before the feed's newest pages; past both, the error says which
// command prints the whole id.
import { afterEach, beforeEach, expect, test } from 'vitest';
import { startStub, type Stub } from '../../helpers/stub.js';
import { runSvc, tempConfigDir } from '../../helpers/run.js';

const KEY = 'sk_test_0123456789abcdef';
let stub: Stub;
let env: Record<string, string>;
beforeEach(async () => {
  stub = await startStub({ allowUnused: true });
  env = { SVC_API_KEY: KEY, SVC_BASE_URL: stub.url, SVC_CONFIG_DIR: tempConfigDir() };
});
afterEach(async () => stub.close());

const ADA = '6b0575e8a5d94bd2f7aa2921';
const event = (_id: string, subscriberId: string) => ({
  _id,
  transactionId: `txn-${_id.slice(-4)}`,
  _environmentId: 'e',
  _organizationId: 'o',
  _subscriberId: 's',
  createdAt: '2026-11-22T10:00:00.000Z',
  channels: ['in_app'],
  subscriber: { _id: 's', subscriberId },
  template: { name: 'Welcome', triggers: [{ type: 'event', identifier: 'welcome', variables: [] }] },
  jobs: [],
});
// 600 newer events of others: ada's is past the newest 500 the window searches.
const others = Array.from({ length: 600 }, (_, i) => event(`6c${String(i).padStart(22, '0')}`, `user-${i}`));

test('events list shows ada an event; 600 events later, events get with the short id it printed still finds it', async () => {
  stub.on('GET', '/v1/notifications', (req) => {
    if (req.query.getAll('subscriberIds').includes('ada')) return { body: { data: [event(ADA, 'ada')], hasMore: false, pageSize: 10, page: 0 } };
    const page = Number(req.query.get('page') ?? 0);
    const limit = Number(req.query.get('limit') ?? 10);
    return { body: { data: others.slice(page * limit, (page + 1) * limit), hasMore: (page + 1) * limit < others.length, pageSize: limit, page } };
  });
  stub.on('GET', `/v1/notifications/${ADA}`, { body: { data: event(ADA, 'ada') } });
  const list = await runSvc(['events', 'list', '--subscriber', 'ada', '-o', 'table'], { env, tty: true, columns: 80 });
  expect(list.code, list.stderr).toBe(0);
  // The short form the table printed: the distinct end of the id, or its start.
  const short = list.stdout.split('\n')[1]!.split(/\s+/)[0]!;
  expect(short.length, list.stdout).toBeLessThan(24);
  expect(ADA.startsWith(short) || ADA.endsWith(short)).toBe(true);
  expect(list.stdout).not.toContain(ADA);

  const before = stub.requests.length;
  const got = await runSvc(['events', 'get', short!, '--json'], { env });
  expect(got.code, got.stderr).toBe(0);
  expect(JSON.parse(got.stdout)._id).toBe(ADA);
  // Straight to the event: no search of the feed.
  expect(stub.requests.slice(before).map((r) => r.path)).toEqual([`/v1/notifications/${ADA}`]);
});

test('a short id in no remembered list nor the newest events: exit 5, naming the command that prints the whole id', async () => {
  stub.on('GET', '/v1/notifications', (req) => {
    if (req.query.get('transactionId')) return { body: { data: [], hasMore: false, pageSize: 50, page: 0 } };
    const page = Number(req.query.get('page') ?? 0);
    const limit = Number(req.query.get('limit') ?? 10);
    return { body: { data: others.slice(page * limit, (page + 1) * limit), hasMore: (page + 1) * limit < others.length, pageSize: limit, page } };
  });
  const r = await runSvc(['events', 'get', 'f7aa2921'], { env });
  expect(r.code).toBe(5);
  expect(r.stderr).toContain('svc events list --wide (or -o json) prints it');
});

test('one event shown alone among others of the same second: the short id printed names it, not its second', async () => {
  // Ids made in one second share their first 8 characters (the time); a lone row's shortest distinct
  // prefix would be that time, which the events of another list printed just before also start with.
  const sameSecond = (n: number) => `6b08557b82de279871df1a${n.toString(16).padStart(2, '0')}`;
  const adas = [1, 2, 3, 4, 5, 6, 7].map((n) => event(sameSecond(n), 'ada'));
  const user1 = event(sameSecond(8), 'user-1');
  stub.on('GET', '/v1/notifications', (req) => {
    const who = req.query.getAll('subscriberIds');
    const data = who.includes('ada') ? adas : who.includes('user-1') ? [user1] : [...adas, user1];
    return { body: { data, hasMore: false, pageSize: 10, page: 0 } };
  });
  stub.on('GET', `/v1/notifications/${user1._id}`, { body: { data: user1 } });
  const first = await runSvc(['events', 'list', '--subscriber', 'ada', '-o', 'table'], { env, tty: true, columns: 80 });
  expect(first.code, first.stderr).toBe(0);
  const list = await runSvc(['events', 'list', '--subscriber', 'user-1', '-o', 'table'], { env, tty: true, columns: 80 });
  expect(list.code, list.stderr).toBe(0);
  const short = list.stdout.split('\n')[1]!.split(/\s+/)[0]!;
  expect(user1._id.endsWith(short), list.stdout).toBe(true);
  const got = await runSvc(['events', 'get', short, '--json'], { env });
  expect(got.code, got.stderr).toBe(0);
  expect(JSON.parse(got.stdout)._id).toBe(user1._id);
  // A short id of ada's list, printed before, still names hers.
  const adaShort = first.stdout.split('\n')[1]!.split(/\s+/)[0]!;
  stub.on('GET', `/v1/notifications/${adas[0]!._id}`, { body: { data: adas[0] } });
  const back = await runSvc(['events', 'get', adaShort, '--json'], { env });
  expect(back.code, back.stderr).toBe(0);
  expect(JSON.parse(back.stdout)._id).toBe(adas[0]!._id);
});
