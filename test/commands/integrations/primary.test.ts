// svc integrations primary: the request it sends.
import { ID, fixture, sendsRequest, stubbedService } from '../../helpers/command-test.js';

const svc = stubbedService();

sendsRequest(svc, [
  [
    'integrations primary',
    { argv: ['integrations', 'primary', ID], method: 'POST', path: `/v1/integrations/${ID}/set-primary`, answer: { data: fixture.integration({ _id: ID }) } },
  ],
]);
