// svc workflow activate / deactivate: a PATCH of `active` alone.
import { sendsRequest, stubbedService } from '../../helpers/command-test.js';

const svc = stubbedService();
const answer = (active: boolean) => ({ data: { workflowId: 'welcome', active, status: active ? 'ACTIVE' : 'INACTIVE', steps: [] } });

sendsRequest(svc, [
  [
    'workflow activate',
    { argv: ['workflow', 'activate', 'welcome'], method: 'PATCH', path: '/v2/workflows/welcome', body: { active: true }, answer: answer(true) },
  ],
  [
    'workflow deactivate',
    { argv: ['workflow', 'deactivate', 'welcome'], method: 'PATCH', path: '/v2/workflows/welcome', body: { active: false }, answer: answer(false) },
  ],
]);
