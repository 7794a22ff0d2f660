// events list on an 80-column terminal: ids made in the same second shortened to their
// distinct end (which events get accepts), a compact time kept, the reason kept readable before the
// channels and the workflow, and the note on what was left out no wider than the terminal.
import { PassThrough, Readable } from 'node:stream';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { main } from '../../src/main.js';
import { tempConfigDir } from '../helpers/run.js';
import { startStub, type Stub } from '../helpers/stub.js';

let stub: Stub;
beforeEach(async () => {
  stub = await startStub();
});
afterEach(async () => stub.close());

async function at(columns: number, argv: string[]): Promise<{ stdout: string; stderr: string; code: number }> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (c: Buffer) => (out += c.toString()));
  stderr.on('data', (c: Buffer) => (err += c.toString()));
  Object.assign(stdout, { isTTY: true, columns });
  Object.assign(stderr, { isTTY: true, columns });
  const code = await main(argv, {
    io: { stdout, stderr, stdin: Readable.from([]) },
    env: { PATH: process.env.PATH, NO_COLOR: '1', SVC_CONFIG_DIR: tempConfigDir(), SVC_API_KEY: 'sk_test_0123456789abcdef', SVC_BASE_URL: stub.url },
    cwd: process.cwd(),
    handleSignals: false,
  });
  return { stdout: out, stderr: err, code };
}

const S = '6b06f27682de279871df0001';
const event = (suffix: string, status: string, detail: string) => ({
  _id: `6b06f27682de279871df${suffix}`,
  transactionId: `01a21323-1f50-71a7-a06a-6326e2f4${suffix}`,
  _environmentId: 'e',
  _organizationId: 'o',
  _subscriberId: S,
  createdAt: new Date(Date.now() - 5 * 60_000).toISOString(),
  channels: ['email'],
  subscriber: { _id: S, subscriberId: 'alice' },
  template: { name: 'Welcome', triggers: [{ type: 'event', identifier: 'welcome', variables: [] }] },
  jobs: [
    {
      _id: `j${suffix}`,
      type: 'email',
      status,
      providerId: 'sendgrid',
      step: { _id: 's', active: true, filters: [], _templateId: 't' },
      executionDetails: [{ _id: `d${suffix}`, status: status === 'failed' ? 'Failed' : 'Success', detail, isRetry: false, isTest: false, source: 'Internal' }],
    },
  ],
});

test('events list fits 80 columns: short ids from the end, a time, the status and the reason', async () => {
  stub.on('GET', '/v1/notifications', {
    body: {
      page: 0,
      hasMore: false,
      pageSize: 10,
      data: [event('1aa8', 'failed', 'Subscriber does not have an email address'), event('1aac', 'completed', 'Message sent')],
    },
  });
  const r = await at(80, ['events', 'list']);
  expect(r.code).toBe(0);
  const lines = r.stdout.trimEnd().split('\n');
  for (const l of [...lines, ...r.stderr.split('\n')]) expect(l.length, l).toBeLessThanOrEqual(80);
  expect(lines[0]).toMatch(/^ID +CREATED +SUBSCRIBER +STATUS +REASON$/);
  // The reason kept readable: the channels and the workflow made way for it (--wide shows them).
  expect(lines[1]).toMatch(/^71df1aa8 +5m ago +alice +failed +email: Subscriber does not have an em…$/);
  expect(lines[0]).not.toContain('CHANNELS');
  expect(r.stderr).toContain('workflow, channels, transaction left out');
  expect(lines[2]).toMatch(/^71df1aac /);
  expect(r.stderr).toMatch(/\(.*left out.*--wide shows/);
});

test('one very long subscriber id is cut, not the time of every row', async () => {
  const long = { ...event('1ab0', 'failed', 'Subscriber does not have an email address'), subscriber: { _id: S, subscriberId: `long-${'x'.repeat(290)}` } };
  stub.on('GET', '/v1/notifications', {
    body: { page: 0, hasMore: false, pageSize: 10, data: [event('1aa8', 'failed', 'Subscriber does not have an email address'), long] },
  });
  const r = await at(80, ['events', 'list']);
  expect(r.code).toBe(0);
  const lines = r.stdout.trimEnd().split('\n');
  for (const l of lines) expect(l.length, l).toBeLessThanOrEqual(80);
  expect(lines[0]).toMatch(/^ID +CREATED +SUBSCRIBER +STATUS +REASON$/);
  expect(lines[2]).toMatch(/^71df1ab0 +5m ago +long-x+… +failed +email: Subscriber/);
});
