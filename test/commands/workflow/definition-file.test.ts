// svc workflow create|update --data FILE (as cli.md writes it): a plain path reads the file like @FILE,
// JSON or YAML; inline JSON and - still work; a missing file is named.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { fixture, stubbedService } from '../../helpers/command-test.js';
import { runSvc, tempConfigDir } from '../../helpers/run.js';

const svc = stubbedService();
const definition = { name: 'Welcome', workflowId: 'welcome', steps: [{ name: 'inbox', type: 'in_app', controlValues: { body: 'Hi' } }] };

function files() {
  const dir = tempConfigDir();
  writeFileSync(join(dir, 'wf.json'), JSON.stringify(definition));
  writeFileSync(join(dir, 'wf.yaml'), 'name: Welcome\nworkflowId: welcome\nsteps:\n  - name: inbox\n    type: in_app\n    controlValues:\n      body: Hi\n');
  writeFileSync(join(dir, 'definition'), JSON.stringify(definition));
  return dir;
}

describe.each([
  ['create', ['workflow', 'create'], 'POST', '/v2/workflows'],
  ['update', ['workflow', 'update', 'welcome'], 'PUT', '/v2/workflows/welcome'],
])('workflow %s', (_name, argv, method, path) => {
  test.each(['wf.json', 'wf.yaml', 'definition', './wf.json'])('--data %s (a plain path) reads the file', async (file) => {
    const cwd = files();
    svc.stub.on(method, path, { status: method === 'POST' ? 201 : 200, body: { data: fixture.workflow() } });
    const r = await runSvc([...argv, '--data', file], { env: svc.env, cwd });
    expect(r.code, r.stderr).toBe(0);
    expect(svc.stub.requests[0]?.body).toMatchObject(definition);
  });

  test('--data @FILE, inline JSON and - as before', async () => {
    const cwd = files();
    svc.stub.on(method, path, { status: method === 'POST' ? 201 : 200, body: { data: fixture.workflow() } });
    for (const [value, stdin] of [
      ['@wf.json', undefined],
      [JSON.stringify(definition), undefined],
      ['-', JSON.stringify(definition)],
    ] as const) {
      const r = await runSvc([...argv, '--data', value], { env: svc.env, cwd, ...(stdin ? { stdin } : {}) });
      expect(r.code, r.stderr).toBe(0);
    }
    expect(svc.stub.requests).toHaveLength(3);
    for (const q of svc.stub.requests) expect(q.body).toMatchObject(definition);
  });

  test('a missing file is named, exit 2, nothing sent', async () => {
    const r = await runSvc([...argv, '--data', 'missing.yaml'], { env: svc.env, cwd: files() });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--data: cannot read missing.yaml: no such file');
    expect(svc.stub.requests).toHaveLength(0);
  });

  test('a bare name that is no file, or a folder: said so in one line, exit 2, nothing sent', async () => {
    const cwd = files();
    const bare = await runSvc([...argv, '--data', 'welcome'], { env: svc.env, cwd });
    expect(bare.code).toBe(2);
    expect(bare.stderr).toContain('--data: cannot read welcome: no such file');
    expect(bare.stderr.trim().split('\n')).toHaveLength(1);
    const folder = await runSvc([...argv, '--data', '.'], { env: svc.env, cwd });
    expect(folder.code).toBe(2);
    expect(folder.stderr).not.toContain('invalid JSON');
    expect(svc.stub.requests).toHaveLength(0);
  });
});
