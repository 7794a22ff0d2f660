// svc workflow delete: without a terminal it needs --yes; with it, one DELETE.
import { expect, test } from 'vitest';
import { sendsRequest, stubbedService } from '../../helpers/command-test.js';
import { runSvc } from '../../helpers/run.js';

const svc = stubbedService();

sendsRequest(svc, [
  ['workflow delete --yes', { argv: ['workflow', 'delete', 'old-welcome', '--yes'], method: 'DELETE', path: '/v2/workflows/old-welcome', status: 204 }],
]);

test('without a terminal and without --yes nothing is deleted: exit 2, naming --yes', async () => {
  const r = await runSvc(['workflow', 'delete', 'old-welcome'], { env: svc.env });
  expect(r.code).toBe(2);
  expect(r.stderr).toContain('--yes');
  expect(svc.stub.requests).toHaveLength(0);
});

test('an unknown workflow is exit 5', async () => {
  svc.stub.on('DELETE', '/v2/workflows/ghost', { status: 404, body: { statusCode: 404, message: 'Workflow cannot be found', ctx: { workflowId: 'ghost' } } });
  const r = await runSvc(['workflow', 'delete', 'ghost', '--yes'], { env: svc.env });
  expect(r.code).toBe(5);
});
