// svc topics add / remove: a subscriber the service could not add or remove is named with its reason,
// and the command fails; the answer is never dumped raw at a terminal.
import { describe, expect, test } from 'vitest';
import { stubbedService } from '../../helpers/command-test.js';
import { runSvc } from '../../helpers/run.js';
import { subscription } from './fixtures.js';

const svc = stubbedService();

const partial = {
  data: [subscription(1), subscription(2)],
  meta: { totalCount: 3, successful: 2, failed: 1 },
  errors: [{ subscriberId: 'nobody', code: 'SUBSCRIBER_NOT_FOUND', message: "Subscriber with id 'nobody' could not be found" }],
};

describe.each([
  ['add', 'POST', 'added', 'not added to topic ops'],
  ['remove', 'DELETE', 'removed', 'not removed from topic ops'],
] as const)('topics %s', (verb, method, done, failed) => {
  test('a subscriber that failed: exit 5 naming it and why; the table shows what succeeded', async () => {
    svc.stub.on(method, '/v2/topics/ops/subscriptions', { body: partial });
    const r = await runSvc(['topics', verb, 'ops', 'user-1', 'user-2', 'nobody', '-o', 'table'], { env: svc.env, tty: true, columns: 80 });
    expect(r.code).toBe(5);
    expect(svc.stub.requests[0]!.body).toEqual({ subscriberIds: ['user-1', 'user-2', 'nobody'] });
    expect(r.stderr).toContain(`${done} 2 subscribers`);
    expect(r.stderr).toMatch(new RegExp(`^error: 1 subscriber ${failed}: nobody \\(Subscriber with id 'nobody' could not be found\\)$`, 'm'));
    // The table of subscriptions, not the answer's envelope.
    expect(r.stdout).toMatch(/user-1/);
    expect(r.stdout).not.toMatch(/meta|SUBSCRIBER_NOT_FOUND|errors/);
    for (const line of r.stdout.split('\n')) expect(line.length).toBeLessThanOrEqual(80);
  });

  test('JSON keeps the whole answer on stdout and the error object on stderr', async () => {
    svc.stub.on(method, '/v2/topics/ops/subscriptions', { body: partial });
    const r = await runSvc(['topics', verb, 'ops', 'user-1', 'user-2', 'nobody', '-o', 'json'], { env: svc.env });
    expect(r.code).toBe(5);
    expect(JSON.parse(r.stdout)).toEqual(partial);
    const err = JSON.parse(r.stderr.trim().split('\n').pop()!).error;
    expect(err).toMatchObject({ code: 'not_found', items: [{ item: 'nobody', code: 'SUBSCRIBER_NOT_FOUND' }] });
  });

  test('a failure that is not "not found" is exit 6', async () => {
    svc.stub.on(method, '/v2/topics/ops/subscriptions', {
      body: { data: [], meta: { totalCount: 1, successful: 0, failed: 1 }, errors: [{ subscriberId: 'x', code: 'LIMIT', message: 'Topic is full' }] },
    });
    const r = await runSvc(['topics', verb, 'ops', 'x'], { env: svc.env });
    expect(r.code).toBe(6);
    expect(r.stderr).toContain('x (Topic is full)');
  });

  test('all done: exit 0', async () => {
    svc.stub.on(method, '/v2/topics/ops/subscriptions', { body: { data: [subscription(1)], meta: { totalCount: 1, successful: 1, failed: 0 }, errors: [] } });
    const r = await runSvc(['topics', verb, 'ops', 'user-1'], { env: svc.env });
    expect(r.code, r.stderr).toBe(0);
  });
});
