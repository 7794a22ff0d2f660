// svc workflow preview: the request it sends and the input it refuses before sending anything.
import { refusesInput, sendsRequest, stubbedService } from '../../helpers/command-test.js';

const svc = stubbedService();

sendsRequest(svc, [
  [
    'workflow preview',
    {
      argv: [
        'workflow',
        'preview',
        'welcome',
        'in-app',
        '--set',
        'name=Ada',
        '--subscriber',
        '{"firstName":"Ada"}',
        '--controls',
        '{"body":"Hi"}',
        '--context',
        'tenant=acme',
      ],
      method: 'POST',
      path: '/v2/workflows/welcome/step/in-app/preview',
      status: 201,
      body: { previewPayload: { payload: { name: 'Ada' }, subscriber: { firstName: 'Ada' }, context: { tenant: 'acme' } }, controlValues: { body: 'Hi' } },
      answer: { data: { previewPayloadExample: {}, result: { type: 'in_app', preview: { body: 'Hi' } } } },
    },
  ],
]);

refusesInput(svc, [[['workflow', 'preview', 'wf', 'step', '--controls', '"text"'], '--controls: expected a JSON object, got a string']]);
