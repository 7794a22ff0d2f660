// svc integrations active: the request it sends and the input it refuses before sending anything.
import { refusesInput, sendsRequest, stubbedService } from '../../helpers/command-test.js';

const svc = stubbedService();

sendsRequest(svc, [['integrations active', { argv: ['integrations', 'active'], method: 'GET', path: '/v1/integrations/active', answer: { data: [] } }]]);

refusesInput(svc, [
  [['--retries', '11', 'integrations', 'active'], "--retries <n>' argument '11' is invalid"],
  [['--output', 'xml', 'integrations', 'active'], "argument 'xml' is invalid"],
  [['--fields', ',', 'integrations', 'active'], "--fields <paths>' argument ',' is invalid"],
]);
