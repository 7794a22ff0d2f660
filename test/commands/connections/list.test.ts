// svc connections list: the request it sends.
import { cursorPage, sendsRequest, useService } from '../../helpers/command-test.js';

const svc = useService();

sendsRequest(svc, [
  ['connections list', { argv: ['connections', 'list', '--subscriber', 'u1', '--limit', '100'], method: 'GET', path: '/v1/channel-connections', query: { subscriberId: ['u1'], limit: ['100'] }, answer: cursorPage }],
]);
