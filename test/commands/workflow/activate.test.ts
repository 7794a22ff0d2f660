// svc workflow activate / deactivate: a PATCH of `active` alone.
import { fixture, sendsRequest, stubbedService } from '../../helpers/command-test.js';

const svc = stubbedService();
const answer = (active: boolean) => ({ data: fixture.workflow({ active, status: active ? 'ACTIVE' : 'INACTIVE' }) });

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
