// Secrets never reach any output. Two layers: every scenario below asserts it directly, and the suite's
// audit (test/helpers/audit.ts, checked in the global teardown) searches every output of every test
// for every key and token in play. The first describe block proves that the audit is live in this run
// and that its check finds a leak.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUDIT_ENV, auditEnabled, checkAudit, secretsInBody } from '../helpers/audit.js';
import { runSvc, tempConfigDir } from '../helpers/run.js';
import { startStub, type Stub } from '../helpers/stub.js';

const KEY = 'sk_secret_audit_7f3c9e21b4d8';
const TOKEN = 'xoxb-secret-token-5d1e8a2c';
const STDIN_TOKEN = 'xoxb-stdin-token-9b7f3a11';
const now = () => new Date().toISOString();

describe('the secrets audit', () => {
  it('is live in this run: runSvc records its secrets and its output', async () => {
    expect(auditEnabled(), `${AUDIT_ENV} is set by the global setup`).toBe(true);
    const marker = `sk_audit_marker_${process.pid}_${Date.now()}`;
    await runSvc(['integrations', 'active', '--dry-run'], { env: { SVC_API_KEY: marker, SVC_BASE_URL: 'http://127.0.0.1:9' } });
    const records = readFileSync(join(process.env[AUDIT_ENV]!, `${process.pid}.ndjson`), 'utf8');
    expect(records).toContain(`"value":"${marker}"`);
    expect(records).toMatch(/"t":"out","source":"runSvc integrations active --dry-run"/);
  });

  it('finds a secret in any output, and skips outputs made with --show-secrets', () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-audit-check-'));
    const rec = (o: unknown) => JSON.stringify(o);
    writeFileSync(
      join(dir, '1.ndjson'),
      [
        rec({ t: 'secret', value: 'sk_planted_0123456789', from: 'test' }),
        rec({ t: 'out', source: 'clean', text: 'key sk_…6789' }),
        rec({ t: 'out', source: 'shown', text: 'sk_planted_0123456789', allowed: true }),
        '{"t":"out","source":"cut short by a kill',
      ].join('\n'),
    );
    writeFileSync(join(dir, '2.ndjson'), `${rec({ t: 'out', source: 'leaky', text: 'error: bad key sk_planted_0123456789 (401)' })}\n`);
    const report = checkAudit(dir);
    expect(report).toMatchObject({ outputs: 2, allowedOutputs: 1, secrets: 1 });
    expect(report.leaks).toEqual([expect.objectContaining({ source: 'leaky', secretFrom: 'test' })]);
    expect(JSON.stringify(report.leaks)).not.toContain('sk_planted_0123456789');
  });

  it('knows which answer fields are secret', () => {
    expect(secretsInBody({ data: { auth: { accessToken: 'a' }, credentials: { apiKey: 'b', nested: ['c'] }, name: 'n', token: 'd' } }).sort()).toEqual([
      'a',
      'b',
      'c',
      'd',
    ]);
  });
});

describe('no output shows the key or a token', () => {
  let stub: Stub;
  let env: Record<string, string>;
  const connection = (token: string) => ({
    data: {
      identifier: 'chconn_abc123def456',
      channel: 'chat',
      providerId: 'slack',
      integrationIdentifier: 'slack',
      subscriberId: 'u1',
      contextKeys: [],
      workspace: { id: 'T1' },
      auth: { accessToken: token },
      createdAt: now(),
      updatedAt: now(),
    },
  });
  const error = (status: number, message: string, extra: Record<string, unknown> = {}) => ({
    statusCode: status,
    timestamp: now(),
    path: '/',
    message,
    ...extra,
  });

  beforeAll(async () => {
    stub = await startStub();
    env = { SVC_API_KEY: KEY, SVC_BASE_URL: stub.url };
    stub.on('POST', '/v1/channel-connections', (req) => {
      const token = (req.body as { auth?: { accessToken?: string } }).auth?.accessToken ?? '';
      // A service that echoes the offending value in its validation error, as the real one does.
      if (token.includes('reject')) {
        return {
          status: 422,
          body: error(422, 'Validation Error', { errors: { 'auth.accessToken': { messages: ['accessToken is invalid'], value: token } } }),
        };
      }
      return { status: 201, body: connection(token) };
    });
    stub.on('PATCH', '/v1/channel-connections/chconn_abc123def456', (req) => ({
      body: connection((req.body as { auth: { accessToken: string } }).auth.accessToken),
    }));
    stub.on('GET', '/v1/channel-connections/chconn_abc123def456', { body: connection(TOKEN) });
    // A service (or a proxy in front of it) that quotes the key it refused.
    stub.on('GET', '/v1/integrations/active', { status: 401, body: error(401, `API Key ${KEY} not found`) });
    stub.on('GET', '/v2/workflows/echo', { body: { data: { workflowId: 'echo', note: `created with key ${KEY}`, steps: [] } } });
    stub.on('GET', '/v1/subscribers/echo', { status: 500, headers: { 'content-type': 'text/plain' }, body: `upstream said: Authorization: ApiKey ${KEY}` });
    stub.on('GET', '/v1/subscribers/echo-json', { status: 500, body: `upstream said: Authorization: ApiKey ${KEY}` });
    // `svc profile show` also asks the service for the application identifier (an extra it may lack).
    stub.on('GET', '/v1/environments/me', {
      body: { data: { _id: '6650a0b1c2d3e4f5a6b7c8d9', name: 'Development', _organizationId: '6650a0b1c2d3e4f5a6b7c8da', identifier: 'app_x' } },
    });
  });
  afterAll(() => stub.close());

  const rejected = 'xoxb-reject-me-4c2a9d77';
  const cases: [string, string[], { stdin?: string; secret: string; code: number }][] = [
    [
      'connections create --debug (token in the request and the answer)',
      ['connections', 'create', '--integration', 'slack', '--workspace-id', 'T1', '--subscriber', 'u1', '--access-token', TOKEN, '--debug'],
      { secret: TOKEN, code: 0 },
    ],
    [
      'connections create, token on stdin, -o yaml --debug',
      ['connections', 'create', '--integration', 'slack', '--workspace-id', 'T1', '--subscriber', 'u1', '--access-token-stdin', '-o', 'yaml', '--debug'],
      { stdin: STDIN_TOKEN, secret: STDIN_TOKEN, code: 0 },
    ],
    [
      'connections create --dry-run',
      ['connections', 'create', '--integration', 'slack', '--workspace-id', 'T1', '--subscriber', 'u1', '--access-token', TOKEN, '--dry-run'],
      { secret: TOKEN, code: 0 },
    ],
    [
      'connections update --dry-run --debug',
      ['connections', 'update', 'chconn_abc123def456', '--workspace-id', 'T1', '--access-token', TOKEN, '--dry-run', '--debug'],
      { secret: TOKEN, code: 0 },
    ],
    [
      'connections update -o table',
      ['connections', 'update', 'chconn_abc123def456', '--workspace-id', 'T1', '--access-token', TOKEN, '-o', 'table'],
      { secret: TOKEN, code: 0 },
    ],
    ['connections get -o ndjson', ['connections', 'get', 'chconn_abc123def456', '-o', 'ndjson'], { secret: TOKEN, code: 0 }],
    [
      'a validation error that quotes the token',
      ['connections', 'create', '--integration', 'slack', '--workspace-id', 'T1', '--subscriber', 'u1', '--access-token', rejected],
      { secret: rejected, code: 6 },
    ],
    [
      'the same error with -o json',
      ['connections', 'create', '--integration', 'slack', '--workspace-id', 'T1', '--subscriber', 'u1', '--access-token', rejected, '-o', 'json'],
      { secret: rejected, code: 6 },
    ],
    [
      'the same error with --debug',
      ['connections', 'create', '--integration', 'slack', '--workspace-id', 'T1', '--subscriber', 'u1', '--access-token', rejected, '--debug'],
      { secret: rejected, code: 6 },
    ],
    ['a 401 that quotes the key', ['integrations', 'active', '--retries', '0'], { secret: KEY, code: 3 }],
    ['a 401 that quotes the key, -o json --debug', ['integrations', 'active', '--retries', '0', '-o', 'json', '--debug'], { secret: KEY, code: 3 }],
    ['an answer that quotes the key', ['workflow', 'get', 'echo'], { secret: KEY, code: 0 }],
    ['an answer that quotes the key, -o table', ['workflow', 'get', 'echo', '-o', 'table'], { secret: KEY, code: 0 }],
    ['a 500 text body that quotes the header', ['api', 'GET', '/v1/subscribers/echo', '--retries', '0'], { secret: KEY, code: 1 }],
    [
      'a 500 "JSON" body that is not JSON and quotes the header, --debug',
      ['api', 'GET', '/v1/subscribers/echo-json', '--retries', '0', '--debug'],
      { secret: KEY, code: 1 },
    ],
    ['trigger --dry-run --debug', ['trigger', 'welcome', '--to', 'u1', '--dry-run', '--debug'], { secret: KEY, code: 0 }],
    [
      'api POST --dry-run with a token in the body',
      ['api', 'POST', '/v1/channel-connections', '--data', JSON.stringify({ auth: { accessToken: TOKEN } }), '--dry-run'],
      { secret: TOKEN, code: 0 },
    ],
    ['profile show', ['profile', 'show'], { secret: KEY, code: 0 }],
    [
      'a key that commander takes for an argument (a flag before it lacks its value)',
      ['--idempotency-key', '--api-key', KEY, 'integrations', 'active'],
      { secret: KEY, code: 2 },
    ],
    ['the same in -o json with --debug', ['-o', 'json', '--debug', 'help', 'events', '--idempotency-key', '--api-key', KEY], { secret: KEY, code: 2 }],
    [
      'a refused connection with --debug',
      ['integrations', 'active', '--retries', '0', '--debug', '--base-url', 'http://127.0.0.1:9'],
      { secret: KEY, code: 4 },
    ],
  ];

  it.each(cases)('%s', async (_name, argv, c) => {
    const r = await runSvc(argv, { env, ...(c.stdin !== undefined ? { stdin: c.stdin } : {}) });
    expect(r.code, r.stderr).toBe(c.code);
    expect(r.stdout + r.stderr).not.toContain(c.secret);
    expect(r.stdout + r.stderr).not.toContain(KEY);
  });

  it('profiles: add, list, login and a rejected login never print the key', async () => {
    const dir = tempConfigDir();
    const e = { SVC_CONFIG_DIR: dir };
    const outputs = [
      await runSvc(['profile', 'add', 'p', '--base-url', stub.url, '--api-key', KEY], { env: e }),
      await runSvc(['profile', 'add', 'q', '--base-url', stub.url, '--with-key'], { env: e, stdin: `${KEY}\n` }),
      await runSvc(['profile', 'list'], { env: e }),
      await runSvc(['profile', 'list', '-o', 'table'], { env: e }),
      await runSvc(['profile', 'show', 'p', '--debug'], { env: e }),
      await runSvc(['login', '--with-key', '--profile', 'r', '--base-url', stub.url], { env: e, stdin: KEY }),
    ];
    expect(outputs.map((o) => o.code)).toEqual([0, 0, 0, 0, 0, 3]);
    for (const o of outputs) expect(o.stdout + o.stderr).not.toContain(KEY);
  });
});
