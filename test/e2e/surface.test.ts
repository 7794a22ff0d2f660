// Commands of cli.md's surface through the built binary against svc dev and its demo data: topic
// subscribers and --all, integrations update --active true|false, an sms preview table, the trigger
// example with --wait, one workflow's preferences, and workflow create --data FILE.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { svcBin } from '../helpers/bin.js';
import { type DevProcess, startDev } from '../helpers/dev.js';
import { tempConfigDir } from '../helpers/run.js';

let dev: DevProcess;
beforeAll(async () => {
  dev = await startDev({ args: ['--no-save-profile', '--quiet'] });
});
afterAll(async () => {
  await dev?.stop();
});

async function svc(args: string[], cwd?: string) {
  const withOutput = args.includes('-o') || args.includes('--help') ? args : [...args, '-o', 'json'];
  const r = await svcBin(withOutput, { env: { SVC_BASE_URL: dev.baseUrl, SVC_API_KEY: dev.apiKey }, ...(cwd ? { cwd } : {}) });
  return { code: r.exitCode, stdout: String(r.stdout), stderr: String(r.stderr), json: () => JSON.parse(String(r.stdout)) };
}

const lines = (s: string) => s.trim().split('\n').filter(Boolean);

describe('svc topics', () => {
  it('subscribers: a page, every page with --all, one subscriber, and an unknown topic', async () => {
    expect((await svc(['topics', 'add', 'surface-e2e', 'ada', 'grace', 'alan'])).code).toBe(0);
    const page = await svc(['topics', 'subscribers', 'surface-e2e', '--limit', '2']);
    expect(page.code, page.stderr).toBe(0);
    expect(page.json()).toHaveLength(2);
    expect(page.stderr).toMatch(/2 records of 3 · next page: --after \S+/);

    const all = await svc(['topics', 'subscribers', 'surface-e2e', '--all', '--limit', '1', '-o', 'ndjson']);
    expect(all.code, all.stderr).toBe(0);
    const ids = lines(all.stdout).map((l) => JSON.parse(l).subscriber.subscriberId);
    expect(ids.sort()).toEqual(['ada', 'alan', 'grace']);

    const table = await svc(['topics', 'subscribers', 'surface-e2e', '-o', 'table']);
    expect(lines(table.stdout)[0]).toMatch(/^SUBSCRIBER ID\s+NAME\s+EMAIL\s+SUBSCRIBED/);
    expect(table.stdout).toMatch(/^ada\s+Ada Lovelace\s+ada@example\.com/m);

    const one = await svc(['topics', 'subscribers', 'surface-e2e', '--subscriber', 'grace']);
    expect(one.json().map((s: { subscriber: { subscriberId: string } }) => s.subscriber.subscriberId)).toEqual(['grace']);
    expect(one.json()[0]).toMatchObject({ identifier: 'tk=surface-e2e:si=grace', topic: { key: 'surface-e2e' }, createdAt: expect.any(String) });

    const missing = await svc(['topics', 'subscribers', 'no-such-topic']);
    expect(missing.code).toBe(5);
  });

  it('list --all follows the cursor to the last topic', async () => {
    for (const k of ['surface-a', 'surface-b', 'surface-c']) expect((await svc(['topics', 'create', k])).code).toBe(0);
    const all = await svc(['topics', 'list', '--all', '--limit', '1', '-o', 'ndjson']);
    expect(all.code, all.stderr).toBe(0);
    const keys = lines(all.stdout).map((l) => JSON.parse(l).key);
    expect(keys).toEqual(expect.arrayContaining(['surface-a', 'surface-b', 'surface-c', 'engineering']));
    expect(new Set(keys).size).toBe(keys.length);
    const named = await svc(['topics', 'list', '--all', '--key', 'surface-b']);
    expect(named.json().map((t: { key: string }) => t.key)).toEqual(['surface-b']);
  });
});

describe('svc integrations update --active', () => {
  it('takes true|false (and on|off), by identifier or _id', async () => {
    const off = await svc(['integrations', 'update', 'postmark', '--active', 'false']);
    expect(off.code, off.stderr).toBe(0);
    expect(off.json().active).toBe(false);
    const on = await svc(['integrations', 'update', off.json()._id, '--active', 'true']);
    expect(on.code, on.stderr).toBe(0);
    expect(on.json().active).toBe(true);
    expect((await svc(['integrations', 'update', 'postmark', '--active', 'on'])).json().active).toBe(true);
    const bad = await svc(['integrations', 'update', 'postmark', '--active', 'maybe']);
    expect(bad.code).toBe(2);
  });
});

describe('svc workflow', () => {
  it('preview of an sms step as a table: the heading and the body, no empty row', async () => {
    const r = await svc(['workflow', 'preview', 'otp', 'sms', '--set', 'code=1234', '-o', 'table']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^Preview sms\nbody:\n {2}.*1234/);
    expect(r.stdout).not.toMatch(/^value\b/m);
  });

  it('create --data FILE reads a plain path', async () => {
    const dir = tempConfigDir();
    writeFileSync(
      join(dir, 'wf.yaml'),
      'name: Surface\nworkflowId: surface-e2e\nsteps:\n  - name: inbox\n    type: in_app\n    controlValues:\n      body: Hi\n',
    );
    const r = await svc(['workflow', 'create', '--data', 'wf.yaml'], dir);
    expect(r.code, r.stderr).toBe(0);
    expect(r.json().workflowId).toBe('surface-e2e');
  });
});

describe('examples that run against the demo data', () => {
  it('svc trigger --help: the --wait example delivers (ada has an email)', async () => {
    const help = await svc(['trigger', '--help']);
    expect(help.stdout).toContain('svc trigger welcome --to ada --wait --wait-timeout 30s');
    expect(help.stdout).not.toContain('user-1');
    const r = await svc(['trigger', 'welcome', '--to', 'ada', '--wait', '--wait-timeout', '30s']);
    expect(r.code, r.stderr).toBe(0);
  });

  it('subscribers preferences ada --workflow welcome shows that workflow', async () => {
    const r = await svc(['subscribers', 'preferences', 'ada', '--workflow', 'welcome']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.json().workflows.map((w: { workflow: { identifier: string } }) => w.workflow.identifier)).toEqual(['welcome']);
  });
});
