// svc integrations primary: the request it sends.
import { expect, test } from 'vitest';
import { ID, fixture, sendsRequest, stubbedService } from '../../helpers/command-test.js';
import { runSvc } from '../../helpers/run.js';

const svc = stubbedService();

sendsRequest(svc, [
  [
    'integrations primary',
    { argv: ['integrations', 'primary', ID], method: 'POST', path: `/v1/integrations/${ID}/set-primary`, answer: { data: fixture.integration({ _id: ID }) } },
  ],
]);

test('--dry-run with an identifier prints the set-primary request, naming the _id it would look up; nothing sent', async () => {
  const r = await runSvc(['integrations', 'primary', 'postmark', '--dry-run'], { env: svc.env });
  expect(r.code, r.stderr).toBe(0);
  expect(JSON.parse(r.stdout)).toMatchObject({ method: 'POST', url: `${svc.stub.url}/v1/integrations/INTEGRATION_ID/set-primary` });
  expect(r.stderr).toContain('GET /v1/integrations/active');
  expect(svc.stub.requests).toHaveLength(0);
});
