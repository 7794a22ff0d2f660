// svc workflow get: the request it sends.
import { sendsRequest, useService } from '../../helpers/command-test.js';

const svc = useService();

sendsRequest(svc, [
  ['workflow get', { argv: ['workflow', 'get', 'welcome', '--environment-id', 'env1'], method: 'GET', path: '/v2/workflows/welcome', query: { environmentId: ['env1'] }, answer: { data: { workflowId: 'welcome', steps: [] } } }],
]);
