// svc messages list: the request it sends and the input it refuses before sending anything.
import { activityPage, refusesInput, sendsRequest, stubbedService } from '../../helpers/command-test.js';

const svc = stubbedService();

sendsRequest(svc, [
  [
    'messages list',
    {
      argv: ['messages', 'list', '--subscriber', 'u1', '--channel', 'in_app', '--transaction-id', 't1', '--page', '1', '--limit', '20'],
      method: 'GET',
      path: '/v1/messages',
      query: { subscriberId: ['u1'], channel: ['in_app'], transactionId: ['t1'], page: ['1'], limit: ['20'] },
      answer: activityPage,
    },
  ],
]);

refusesInput(svc, [[['messages', 'list', '--limit', '0'], "--limit <n>' argument '0' is invalid"]]);
