// The command tests' answers are in the documented shapes: each fixture parses with the schema the
// client checks answers against (a wrong fixture would otherwise show only as a warning).
import { expect, test } from 'vitest';
import { ChannelConnection, ChannelEndpoint, Integration, Message, Subscriber } from '../../src/api/schemas/resources.js';
import { Workflow } from '../../src/api/schemas/workflow.js';
import { fixture, ID } from '../helpers/command-test.js';

test.each([
  ['subscriber', Subscriber, fixture.subscriber()],
  ['workflow', Workflow, fixture.workflow()],
  ['message', Message, fixture.message(ID)],
  ['integration', Integration, fixture.integration()],
  ['connection', ChannelConnection, fixture.connection()],
  ['endpoint', ChannelEndpoint, fixture.endpoint()],
] as const)('the %s fixture is a valid answer', (_name, schema, value) => {
  const r = schema.safeParse(value);
  expect(r.success ? [] : r.error.issues).toEqual([]);
});
