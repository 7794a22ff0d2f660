// The workflow and subscriber commands, through the built binary against svc dev:
// each one reaches its operation, answers in JSON, and deletes refuse to run without --yes off a terminal.
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

describe('svc workflow list|activate|deactivate|delete', () => {
  it('lists the demo workflows, and --search narrows them', async () => {
    const all = await svc(['workflow', 'list']);
    expect(all.code).toBe(0);
    const ids = (all.json() as { workflowId: string }[]).map((w) => w.workflowId);
    expect(ids).toEqual(expect.arrayContaining(['welcome', 'otp']));
    const some = await svc(['workflow', 'list', '--search', 'welc']);
    expect((some.json() as { workflowId: string }[]).map((w) => w.workflowId)).toEqual(['welcome']);
  });

  it('deactivates and activates a workflow', async () => {
    const off = await svc(['workflow', 'deactivate', 'otp']);
    expect(off.code).toBe(0);
    expect(off.json().active).toBe(false);
    const on = await svc(['workflow', 'activate', 'otp']);
    expect(on.json().active).toBe(true);
  });

  it('delete needs --yes without a terminal (exit 2, nothing sent), then deletes', async () => {
    const refused = await svc(['workflow', 'delete', 'incident']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('--yes');
    expect((await svc(['workflow', 'get', 'incident'])).code).toBe(0);
    expect((await svc(['workflow', 'delete', 'incident', '--yes'])).code).toBe(0);
    expect((await svc(['workflow', 'get', 'incident'])).code).toBe(5);
  });
});

describe('svc subscribers create|get|update|delete', () => {
  it('creates, reads, updates and deletes a subscriber', async () => {
    const made = await svc(['subscribers', 'create', 'e2e-sub', '--email', 'e2e@example.com']);
    expect(made.code).toBe(0);
    expect(made.json()).toMatchObject({ subscriberId: 'e2e-sub', email: 'e2e@example.com' });
    expect((await svc(['subscribers', 'get', 'e2e-sub'])).json().email).toBe('e2e@example.com');
    const changed = await svc(['subscribers', 'update', 'e2e-sub', '--first-name', 'Ada']);
    expect(changed.code).toBe(0);
    expect(changed.json().firstName).toBe('Ada');
    expect((await svc(['subscribers', 'delete', 'e2e-sub'])).code).toBe(2);
    expect((await svc(['subscribers', 'delete', 'e2e-sub', '--yes'])).code).toBe(0);
    expect((await svc(['subscribers', 'get', 'e2e-sub'])).code).toBe(5);
  });
});

describe('svc integrations primary', () => {
  it('accepts the integration identifier as well as its id', async () => {
    const r = await svc(['integrations', 'primary', 'sendgrid']);
    expect(r.code).toBe(0);
    expect(r.json()).toMatchObject({ identifier: 'sendgrid', primary: true });
  });
});
