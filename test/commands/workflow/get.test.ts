// svc workflow get: the request it sends.
import { fixture, sendsRequest, stubbedService } from '../../helpers/command-test.js';

const svc = stubbedService();

sendsRequest(svc, [
  [
    'workflow get',
    {
      argv: ['workflow', 'get', 'welcome', '--environment-id', 'env1'],
      method: 'GET',
      path: '/v2/workflows/welcome',
      query: { environmentId: ['env1'] },
      answer: { data: fixture.workflow() },
    },
  ],
]);
