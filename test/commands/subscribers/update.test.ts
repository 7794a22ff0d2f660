// svc subscribers update: a PATCH of the fields given; an empty value clears one (null).
import { fixture, refusesInput, sendsRequest, stubbedService } from '../../helpers/command-test.js';

const svc = stubbedService();
const answer = { data: fixture.subscriber({ _id: '6761f0c2a3b4c5d6e7f80912', subscriberId: 'user-1' }) };

sendsRequest(svc, [
  [
    'subscribers update',
    {
      argv: ['subscribers', 'update', 'user-1', '--last-name', 'Lovelace', '--phone', ''],
      method: 'PATCH',
      path: '/v2/subscribers/user-1',
      body: { lastName: 'Lovelace', phone: null },
      answer,
    },
  ],
]);

refusesInput(svc, [[['subscribers', 'update', 'user-1'], 'nothing to update']]);
