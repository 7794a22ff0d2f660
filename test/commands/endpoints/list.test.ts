// svc endpoints list: the request it sends and the input it refuses before sending anything.
import { cursorPage, refusesInput, sendsRequest, stubbedService } from '../../helpers/command-test.js';

const svc = stubbedService();

sendsRequest(svc, [
  [
    'endpoints list',
    {
      argv: [
        'endpoints',
        'list',
        '--subscriber',
        'u1',
        '--context',
        'tenant:acme',
        '--context',
        'app=web',
        '--channel',
        'chat',
        '--provider',
        'slack',
        '--integration',
        'slack-1',
        '--connection',
        'chconn_1',
        '--limit',
        '100',
        '--before',
        'x',
      ],
      method: 'GET',
      path: '/v1/channel-endpoints',
      query: {
        subscriberId: ['u1'],
        contextKeys: ['tenant:acme', 'app:web'],
        channel: ['chat'],
        providerId: ['slack'],
        integrationIdentifier: ['slack-1'],
        connectionIdentifier: ['chconn_1'],
        limit: ['100'],
        before: ['x'],
      },
      answer: cursorPage,
    },
  ],
]);

refusesInput(svc, [
  [['endpoints', 'list', '--limit', '101'], "--limit <n>' argument '101' is invalid"],
  [['endpoints', 'list', '--provider', 'pigeon'], "--provider <id>' argument 'pigeon' is invalid"],
]);
