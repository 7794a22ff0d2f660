// svc connections get: the request it sends.
import { fixture, sendsRequest, stubbedService } from '../../helpers/command-test.js';

const svc = stubbedService();

sendsRequest(svc, [
  [
    'connections get',
    { argv: ['connections', 'get', 'chconn_1'], method: 'GET', path: '/v1/channel-connections/chconn_1', answer: { data: fixture.connection() } },
  ],
]);
