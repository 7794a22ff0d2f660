// Small factories of valid records for the engine tests.
import type { Integration, Subscriber } from '../../../src/api/schemas/resources.js';
import type { WorkflowDefinition } from '../../../src/server/engine/types.js';

export const ENV = '65a000000000000000000001';
export const ORG = '65a000000000000000000002';

export function integration(overrides: Partial<Integration> & Pick<Integration, 'channel' | 'providerId'>): Integration {
  return {
    _id: `65b${Math.random().toString(16).slice(2, 23).padEnd(21, '0')}`,
    _environmentId: ENV,
    _organizationId: ORG,
    name: overrides.providerId,
    identifier: `${overrides.providerId}-${Math.random().toString(36).slice(2, 7)}`,
    active: true,
    deleted: false,
    primary: false,
    ...overrides,
  };
}

/** One active integration per channel, as the demo environment has. */
export function allChannels(): Integration[] {
  return [
    integration({ channel: 'in_app', providerId: 'svc' }),
    integration({ channel: 'email', providerId: 'sendgrid', primary: true }),
    integration({ channel: 'sms', providerId: 'twilio', primary: true }),
    integration({ channel: 'chat', providerId: 'slack' }),
    integration({ channel: 'push', providerId: 'fcm' }),
  ];
}

export function subscriber(overrides: Partial<Subscriber> = {}): Subscriber {
  return {
    subscriberId: 'user-1',
    firstName: 'Ada',
    lastName: 'Lovelace',
    email: 'ada@example.com',
    _organizationId: ORG,
    _environmentId: ENV,
    deleted: false,
    createdAt: '2025-01-01T00:00:00.000Z',
    updatedAt: '2025-01-01T00:00:00.000Z',
    ...overrides,
  };
}

export function workflow(overrides: Partial<WorkflowDefinition> = {}): WorkflowDefinition {
  return {
    workflowId: 'welcome',
    name: 'Welcome',
    active: true,
    steps: [
      { name: 'In-App', type: 'in_app', controlValues: { subject: 'Hi {{ subscriber.firstName }}', body: 'Welcome to {{ payload.product }}' } },
      { name: 'Email', type: 'email', controlValues: { subject: 'Welcome, {{ subscriber.firstName }}', body: '<p>{{ payload.product }}</p>' } },
    ],
    ...overrides,
  };
}
