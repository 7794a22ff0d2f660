// svc topics list: the request it sends, --all following the cursor to the end, and refused input.
import { describe, expect, test } from 'vitest';
import { cursorPage, refusesInput, sendsRequest, stubbedService } from '../../helpers/command-test.js';
import { runSvc } from '../../helpers/run.js';
import { topic, twoPages } from './fixtures.js';

const svc = stubbedService();

sendsRequest(svc, [
  [
    'topics list with filters',
    {
      argv: ['topics', 'list', '--key', 'ops', '--name', 'Ops', '--limit', '5', '--after', 'c1'],
      method: 'GET',
      path: '/v2/topics',
      query: { key: ['ops'], name: ['Ops'], limit: ['5'], after: ['c1'] },
      answer: cursorPage,
    },
  ],
  ['topics list --before', { argv: ['topics', 'list', '--before', 'c9'], method: 'GET', path: '/v2/topics', query: { before: ['c9'] }, answer: cursorPage }],
]);

refusesInput(svc, [
  [['topics', 'list', '--limit', '101'], "--limit <n>' argument '101' is invalid"],
  [['topics', 'list', '--after', 'a', '--before', 'b'], '--after and --before cannot be used together'],
]);

describe('--all', () => {
  test('follows the cursor to the end, one record a line in ndjson, 100 a request', async () => {
    svc.stub.on('GET', '/v2/topics', twoPages(topic));
    const r = await runSvc(['topics', 'list', '--all', '--name', 'Topic', '-o', 'ndjson'], { env: svc.env });
    expect(r.code, r.stderr).toBe(0);
    expect(
      r.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l).key),
    ).toEqual(['topic-1', 'topic-2', 'topic-3']);
    expect(svc.stub.requests.map((q) => q.query.toString())).toEqual(['name=Topic&limit=100', 'name=Topic&limit=100&after=c2']);
    expect(r.stderr).toContain('3 records');
  });

  test('keeps --limit as the page size and prints one JSON array', async () => {
    svc.stub.on('GET', '/v2/topics', twoPages(topic));
    const r = await runSvc(['topics', 'list', '--all', '--limit', '2', '--key', 'topic-1', '-o', 'json'], { env: svc.env });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toHaveLength(3);
    expect(svc.stub.requests.map((q) => q.query.get('limit'))).toEqual(['2', '2']);
    expect(svc.stub.requests.every((q) => q.query.get('key') === 'topic-1')).toBe(true);
  });

  test.each([60, 80])('a table of every page, fitting %i columns', async (columns) => {
    svc.stub.on('GET', '/v2/topics', twoPages(topic));
    const r = await runSvc(['topics', 'list', '--all', '-o', 'table'], { env: svc.env, tty: true, columns });
    expect(r.code, r.stderr).toBe(0);
    for (const line of r.stdout.split('\n')) expect(line.length, r.stdout).toBeLessThanOrEqual(columns);
    expect(r.stdout).toMatch(/^KEY\s+NAME/);
    for (const k of ['topic-1', 'topic-2', 'topic-3']) expect(r.stdout).toContain(k);
  });
});
