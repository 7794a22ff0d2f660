// svc integrations create, list and delete; the HMAC state of the in-app integration where it is known.
import { describe, expect, test } from 'vitest';
import { fixture, ID, ID2, refusesInput, stubbedService } from '../../helpers/command-test.js';
import { runSvc } from '../../helpers/run.js';

const svc = stubbedService();
const hook = fixture.integration({
  _id: ID2,
  name: 'Chat-webhook',
  identifier: 'chat-webhook-abc',
  providerId: 'chat-webhook',
  channel: 'chat',
  active: true,
  primary: false,
});

describe('integrations create', () => {
  test('sends the flags as the body; prints the integration', async () => {
    svc.stub.on('POST', '/v1/integrations', { status: 201, body: { data: hook } });
    const r = await runSvc(
      [
        'integrations',
        'create',
        '--provider-id',
        'chat-webhook',
        '--channel',
        'chat',
        '--name',
        'Hook',
        '--identifier',
        'hook',
        '--credentials',
        '{"webhookUrl":"http://127.0.0.1:9/h"}',
        '--active',
        'true',
        '-o',
        'json',
      ],
      { env: svc.env },
    );
    expect(r.code, r.stderr).toBe(0);
    expect(svc.stub.requests[0]!.body).toEqual({
      providerId: 'chat-webhook',
      channel: 'chat',
      name: 'Hook',
      identifier: 'hook',
      credentials: { webhookUrl: 'http://127.0.0.1:9/h' },
      active: true,
    });
    expect(JSON.parse(r.stdout)).toMatchObject({ identifier: 'chat-webhook-abc' });
  });

  test('an inactive one says how to turn it on', async () => {
    svc.stub.on('POST', '/v1/integrations', { status: 201, body: { data: { ...hook, active: false } } });
    const r = await runSvc(['integrations', 'create', '--provider-id', 'chat-webhook', '--channel', 'chat'], { env: svc.env });
    expect(r.code, r.stderr).toBe(0);
    expect(svc.stub.requests[0]!.body).toEqual({ providerId: 'chat-webhook', channel: 'chat' });
    expect(r.stderr).toContain('--active true');
  });
});

refusesInput(svc, [
  [['integrations', 'create', '--channel', 'chat'], "required option '--provider-id <id>' not specified"],
  [['integrations', 'create', '--provider-id', 'chat-webhook'], "required option '--channel <channel>' not specified"],
  [['integrations', 'create', '--provider-id', 'chat-webhook', '--channel', 'fax'], "'fax' is invalid"],
  [['integrations', 'create', '--provider-id', 'chat-webhook', '--channel', 'chat', '--active', 'maybe'], "'maybe' is invalid"],
  [['integrations', 'create', '--provider-id', 'chat-webhook', '--channel', 'chat', '--credentials', '[1]'], '--credentials: expected a JSON object'],
  [['integrations', 'delete', 'hook'], 'needs --yes when there is no terminal'],
]);

describe('integrations list', () => {
  test('GET /v1/integrations, a table of every integration', async () => {
    svc.stub.on('GET', '/v1/integrations', { body: { data: [fixture.integration(), { ...hook, active: false }] } });
    const r = await runSvc(['integrations', 'list', '-o', 'table'], { env: svc.env, tty: true, columns: 80 });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^IDENTIFIER\s+ACTIVE\s+CHANNEL\s+PROVIDER/);
    // Whether each is active, and ids whole (they are what update and delete take).
    expect(r.stdout).toMatch(/^sendgrid\s+true\s+email\s+sendgrid\s+.*6761f0c2a3b4c5d6e7f80912$/m);
    expect(r.stdout).toMatch(/^chat-webhook-abc\s+false\s+chat\s+chat-webhook\s+.*6761f0c2a3b4c5d6e7f80913$/m);
    for (const line of r.stdout.split('\n')) expect(line.length).toBeLessThanOrEqual(80);
  });
});

describe('integrations delete', () => {
  test('by identifier: looked up among all integrations, then deleted', async () => {
    svc.stub.on('GET', '/v1/integrations', { body: { data: [fixture.integration(), { ...hook, identifier: 'hook', active: false }] } });
    svc.stub.on('DELETE', `/v1/integrations/${ID2}`, { body: { data: [fixture.integration()] } });
    const r = await runSvc(['integrations', 'delete', 'hook', '--yes'], { env: svc.env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('deleted integration hook');
    expect(JSON.parse(r.stdout)).toEqual([fixture.integration()]);
  });

  test('by _id: no look-up', async () => {
    svc.stub.on('DELETE', `/v1/integrations/${ID}`, { body: { data: [] } });
    const r = await runSvc(['integrations', 'delete', ID, '--yes', '-o', 'table'], { env: svc.env, tty: true });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('');
  });
});

describe('the HMAC state of the in-app integration', () => {
  const inApp = fixture.integration({ name: 'In-app', identifier: 'svc-in-app', providerId: 'svc', channel: 'in_app', primary: false });

  test('update --hmac on says it is on, and what the Inbox must send', async () => {
    svc.stub.on('GET', '/v1/integrations/active', { body: { data: [inApp] } });
    svc.stub.on('PUT', `/v1/integrations/${ID}`, { body: { data: inApp } });
    const r = await runSvc(['integrations', 'update', 'svc-in-app', '--hmac', 'on'], { env: svc.env });
    expect(r.code, r.stderr).toBe(0);
    expect(svc.stub.requests[1]!.body).toEqual({ credentials: { hmac: true } });
    expect(r.stderr).toContain('HMAC on for svc-in-app: the Inbox must send subscriberHash (see the README)');
  });

  test('active shows it from the credentials when the answer has them, and says so when it does not', async () => {
    svc.stub.on('GET', '/v1/integrations/active', {
      body: { data: [{ ...inApp, credentials: { hmac: false } }, { ...inApp, _id: ID2, identifier: 'other-in-app' }, fixture.integration()] },
    });
    const r = await runSvc(['integrations', 'active'], { env: svc.env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('HMAC off for svc-in-app');
    expect(r.stderr).toContain('HMAC of other-in-app: not shown to an API key');
    expect(r.stderr).not.toContain('sendgrid');
  });
});
