// svc connections delete: the request it sends.
import { sendsRequest, useService } from '../../helpers/command-test.js';

const svc = useService();

sendsRequest(svc, [
  ['connections delete', { argv: ['connections', 'delete', 'chconn_1'], method: 'DELETE', path: '/v1/channel-connections/chconn_1', status: 204 }],
]);
