// svc subscribers create: only the flags given are sent; --fail-if-exists is the service's failIfExists.
import { fixture, refusesInput, sendsRequest, stubbedService } from '../../helpers/command-test.js';

const svc = stubbedService();
const answer = { data: fixture.subscriber({ _id: '6761f0c2a3b4c5d6e7f80912', subscriberId: 'user-1' }) };

sendsRequest(svc, [
  [
    'subscribers create with profile flags and data',
    {
      argv: ['subscribers', 'create', 'user-1', '--first-name', 'Ada', '--email', 'ada@example.com', '--data', '{"plan":"pro"}'],
      method: 'POST',
      path: '/v2/subscribers',
      body: { subscriberId: 'user-1', firstName: 'Ada', email: 'ada@example.com', data: { plan: 'pro' } },
      answer,
      status: 201,
    },
  ],
  [
    'subscribers create --fail-if-exists',
    {
      argv: ['subscribers', 'create', 'user-1', '--fail-if-exists'],
      method: 'POST',
      path: '/v2/subscribers',
      query: { failIfExists: ['true'] },
      body: { subscriberId: 'user-1' },
      answer,
      status: 201,
    },
  ],
]);

refusesInput(svc, [
  [['subscribers', 'create', 'user-1', '--data', '[1]'], '--data'],
  [['subscribers', 'create', 'user-1', '--data', '{bad'], '--data'],
]);
