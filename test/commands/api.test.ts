// svc api: the request it sends and the input it refuses before sending anything.
import { activityPage, refusesInput, sendsRequest, stubbedService } from '../helpers/command-test.js';

const svc = stubbedService();

sendsRequest(svc, [
  [
    'api GET with -f query fields',
    {
      argv: ['api', 'GET', '/v1/notifications?page=1', '-f', 'channels=email', '-f', 'channels=sms'],
      method: 'GET',
      path: '/v1/notifications',
      query: { page: ['1'], channels: ['email', 'sms'] },
      answer: activityPage,
    },
  ],
  [
    'api POST with --data and -f',
    {
      argv: ['api', 'post', '/v2/contexts', '--data', '{"type":"tenant"}', '-f', 'id=acme', '-f', 'data.n:=1'],
      method: 'POST',
      path: '/v2/contexts',
      status: 201,
      body: { type: 'tenant', id: 'acme', data: { n: 1 } },
      answer: { data: { type: 'tenant' } },
    },
  ],
]);

refusesInput(svc, [
  [['api', 'FETCH', '/v1/x'], "value 'FETCH' is invalid for argument 'method'. Expected one of: GET, POST, PUT, PATCH, DELETE"],
  [['api', 'GET', 'v1/x'], 'PATH: must start with "/"'],
  [['api', 'GET', '/v1/x', '--data', '{}'], '--data: GET requests have no body'],
]);
