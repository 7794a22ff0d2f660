// svc endpoints create: the request it sends and the input it refuses before sending anything.
import { fixture, refusesInput, sendsRequest, stubbedService } from '../../helpers/command-test.js';

const svc = stubbedService();

sendsRequest(svc, [
  [
    'endpoints create',
    {
      argv: ['endpoints', 'create', '--subscriber', 'u1', '--integration', 'twilio', '--type', 'phone', '--endpoint', '{"phoneNumber":"+15551234567"}'],
      method: 'POST',
      path: '/v1/channel-endpoints',
      status: 201,
      body: { subscriberId: 'u1', integrationIdentifier: 'twilio', type: 'phone', endpoint: { phoneNumber: '+15551234567' } },
      answer: { data: fixture.endpoint() },
    },
  ],
]);

refusesInput(svc, [
  [
    ['endpoints', 'create', '--subscriber', 'u1', '--integration', 'i', '--type', 'phone', '--endpoint', '{"phoneNumber":"555"}'],
    '--endpoint phoneNumber: must be a phone number in E.164 format',
  ],
]);
