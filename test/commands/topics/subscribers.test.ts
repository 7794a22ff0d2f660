// svc topics subscribers: GET /v2/topics/{key}/subscriptions, one page or every page with --all.
import { describe, expect, test } from 'vitest';
import { cursorPage, refusesInput, sendsRequest, stubbedService } from '../../helpers/command-test.js';
import { runSvc } from '../../helpers/run.js';
import { subscription, twoPages } from './fixtures.js';

const svc = stubbedService();

sendsRequest(svc, [
  [
    'topics subscribers',
    {
      argv: ['topics', 'subscribers', 'ops', '--limit', '3', '--after', 'c1', '--subscriber', 'ada'],
      method: 'GET',
      path: '/v2/topics/ops/subscriptions',
      query: { limit: ['3'], after: ['c1'], subscriberId: ['ada'] },
      answer: cursorPage,
    },
  ],
  // A key with ":" (allowed in topic keys) is one path segment.
  ['a key with a colon', { argv: ['topics', 'subscribers', 'team:ops'], method: 'GET', path: '/v2/topics/team%3Aops/subscriptions', answer: cursorPage }],
]);

refusesInput(svc, [
  [['topics', 'subscribers'], "missing required argument 'topicKey'"],
  [['topics', 'subscribers', 'ops', '--limit', '0'], "--limit <n>' argument '0' is invalid"],
]);

describe('the list', () => {
  test('a table of subscriber id, name, email and when subscribed; the paging state on stderr', async () => {
    svc.stub.on('GET', '/v2/topics/ops/subscriptions', twoPages(subscription));
    const r = await runSvc(['topics', 'subscribers', 'ops', '-o', 'table'], { env: svc.env, tty: true, columns: 100 });
    expect(r.code, r.stderr).toBe(0);
    const [header, first] = r.stdout.split('\n');
    expect(header).toMatch(/^SUBSCRIBER ID\s+NAME\s+EMAIL\s+SUBSCRIBED/);
    expect(first).toMatch(/^user-1\s+User N1\s+user1@example\.com\s+2026-11-22/);
    expect(r.stdout).not.toContain('user-3');
    expect(r.stderr).toContain('2 records of 3 · next page: --after c2');
  });

  test.each([60, 80])('the table fits %i columns', async (columns) => {
    svc.stub.on('GET', '/v2/topics/ops/subscriptions', twoPages(subscription));
    const r = await runSvc(['topics', 'subscribers', 'ops', '-o', 'table'], { env: svc.env, tty: true, columns });
    expect(r.code, r.stderr).toBe(0);
    for (const line of r.stdout.split('\n')) expect(line.length, r.stdout).toBeLessThanOrEqual(columns);
    expect(r.stdout).toContain('user-2');
  });

  test('--all streams every page as ndjson, 100 a request', async () => {
    svc.stub.on('GET', '/v2/topics/ops/subscriptions', twoPages(subscription));
    const r = await runSvc(['topics', 'subscribers', 'ops', '--all', '-o', 'ndjson'], { env: svc.env });
    expect(r.code, r.stderr).toBe(0);
    expect(
      r.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l).subscriber.subscriberId),
    ).toEqual(['user-1', 'user-2', 'user-3']);
    expect(svc.stub.requests.map((q) => q.query.toString())).toEqual(['limit=100', 'limit=100&after=c2']);
  });

  test('json without --all: the records of the page', async () => {
    svc.stub.on('GET', '/v2/topics/ops/subscriptions', twoPages(subscription));
    const r = await runSvc(['topics', 'subscribers', 'ops', '--json'], { env: svc.env });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).map((s: { identifier: string }) => s.identifier)).toEqual(['tk=ops:si=user-1', 'tk=ops:si=user-2']);
  });

  test('an unknown topic exits 5', async () => {
    svc.stub.on('GET', '/v2/topics/nope/subscriptions', { status: 404, body: { statusCode: 404, message: 'Topic with key nope not found' } });
    const r = await runSvc(['topics', 'subscribers', 'nope'], { env: svc.env });
    expect(r.code).toBe(5);
    expect(r.stderr).toContain('Topic with key nope not found');
  });
});
