// svc endpoints get: the request it sends.
import { fixture, refusesInput, sendsRequest, stubbedService } from '../../helpers/command-test.js';

const svc = stubbedService();

sendsRequest(svc, [
  [
    'endpoints get',
    {
      argv: ['endpoints', 'get', 'chendp_abc123def456'],
      method: 'GET',
      path: '/v1/channel-endpoints/chendp_abc123def456',
      answer: { data: fixture.endpoint({ identifier: 'chendp_abc123def456' }) },
    },
  ],
]);

refusesInput(svc, [[['endpoints', 'get', ''], 'IDENTIFIER']]);
