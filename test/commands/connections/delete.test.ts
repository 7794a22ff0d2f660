// svc connections delete: the request it sends.
import { expect, test } from 'vitest';
import { refusesInput, sendsRequest, stubbedService } from '../../helpers/command-test.js';
import { runSvc } from '../../helpers/run.js';

const svc = stubbedService();

sendsRequest(svc, [
  ['connections delete', { argv: ['connections', 'delete', 'chconn_1', '--yes'], method: 'DELETE', path: '/v1/channel-connections/chconn_1', status: 204 }],
]);

// Without a terminal to confirm on, a delete needs --yes; nothing is sent.
refusesInput(svc, [[['connections', 'delete', 'chconn_1'], 'connections delete: deleting channel connection chconn_1 needs --yes']]);

test('a DELETE whose connection dropped is not sent again: exit 4, saying it may have happened', async () => {
  // Repeated, a delete that worked answers 404 (exit 5) and the user is told it did not exist.
  svc.stub.on('DELETE', '/v1/channel-connections/chconn_1', (_req, n) =>
    n === 1 ? { drop: true } : { status: 404, body: { statusCode: 404, message: 'not found' } },
  );
  const r = await runSvc(['connections', 'delete', 'chconn_1', '--yes', '--retries', '3'], { env: svc.env });
  expect(r.code, r.stderr).toBe(4);
  expect(svc.stub.requests).toHaveLength(1);
  expect(r.stderr).toContain('lost the connection');
  expect(r.stderr).toContain('may have carried out the DELETE');
  expect(r.stderr.trim().split('\n')).toHaveLength(1);
});

test('a DELETE that could not connect at all is retried', async () => {
  // Nothing reached the service: trying again cannot act twice.
  const r = await runSvc(['connections', 'delete', 'chconn_1', '-y', '--retries', '1'], { env: { ...svc.env, SVC_BASE_URL: 'http://127.0.0.1:9' } });
  expect(r.code).toBe(4);
  expect(r.stderr).toContain('could not reach 127.0.0.1:9');
  expect(r.stderr).toContain('(2 attempts)');
});
