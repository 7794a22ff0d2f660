// svc connections create: the request it sends and the input it refuses before sending anything.
import { fixture, refusesInput, sendsRequest, stubbedService } from '../../helpers/command-test.js';

const svc = stubbedService();

sendsRequest(svc, [
  [
    'connections create (subscriber mode, token on stdin)',
    {
      argv: [
        'connections',
        'create',
        '--integration',
        'slack',
        '--workspace-id',
        'T1',
        '--workspace-name',
        'Acme',
        '--subscriber',
        'u1',
        '--access-token-stdin',
        '--identifier',
        'c-1',
      ],
      stdin: 'xoxb-secret-token\n',
      method: 'POST',
      path: '/v1/channel-connections',
      status: 201,
      body: {
        integrationIdentifier: 'slack',
        workspace: { id: 'T1', name: 'Acme' },
        auth: { accessToken: 'xoxb-secret-token' },
        subscriberId: 'u1',
        identifier: 'c-1',
      },
      answer: { data: fixture.connection({ identifier: 'c-1' }) },
    },
  ],
  [
    'connections create (shared mode)',
    {
      argv: [
        'connections',
        'create',
        '--integration',
        'slack',
        '--workspace-id',
        'T1',
        '--mode',
        'shared',
        '--context',
        'tenant=acme',
        '--access-token',
        'tok-123456789012',
      ],
      method: 'POST',
      path: '/v1/channel-connections',
      status: 201,
      body: {
        integrationIdentifier: 'slack',
        workspace: { id: 'T1' },
        auth: { accessToken: 'tok-123456789012' },
        connectionMode: 'shared',
        context: { tenant: 'acme' },
      },
      answer: { data: fixture.connection({ identifier: 'c-2' }) },
    },
  ],
]);

refusesInput(svc, [
  [['connections', 'create', '--integration', 'slack', '--workspace-id', 'T1', '--access-token', 't'], 'missing --subscriber'],
  [['connections', 'create', '--integration', 'slack', '--workspace-id', 'T1', '--mode', 'shared', '--access-token', 't'], '--mode shared needs --context'],
  [['connections', 'create', '--integration', 'slack', '--workspace-id', 'T1', '--subscriber', 'u1'], 'missing access token'],
  [
    ['connections', 'create', '--integration', 'slack', '--workspace-id', 'T1', '--subscriber', 'u1', '--mode', 'team', '--access-token', 't'],
    "--mode <mode>' argument 'team' is invalid",
  ],
]);
