// svc workflow preview: the request it sends and the input it refuses before sending anything.
import { describe, expect, test } from 'vitest';
import { refusesInput, sendsRequest, stubbedService } from '../../helpers/command-test.js';
import { runSvc } from '../../helpers/run.js';

const svc = stubbedService();

sendsRequest(svc, [
  [
    'workflow preview',
    {
      argv: [
        'workflow',
        'preview',
        'welcome',
        'in-app',
        '--set',
        'name=Ada',
        '--subscriber',
        '{"firstName":"Ada"}',
        '--controls',
        '{"body":"Hi"}',
        '--context',
        'tenant=acme',
      ],
      method: 'POST',
      path: '/v2/workflows/welcome/step/in-app/preview',
      status: 201,
      body: { previewPayload: { payload: { name: 'Ada' }, subscriber: { firstName: 'Ada' }, context: { tenant: 'acme' } }, controlValues: { body: 'Hi' } },
      answer: { data: { previewPayloadExample: {}, result: { type: 'in_app', preview: { body: 'Hi' } } } },
    },
  ],
]);

refusesInput(svc, [[['workflow', 'preview', 'wf', 'step', '--controls', '"text"'], '--controls: expected a JSON object, got a string']]);

describe('a table of the preview', () => {
  const answer = (type: string, preview: Record<string, unknown>) => ({
    status: 201,
    body: { data: { previewPayloadExample: {}, result: { type, preview } } },
  });

  // An sms (or chat) preview is a body only: the table once printed a stray `value  {}` row before it.
  test('an sms step: the heading, then the body, and no empty record row', async () => {
    svc.stub.on('POST', '/v2/workflows/otp/step/sms/preview', answer('sms', { body: 'Your code is 1234.' }));
    const r = await runSvc(['workflow', 'preview', 'otp', 'sms', '--set', 'code=1234', '-o', 'table'], { env: svc.env, tty: true });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('Preview sms\nbody:\n  Your code is 1234.\n');
  });

  test('an in_app step keeps its short fields in the table', async () => {
    svc.stub.on('POST', '/v2/workflows/welcome/step/in-app/preview', answer('in_app', { subject: 'Welcome', body: 'Hi Ada' }));
    const r = await runSvc(['workflow', 'preview', 'welcome', 'in-app', '-o', 'table'], { env: svc.env, tty: true });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^Preview in_app\nsubject\s+Welcome\nbody:\n {2}Hi Ada\n$/);
  });
});
