// svc subscribers delete: without a terminal it needs --yes; with it, one DELETE.
import { expect, test } from 'vitest';
import { sendsRequest, stubbedService } from '../../helpers/command-test.js';
import { runSvc } from '../../helpers/run.js';

const svc = stubbedService();

sendsRequest(svc, [
  [
    'subscribers delete --yes',
    {
      argv: ['subscribers', 'delete', 'user-1', '--yes'],
      method: 'DELETE',
      path: '/v2/subscribers/user-1',
      answer: { data: { acknowledged: true, status: 'deleted' } },
    },
  ],
]);

test('without a terminal and without --yes nothing is deleted: exit 2, naming --yes', async () => {
  const r = await runSvc(['subscribers', 'delete', 'user-1'], { env: svc.env });
  expect(r.code).toBe(2);
  expect(r.stderr).toContain('--yes');
  expect(svc.stub.requests).toHaveLength(0);
});
