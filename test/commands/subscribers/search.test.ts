// svc subscribers search: the request it sends and the input it refuses before sending anything.
import { cursorPage, refusesInput, sendsRequest, stubbedService } from '../../helpers/command-test.js';

const svc = stubbedService();

sendsRequest(svc, [
  [
    'subscribers search',
    {
      argv: [
        'subscribers',
        'search',
        '--email',
        'ada@',
        '--name',
        'Ada L',
        '--phone',
        '+1',
        '--subscriber-id',
        'u1',
        '--limit',
        '5',
        '--after',
        'c1',
        '--order-by',
        'updatedAt',
        '--order-direction',
        'ASC',
        '--include-cursor',
      ],
      method: 'GET',
      path: '/v2/subscribers',
      query: {
        email: ['ada@'],
        name: ['Ada L'],
        phone: ['+1'],
        subscriberId: ['u1'],
        limit: ['5'],
        after: ['c1'],
        orderBy: ['updatedAt'],
        orderDirection: ['ASC'],
        includeCursor: ['true'],
      },
      answer: cursorPage,
    },
  ],
]);

refusesInput(svc, [
  [['subscribers', 'search', '--after', 'a', '--before', 'b'], '--after and --before cannot be used together'],
  [['subscribers', 'search', '--limit', '0'], "--limit <n>' argument '0' is invalid"],
]);
