// svc connections update: the request it sends.
import { fixture, sendsRequest, stubbedService } from '../../helpers/command-test.js';

const svc = stubbedService();

sendsRequest(svc, [
  [
    'connections update',
    {
      argv: ['connections', 'update', 'chconn_1', '--workspace-id', 'T2', '--access-token', 'tok-abcdefghijkl'],
      method: 'PATCH',
      path: '/v1/channel-connections/chconn_1',
      body: { workspace: { id: 'T2' }, auth: { accessToken: 'tok-abcdefghijkl' } },
      answer: { data: fixture.connection() },
    },
  ],
]);
