// svc endpoints delete: the request it sends, and --yes without a terminal.
import { refusesInput, sendsRequest, stubbedService } from '../../helpers/command-test.js';

const svc = stubbedService();

sendsRequest(svc, [
  ['endpoints delete --yes', { argv: ['endpoints', 'delete', 'chendp_1', '--yes'], method: 'DELETE', path: '/v1/channel-endpoints/chendp_1', status: 204 }],
]);

refusesInput(svc, [[['endpoints', 'delete', 'chendp_1'], 'endpoints delete: deleting channel endpoint chendp_1 needs --yes']]);
