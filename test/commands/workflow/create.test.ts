// svc workflow create: the request it sends and the input it refuses before sending anything.
import { expect, test } from 'vitest';
import { fixture, refusesInput, stubbedService } from '../../helpers/command-test.js';

const made = (workflowId: string) => fixture.workflow({ workflowId });
import { runSvc } from '../../helpers/run.js';

const svc = stubbedService();

refusesInput(svc, [[['workflow', 'create', '--data', '{"name":"x","steps":[]}'], '--data workflowId: is required']]);

const definition = '{"name":"Walk","workflowId":"walk-wf","steps":[]}';

test('POST /v2/workflows with the definition; the workflow as answered on stdout, nothing on stderr', async () => {
  svc.stub.on('POST', '/v2/workflows', { status: 201, body: { data: made('walk-wf') } });
  const r = await runSvc(['workflow', 'create', '--data', definition, '-o', 'json'], { env: svc.env });
  expect(r.code, r.stderr).toBe(0);
  expect(svc.stub.requests[0]).toMatchObject({ method: 'POST', path: '/v2/workflows', body: { name: 'Walk', workflowId: 'walk-wf', steps: [] } });
  expect(JSON.parse(r.stdout).workflowId).toBe('walk-wf');
  expect(r.stderr).toBe('');
});

test('a workflowId already taken: the service made another with a suffix, and a warning says so', async () => {
  svc.stub.on('POST', '/v2/workflows', { status: 201, body: { data: made('walk-wf-a5oojv') } });
  const r = await runSvc(['workflow', 'create', '--data', definition, '-o', 'json'], { env: svc.env });
  expect(r.code, r.stderr).toBe(0);
  expect(JSON.parse(r.stdout).workflowId).toBe('walk-wf-a5oojv');
  expect(r.stderr.trim()).toBe(
    "warning: workflowId 'walk-wf' was already taken: the service created 'walk-wf-a5oojv' (to change the existing one: svc workflow update walk-wf --data FILE)",
  );
});
