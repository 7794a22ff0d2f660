// svc contexts create: the request it sends and the input it refuses before sending anything.
import { refusesInput, sendsRequest, stubbedService } from '../../helpers/command-test.js';

const svc = stubbedService();

sendsRequest(svc, [
  [
    'contexts create',
    {
      argv: ['contexts', 'create', 'tenant', 'acme', '--data', '{"plan":"pro"}'],
      method: 'POST',
      path: '/v2/contexts',
      status: 201,
      body: { type: 'tenant', id: 'acme', data: { plan: 'pro' } },
      answer: { data: { type: 'tenant', id: 'acme', data: { plan: 'pro' }, createdAt: 'x', updatedAt: 'x' } },
    },
  ],
]);

refusesInput(svc, [
  [['contexts', 'create', 'ten ant', 'acme'], 'TYPE: must contain only letters, digits'],
  [['contexts', 'create', 'tenant', 'x'.repeat(101)], 'ID: must be shorter than or equal to 100 characters'],
  [['contexts', 'create', 'tenant', 'acme', '--data', '{"a":1,}'], '--data: invalid JSON at line 1, column 8'],
  [['--idempotency-key', 'k'.repeat(256), 'contexts', 'create', 'a', 'b'], "--idempotency-key <key>' argument"],
]);
