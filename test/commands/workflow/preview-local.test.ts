// svc workflow preview against the local service (in process, on a loopback port): an unknown workflow
// or step is said in one line (exit 5) although the service answers 201 with an empty preview, and a
// terminal gets the whole body, an HTML one as the text it shows.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { AddressInfo } from 'node:net';
import { createLocalService, type LocalService } from '../../../src/server/index.js';
import { runSvc } from '../../helpers/run.js';

const KEY = 'sk_test_preview_0123456789';
let svc: LocalService;
let env: Record<string, string>;

beforeAll(async () => {
  svc = createLocalService({ data: ':memory:', apiKey: KEY });
  await svc.app.listen({ port: 0, host: '127.0.0.1' });
  env = { SVC_API_KEY: KEY, SVC_BASE_URL: `http://127.0.0.1:${(svc.app.server.address() as AddressInfo).port}` };
});
afterAll(async () => svc?.close());

describe('svc workflow preview', () => {
  test('an unknown workflow: exit 5, "no workflow nope"', async () => {
    const r = await runSvc(['workflow', 'preview', 'nope', 'x'], { env });
    expect(r.code).toBe(5);
    expect(r.stderr).toContain('no workflow nope');
    expect(r.stdout).toBe('');
  });

  test('an unknown step: exit 5, naming the steps the workflow has', async () => {
    const r = await runSvc(['workflow', 'preview', 'welcome', 'no-such-step', '-o', 'json'], { env });
    expect(r.code).toBe(5);
    expect(r.stderr).toContain('no step no-such-step in welcome; its steps: in-app, email');
    expect(r.stdout).toBe('');
  });

  test('--wide on a terminal: the whole email body, as text, wrapped to the width; -o json keeps the HTML', async () => {
    const r = await runSvc(['workflow', 'preview', 'welcome', 'email', '--wide', '-o', 'table', '--subscriber', '{"firstName":"Ada"}'], { env, tty: true });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('Hi Ada,');
    expect(r.stdout).toContain('Thanks for joining');
    expect(r.stdout).toContain('Finish setting up (https://app.example.com/onboarding)');
    expect(r.stdout).not.toContain('<p>');
    expect(r.stdout).not.toContain('…');
    for (const line of r.stdout.split('\n')) expect(line.length).toBeLessThanOrEqual(120);
    const j = await runSvc(['workflow', 'preview', 'welcome', 'email', '-o', 'json'], { env });
    expect(JSON.parse(j.stdout).result.preview.body).toContain('<p><a href="https://app.example.com/onboarding">Finish setting up</a></p>');
  });

  test('a long plain body is wrapped, not cut', async () => {
    const long = `${'word '.repeat(60)}END`;
    const r = await runSvc(['workflow', 'preview', 'welcome', 'in-app', '-o', 'table', '--controls', JSON.stringify({ body: long, subject: 's' })], {
      env,
      tty: true,
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('END');
    expect(r.stdout.match(/word/g)).toHaveLength(60);
  });
});
