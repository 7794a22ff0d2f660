// svc subscribers online: the request it sends and the input it refuses before sending anything.
import { fixture, refusesInput, sendsRequest, stubbedService } from '../../helpers/command-test.js';

const svc = stubbedService();

sendsRequest(svc, [
  [
    'subscribers online false',
    {
      argv: ['subscribers', 'online', 'user 1', 'false'],
      method: 'PATCH',
      path: '/v1/subscribers/user%201/online-status',
      body: { isOnline: false },
      answer: { data: fixture.subscriber({ subscriberId: 'user 1' }) },
    },
  ],
]);

refusesInput(svc, [[['subscribers', 'online', 'u1', 'maybe'], "value 'maybe' is invalid for argument 'online'. Expected true or false"]]);
