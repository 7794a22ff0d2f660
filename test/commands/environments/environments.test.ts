// svc environments list, create and delete through the real HTTP core against a loopback stub: create
// and delete ask GET /v1/svc-dev first and, where the service is not svc dev (the hosted service
// answers 404), refuse in one line with exit 5 and send nothing else; list works against both. The new
// environment's key is masked by the output path unless --show-secrets.
import { describe, expect, test } from 'vitest';
import { ID, ID2, refusesInput, stubbedService } from '../../helpers/command-test.js';
import { runSvc } from '../../helpers/run.js';

const svc = stubbedService();
const NEW_KEY = 'sk_9f8e7d6c5b4a39281706f5e4d3c2b1a0';
const ORG = '6761f0c2a3b4c5d6e7f80001';
const environment = (over: Record<string, unknown> = {}) => ({
  _id: ID2,
  name: 'staging',
  _organizationId: ORG,
  identifier: 'Q2x_aB9z',
  type: 'prod',
  apiKeys: [{ key: NEW_KEY, _userId: ORG, hash: 'ab'.repeat(32) }],
  _parentId: ID,
  ...over,
});

const hosted = () => svc.stub.on('GET', '/v1/svc-dev', { status: 404, body: { statusCode: 404, message: 'Cannot GET /v1/svc-dev', error: 'Not Found' } });
const local = () => svc.stub.on('GET', '/v1/svc-dev', { body: { data: { service: 'svc dev', version: '0.1.0', extensions: [] } } });

describe('against the hosted service', () => {
  test.each([
    [['environments', 'create', 'staging'], 'svc environments create'],
    [['environments', 'delete', ID2, '--yes'], 'svc environments delete'],
  ])('%j refuses in one line, exit 5, sending nothing but the question', async (argv, name) => {
    hosted();
    const r = await runSvc(argv, { env: svc.env });
    expect(r.code).toBe(5);
    expect(r.stderr).toContain(`${name} works only against svc dev`);
    expect(r.stderr.split('\n').filter(Boolean)).toHaveLength(1);
    expect(r.stdout).toBe('');
    expect(svc.stub.requests.map((q) => `${q.method} ${q.path}`)).toEqual(['GET /v1/svc-dev']);
  });

  test('list works there too', async () => {
    svc.stub.on('GET', '/v1/environments', { body: { data: [environment({ apiKeys: [] })] } });
    const r = await runSvc(['environments', 'list', '-o', 'json'], { env: svc.env });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject([{ _id: ID2, name: 'staging' }]);
  });
});

describe('against svc dev', () => {
  test('create sends the name and a colour, and prints the environment with its key masked', async () => {
    local();
    svc.stub.on('POST', '/v1/environments', { status: 201, body: { data: environment() } });
    const r = await runSvc(['environments', 'create', 'staging', '-o', 'json'], { env: svc.env });
    expect(r.code, r.stderr).toBe(0);
    expect(svc.stub.requests[1]!.body).toEqual({ name: 'staging', color: '#3a7f5c' });
    const printed = JSON.parse(r.stdout);
    expect(printed).toMatchObject({ _id: ID2, identifier: 'Q2x_aB9z', apiKeys: [{ key: 'sk_…b1a0' }] });
    expect(r.stdout + r.stderr).not.toContain(NEW_KEY);
    expect(r.stderr).toContain('--show-secrets prints its key');
  });

  test('create --show-secrets prints the key; --color and --parent are sent', async () => {
    local();
    svc.stub.on('POST', '/v1/environments', { status: 201, body: { data: environment() } });
    const r = await runSvc(['environments', 'create', 'staging', '--color', '#b15353', '--parent', ID, '--show-secrets', '-o', 'json'], { env: svc.env });
    expect(r.code, r.stderr).toBe(0);
    expect(svc.stub.requests[1]!.body).toEqual({ name: 'staging', color: '#b15353', parentId: ID });
    expect(JSON.parse(r.stdout).apiKeys[0].key).toBe(NEW_KEY);
  });

  test('delete by name finds its id, then deletes', async () => {
    local();
    svc.stub.on('GET', '/v1/environments', { body: { data: [environment({ apiKeys: [] })] } });
    svc.stub.on('DELETE', `/v1/environments/${ID2}`, { body: {} });
    const r = await runSvc(['environments', 'delete', 'staging', '--yes'], { env: svc.env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe('deleted environment staging\n');
  });

  test('the service’s refusal is one line with its words', async () => {
    local();
    svc.stub.on('DELETE', `/v1/environments/${ID}`, {
      status: 400,
      body: { statusCode: 400, message: 'The Development environment is protected and cannot be deleted. Only custom environments can be deleted.' },
    });
    const r = await runSvc(['environments', 'delete', ID, '--yes'], { env: svc.env });
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('The Development environment is protected');
  });
});

refusesInput(svc, [
  [['environments', 'delete', ID2], 'needs --yes when there is no terminal'],
  [['environments', 'create', 'staging', '--color', 'red'], '--color: must be a hexadecimal color'],
  [['environments', 'create', 'staging', '--parent', 'nope'], '--parent: must be a mongodb id'],
  [['environments', 'create', ''], 'NAME: must not be empty'],
]);
