// svc workflow update: a PUT of the whole definition from --data, checked before it is sent.
import { fixture, refusesInput, sendsRequest, stubbedService } from '../../helpers/command-test.js';

const svc = stubbedService();
const definition = { name: 'Welcome v2', steps: [{ name: 'In-app', type: 'in_app', controlValues: { body: 'Hi {{subscriber.firstName}}' } }] };

sendsRequest(svc, [
  [
    'workflow update',
    {
      argv: ['workflow', 'update', 'welcome', '--data', JSON.stringify(definition)],
      method: 'PUT',
      path: '/v2/workflows/welcome',
      body: definition,
      answer: { data: fixture.workflow({ name: 'Welcome v2' }) },
    },
  ],
]);

refusesInput(svc, [
  [['workflow', 'update', 'welcome', '--data', '{"steps":[]}'], '--data name'],
  [['workflow', 'update', 'welcome'], '--data'],
]);
