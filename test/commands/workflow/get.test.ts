// svc workflow get: the request it sends.
import { describe, expect, test } from 'vitest';
import { runSvc } from '../../helpers/run.js';
import { fixture, sendsRequest, stubbedService } from '../../helpers/command-test.js';

const svc = stubbedService();

sendsRequest(svc, [
  [
    'workflow get',
    {
      argv: ['workflow', 'get', 'welcome', '--environment-id', 'env1'],
      method: 'GET',
      path: '/v2/workflows/welcome',
      query: { environmentId: ['env1'] },
      answer: { data: fixture.workflow() },
    },
  ],
]);

describe('the steps table at 80 columns', () => {
  test('the issues column wraps inside the table: every line fits, every issue is there, continuation lines start under it', async () => {
    const issue = (issueType: string) => [{ issueType, message: `${issueType} message` }];
    const steps = [
      {
        stepId: 'send-welcome-email',
        _id: 'a1',
        type: 'email',
        name: 'Welcome email',
        issues: {
          controls: { subject: issue('MISSING_VALUE'), body: issue('ILLEGAL_VARIABLE_IN_CONTROL_VALUE'), editorType: issue('INVALID_EDITOR_TYPE') },
          integration: { email: issue('MISSING_INTEGRATION') },
        },
      },
      { stepId: 'in-app', _id: 'a2', type: 'in_app', name: 'Bell' },
    ];
    svc.stub.on('GET', '/v2/workflows/welcome', { body: { data: fixture.workflow({ steps }) } });
    const r = await runSvc(['workflow', 'get', 'welcome', '-o', 'table'], { env: svc.env, tty: true, columns: 80 });
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.split('\n');
    for (const line of lines) expect(line.length, r.stdout).toBeLessThanOrEqual(80);
    const at = lines.findIndex((l) => l.startsWith('#'));
    const column = lines[at]!.indexOf('ISSUES');
    const table = lines.slice(at + 1).filter(Boolean);
    expect(table.join(' ').replace(/\s+/g, ' ')).toContain('MISSING_VALUE, ILLEGAL_VARIABLE_IN_CONTROL_VALUE, INVALID_EDITOR_TYPE, MISSING_INTEGRATION');
    expect(table.length).toBeGreaterThan(2);
    for (const line of table.slice(1, -1)) expect(line.slice(0, column).trim(), line).toBe('');
    expect(table.at(-1)).toMatch(/^2\s+in-app\s+in_app\s+Bell\s+none$/);
  });
});
