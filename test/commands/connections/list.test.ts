// svc connections list: the request it sends.
import { describe, expect, test } from 'vitest';
import { cursorPage, sendsRequest, stubbedService } from '../../helpers/command-test.js';
import { runSvc } from '../../helpers/run.js';
import type { Recorded } from '../../helpers/stub.js';

const svc = stubbedService();

sendsRequest(svc, [
  [
    'connections list',
    {
      argv: ['connections', 'list', '--subscriber', 'u1', '--limit', '100'],
      method: 'GET',
      path: '/v1/channel-connections',
      query: { subscriberId: ['u1'], limit: ['100'] },
      answer: cursorPage,
    },
  ],
]);

describe('access tokens in the list', () => {
  const connection = (i: number) => ({
    identifier: `chconn_${i}`,
    channel: 'chat',
    providerId: 'slack',
    integrationIdentifier: 'slack',
    subscriberId: 'u1',
    contextKeys: [],
    workspace: { id: 'T1' },
    auth: { accessToken: `xoxb-list-secret-token-${i}` },
    createdAt: 'x',
    updatedAt: 'x',
  });
  const pages = (req: Recorded) =>
    req.query.get('after') === 'c2'
      ? { body: { data: [connection(3)], next: null, previous: 'c1', totalCount: 3, totalCountCapped: false } }
      : { body: { data: [connection(1), connection(2)], next: 'c2', previous: null, totalCount: 3, totalCountCapped: false } };

  // The streaming path (--all) once printed tables without masking; every format and mode goes through
  // the same preparation now.
  test.each([
    [['-o', 'table'], true],
    [['-o', 'table', '--all'], true],
    [['-o', 'json', '--all'], false],
    [['-o', 'ndjson', '--all'], false],
    [['-o', 'yaml', '--all'], false],
    [['-o', 'json'], false],
  ])('are masked with --fields naming them: %j', async (flags, tty) => {
    svc.stub.on('GET', '/v1/channel-connections', pages);
    const r = await runSvc(['connections', 'list', '--fields', 'identifier,auth.accessToken', ...flags], { env: svc.env, tty });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('chconn_1');
    expect(r.stdout).not.toMatch(/xoxb-list-secret-token-\d/);
    expect(r.stdout).toMatch(/…en-1|…n-1\b|-1\b/);
    if (flags.includes('--all')) expect(r.stdout).toContain('chconn_3');
  });

  test('--show-secrets prints them in the streamed table too', async () => {
    svc.stub.on('GET', '/v1/channel-connections', pages);
    const r = await runSvc(['connections', 'list', '--all', '-o', 'table', '--fields', 'identifier,auth.accessToken', '--show-secrets'], {
      env: svc.env,
      tty: true,
    });
    expect(r.stdout).toContain('xoxb-list-secret-token-3');
  });
});
