// -o tsv: plain values for shell loops, through the real command path against a svc.stub.
import { describe, expect, test } from 'vitest';
import { stubbedService } from '../helpers/command-test.js';
import { runSvc } from '../helpers/run.js';

const svc = stubbedService();

const event = (n: number, i: number, extra: Record<string, unknown> = {}) => ({
  _id: `6761f0c2a3b4c5d6e7f8${n}${i}00`,
  transactionId: `t-${n}-${i}`,
  _environmentId: 'e',
  _organizationId: 'o',
  createdAt: '2026-11-22T19:41:07.123Z',
  channels: ['email'],
  subscriber: { subscriberId: `user-${n}${i}` },
  template: { name: 'Welcome', triggers: [{ identifier: 'welcome' }] },
  jobs: [{ type: 'email', status: 'failed', executionDetails: [{ status: 'Failed', detail: 'no address' }] }],
  ...extra,
});
const page = (n: number, hasMore: boolean) => ({ page: n, hasMore, pageSize: 2, data: [event(n, 0), event(n, 1)] });

describe('-o tsv', () => {
  test("a list: the table's columns under a header, whole ids and times as sent, one line a record", async () => {
    svc.stub.on('GET', '/v1/notifications', { body: page(0, false) });
    const r = await runSvc(['events', 'list', '-o', 'tsv'], { env: svc.env });
    expect(r.code).toBe(0);
    const lines = r.stdout.split('\n');
    expect(lines[0]).toBe('ID\tCREATED\tWORKFLOW\tSUBSCRIBER\tCHANNELS\tSTATUS\tREASON\tTRANSACTION');
    expect(lines[1]!.split('\t')).toEqual([
      '6761f0c2a3b4c5d6e7f80000',
      '2026-11-22T19:41:07.123Z',
      'welcome',
      'user-00',
      'email',
      'failed',
      'email: no address',
      't-0-0',
    ]);
    expect(lines).toHaveLength(4);
    expect(lines[3]).toBe('');
    // Data only: the paging state is on stderr.
    expect(r.stdout).not.toContain('page 0');
  });

  test('-q leaves the header out; --fields picks the columns (dot paths)', async () => {
    svc.stub.on('GET', '/v1/notifications', { body: page(0, false) });
    const r = await runSvc(['events', 'list', '-o', 'tsv', '-q', '--fields', '_id,subscriber.subscriberId'], { env: svc.env });
    expect(r.stdout).toBe('6761f0c2a3b4c5d6e7f80000\tuser-00\n6761f0c2a3b4c5d6e7f80100\tuser-01\n');
  });

  test('values: strings bare, tabs/newlines/backslashes escaped, lists comma-joined, objects JSON, null empty', async () => {
    svc.stub.on('GET', '/v2/subscribers/user-1', {
      body: { data: { subscriberId: 'user-1', firstName: 'A\tB\nC\\D', tags: ['x', 'y'], data: { plan: 'pro' }, phone: null } },
    });
    const r = await runSvc(['subscribers', 'get', 'user-1', '-o', 'tsv', '-q', '--fields', 'subscriberId,firstName,tags,data,phone'], { env: svc.env });
    expect(r.stdout).toBe('user-1\tA\\tB\\nC\\\\D\tx,y\t{"plan":"pro"}\t\n');
  });

  test('a --query result that is a string prints bare; a list of strings one per line', async () => {
    svc.stub.on('GET', '/v1/notifications', { body: page(0, false) });
    const one = await runSvc(['events', 'list', '-o', 'tsv', '--query', '[0].transactionId'], { env: svc.env });
    expect(one.stdout).toBe('t-0-0\n');
    const many = await runSvc(['events', 'list', '-o', 'tsv', '--query', '[].transactionId'], { env: svc.env });
    expect(many.stdout).toBe('t-0-0\nt-0-1\n');
    const json = await runSvc(['events', 'list', '--query', '[0].transactionId'], { env: svc.env });
    expect(json.stdout).toBe('"t-0-0"\n');
  });

  test('a --query result of rows prints tab-separated rows', async () => {
    svc.stub.on('GET', '/v1/notifications', { body: page(0, false) });
    const r = await runSvc(['events', 'list', '-o', 'tsv', '--query', '[].[_id, subscriber.subscriberId]'], { env: svc.env });
    expect(r.stdout).toBe('6761f0c2a3b4c5d6e7f80000\tuser-00\n6761f0c2a3b4c5d6e7f80100\tuser-01\n');
  });

  test('--all streams every page under one header', async () => {
    svc.stub.on('GET', '/v1/notifications', (req) => {
      const n = Number(req.query.get('page') ?? 0);
      return { body: page(n, n < 2) };
    });
    const r = await runSvc(['events', 'list', '--all', '-o', 'tsv', '--fields', 'transactionId'], { env: svc.env });
    expect(r.stdout).toBe('transactionId\nt-0-0\nt-0-1\nt-1-0\nt-1-1\nt-2-0\nt-2-1\n');
  });

  test('secrets stay masked in tsv', async () => {
    svc.stub.on('GET', '/v1/integrations/active', {
      body: { data: [{ _id: 'i1', identifier: 'sg', providerId: 'sendgrid', channel: 'email', credentials: { apiKey: 'SG.secret-sendgrid-key' } }] },
    });
    const r = await runSvc(['integrations', 'active', '-o', 'tsv', '--fields', 'identifier,credentials'], { env: svc.env });
    expect(r.stdout).not.toContain('SG.secret-sendgrid-key');
    expect(r.stdout.split('\n')[1]).toMatch(/^sg\t\{"apiKey":".*…/);
  });

  test('an unknown format is refused naming the flag, nothing sent', async () => {
    const r = await runSvc(['events', 'list', '-o', 'csv'], { env: svc.env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--output');
    expect(r.stderr).toContain('tsv');
    expect(svc.stub.requests).toHaveLength(0);
  });
});
