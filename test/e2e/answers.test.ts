// Finding a person, integrations, previews and limits through the built binary against svc dev
// (issue 30): what a new user tries first, answered as the hosted service answers it.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { svcBin } from '../helpers/bin.js';
import { type DevProcess, startDev } from '../helpers/dev.js';

let dev: DevProcess;
beforeAll(async () => {
  dev = await startDev({ args: ['--no-save-profile', '--quiet'] });
});
afterAll(async () => {
  await dev?.stop();
});

async function svc(args: string[]) {
  const withOutput = args.includes('-o') ? args : [...args, '-o', 'json'];
  const r = await svcBin(withOutput, { env: { SVC_BASE_URL: dev.baseUrl, SVC_API_KEY: dev.apiKey } });
  return { code: r.exitCode, stdout: String(r.stdout), stderr: String(r.stderr), json: () => JSON.parse(String(r.stdout)) };
}
const ids = (rows: { subscriberId: string }[]) => rows.map((s) => s.subscriberId);

describe('subscribers search', () => {
  it('--name ada finds Ada Lovelace: a part of "first last", in any case', async () => {
    expect(ids((await svc(['subscribers', 'search', '--name', 'ada'])).json())).toContain('ada');
    expect(ids((await svc(['subscribers', 'search', '--name', 'ADA LOVE'])).json())).toEqual(['ada']);
    expect(ids((await svc(['subscribers', 'search', '--email', 'ADA@EXAMPLE'])).json())).toEqual(['ada']);
  });

  it('--phone: the whole stored number finds it, a part finds nothing', async () => {
    expect(ids((await svc(['subscribers', 'search', '--phone', '+15550100001'])).json())).toEqual(['ada']);
    expect((await svc(['subscribers', 'search', '--phone', '0100001'])).json()).toEqual([]);
  });
});

describe('workflow preview --subscriber ID', () => {
  it("renders with the subscriber's stored fields", async () => {
    const r = await svc(['workflow', 'preview', 'welcome', 'in-app', '--subscriber', 'ada']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.json().result.preview.body).toContain('Welcome Ada!');
  });

  it('an unknown id is exit 5 naming it', async () => {
    const r = await svc(['workflow', 'preview', 'welcome', 'in-app', '--subscriber', 'nobody-here']);
    expect(r.code).toBe(5);
    expect(r.stderr).toContain("no subscriber has the id 'nobody-here'");
  });
});

describe('topics add with a subscriber that does not exist', () => {
  it('adds the others, names the missing one and why, exit 5', async () => {
    const r = await svc(['topics', 'add', 'e2e-topic', 'ada', 'nobody-here']);
    expect(r.code).toBe(5);
    const error = JSON.parse(r.stderr.trim().split('\n').pop()!).error;
    expect(error.message).toMatch(/^1 subscriber not added to topic e2e-topic: nobody-here \(.*not.*found.*\)$/i);
    const table = await svc(['topics', 'add', 'e2e-topic', 'nobody-here', '-o', 'table']);
    expect(table.code).toBe(5);
    expect(table.stderr).toMatch(/^error: 1 subscriber not added to topic e2e-topic: nobody-here \(.*\)$/m);
    expect(r.json().meta).toMatchObject({ successful: 1, failed: 1 });
  });
});

describe('integrations create, list, delete: a webhook integration without svc api', () => {
  it('creates it, lists it, and deletes it', async () => {
    const url = 'http://127.0.0.1:9/hook';
    const made = await svc([
      'integrations',
      'create',
      '--provider-id',
      'chat-webhook',
      '--channel',
      'chat',
      '--identifier',
      'e2e-hook',
      '--credentials',
      JSON.stringify({ webhookUrl: url }),
      '--active',
      'true',
    ]);
    expect(made.code, made.stderr).toBe(0);
    expect(made.json()).toMatchObject({ identifier: 'e2e-hook', providerId: 'chat-webhook', channel: 'chat', active: true });
    expect(made.json().credentials).toBeUndefined();
    const listed = (await svc(['integrations', 'list'])).json() as { identifier: string }[];
    expect(listed.map((i) => i.identifier)).toContain('e2e-hook');
    expect((await svc(['integrations', 'delete', 'e2e-hook'])).code).toBe(2);
    const gone = await svc(['integrations', 'delete', 'e2e-hook', '--yes']);
    expect(gone.code, gone.stderr).toBe(0);
    expect(((await svc(['integrations', 'list'])).json() as { identifier: string }[]).map((i) => i.identifier)).not.toContain('e2e-hook');
  });
});

describe('one body limit on both sides', () => {
  it('a 2 MiB trigger payload is accepted by svc dev (the service takes 26 MiB there)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-e2e-limit-'));
    const file = join(dir, 'payload.json');
    writeFileSync(file, JSON.stringify({ blob: 'x'.repeat(2 * 1024 * 1024) }));
    const r = await svc(['trigger', 'welcome', '--to', 'ada', '--payload', `@${file}`]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.json().status).toBe('processed');
  });

  it('a subscriber body over 100 KiB is refused before sending, naming the flag', async () => {
    const r = await svc(['subscribers', 'update', 'ada', '--data', JSON.stringify({ notes: 'n'.repeat(101 * 1024) })]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--data: the request body would be');
  });
});

describe("tags in the service's words", () => {
  it('an empty or over-32-character tag', async () => {
    for (const tag of ['', 'x'.repeat(33)]) {
      const r = await svc(['api', 'POST', '/v2/workflows', '--data', JSON.stringify({ name: 'T', workflowId: 'tagged', steps: [], tags: [tag] })]);
      expect(r.code).toBe(6);
      expect(r.stderr).toContain('each value in tags must be longer than or equal to 1 and shorter than or equal to 32 characters');
    }
  });
});
