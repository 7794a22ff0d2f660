// One body limit on both sides: the service's (26 MiB on triggers, workflows and bridge sync; 100 KiB,
// its body parser's default, elsewhere). Over it the CLI refuses before sending, naming the flag.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { bodyLimitFor, DEFAULT_BODY_BYTES, MAX_BODY_BYTES, oversizeBody } from '../../src/api/limits.js';
import { DEFAULT_BODY_LIMIT } from '../../src/server/app.js';
import { stubbedService } from '../helpers/command-test.js';
import { runSvc } from '../helpers/run.js';
import { testService } from '../helpers/service.js';

describe('the limit of each route', () => {
  test.each([
    ['/v1/events/trigger', MAX_BODY_BYTES],
    ['/v1/events/trigger/bulk', MAX_BODY_BYTES],
    ['/v2/workflows', MAX_BODY_BYTES],
    ['/v2/workflows/welcome', MAX_BODY_BYTES],
    ['/v1/bridge/sync?source=cli', MAX_BODY_BYTES],
    ['/v1/environments/abc/bridge', MAX_BODY_BYTES],
    ['/v2/subscribers', DEFAULT_BODY_BYTES],
    ['/v1/integrations', DEFAULT_BODY_BYTES],
    ['/v1/eventsx', DEFAULT_BODY_BYTES],
  ])('%s → %i bytes', (path, limit) => expect(bodyLimitFor(path)).toBe(limit));

  test('svc dev answers each route with the same limit: 413 over 100 KiB on subscribers, a trigger of 200 KiB read', async () => {
    const svc = testService();
    try {
      const blob = 'x'.repeat(200 * 1024);
      const sub = await svc.request('POST', '/v2/subscribers', { body: { subscriberId: 'big', data: { blob } } });
      expect(sub.status).toBe(413);
      expect((sub.body as { message: string }).message).toBe(`Request body is larger than ${DEFAULT_BODY_BYTES} bytes`);
      const trigger = await svc.request('POST', '/v1/events/trigger', { body: { name: 'welcome', to: 'ada', payload: { blob } } });
      expect(trigger.status).toBe(201);
      expect(DEFAULT_BODY_LIMIT).toBe(DEFAULT_BODY_BYTES);
    } finally {
      await svc.close();
    }
  });

  test('the message names the flag of the largest part', () => {
    const body = { subscriberId: 'a', data: { blob: 'x'.repeat(200 * 1024) } };
    expect(oversizeBody('POST', '/v2/subscribers', body, (f) => `--${f}`)).toBe(
      '--data: the request body would be 200 KiB, over the 100 KiB the service accepts on POST /v2/subscribers; nothing was sent',
    );
    expect(oversizeBody('POST', '/v1/events/trigger', body)).toBeUndefined();
  });
});

describe('commands', () => {
  const svc = stubbedService();
  const dir = mkdtempSync(join(tmpdir(), 'svc-limit-'));

  test('subscribers create --data over 100 KiB: exit 2 naming --data, nothing sent', async () => {
    const file = join(dir, 'data.json');
    writeFileSync(file, JSON.stringify({ notes: 'x'.repeat(150 * 1024) }));
    const r = await runSvc(['subscribers', 'create', 'ada', '--data', `@${file}`], { env: svc.env });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: --data: the request body would be 150 KiB, over the 100 KiB the service accepts on POST \/v2\/subscribers/m);
    expect(svc.stub.requests).toHaveLength(0);
  });

  test('trigger --payload of 2 MiB is sent (the service takes 26 MiB there)', async () => {
    const file = join(dir, 'two.json');
    writeFileSync(file, JSON.stringify({ blob: 'y'.repeat(2 * 1024 * 1024) }));
    svc.stub.on('POST', '/v1/events/trigger', { status: 201, body: { data: { acknowledged: true, status: 'processed', transactionId: 't1' } } });
    const r = await runSvc(['trigger', 'welcome', '--to', 'ada', '--payload', `@${file}`], { env: svc.env });
    expect(r.code, r.stderr).toBe(0);
  });

  test('trigger --payload file over 26 MiB: exit 2 naming --payload before reading it', async () => {
    const file = join(dir, 'huge.json');
    writeFileSync(file, Buffer.alloc(MAX_BODY_BYTES + 1, 0x20));
    const r = await runSvc(['trigger', 'welcome', '--to', 'ada', '--payload', `@${file}`], { env: svc.env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`--payload: ${file} is 26 MiB; the service accepts request bodies of at most 26 MiB`);
    expect(svc.stub.requests).toHaveLength(0);
  });

  test('svc api --data over the route limit names --data', async () => {
    const r = await runSvc(['api', 'PATCH', '/v2/subscribers/ada', '--data', JSON.stringify({ data: { z: 'z'.repeat(101 * 1024) } })], { env: svc.env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--data: the request body would be');
    expect(svc.stub.requests).toHaveLength(0);
  });
});
