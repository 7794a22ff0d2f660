// Tab for values the command tree cannot know: profile names, workflow and subscriber ids from
// the short-lived cache earlier commands filled (no request at Tab time while it is fresh; only when it
// is empty and a profile with a key exists, and then within 300 ms), and a JSON flag's @file keeping
// its @ in the generated bash script.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { runSvc, tempConfigDir } from '../helpers/run.js';
import { startStub, type Stub } from '../helpers/stub.js';
import { BIN } from '../helpers/bin.js';
import { workflowRecord } from '../helpers/command-test.js';

const KEY = 'sk_test_0123456789abcdef';
let stub: Stub;
let dir: string;
let env: Record<string, string>;
beforeEach(async () => {
  stub = await startStub();
  dir = tempConfigDir();
  env = { SVC_CONFIG_DIR: dir };
});
afterEach(async () => stub.close());

const workflow = workflowRecord;
const workflows = { body: { workflows: ['welcome', 'welcome-back', 'otp'].map(workflow), totalCount: 3 } };
const addProfile = (name: string, baseUrl = stub.url) => runSvc(['profile', 'add', name, '--base-url', baseUrl, '--api-key', KEY], { env });

describe('svc __complete', () => {
  test('profiles: the names in the store that start with what was typed', async () => {
    await addProfile('prod');
    await addProfile('preview');
    await addProfile('local');
    expect((await runSvc(['__complete', 'profiles', 'pr'], { env })).stdout).toBe('preview\nprod\n');
    expect((await runSvc(['__complete', 'profiles'], { env })).stdout).toBe('local\npreview\nprod\n');
  });

  test('workflow ids come from the cache an earlier command filled, with no request at Tab time', async () => {
    await addProfile('local');
    stub.on('GET', '/v2/workflows', workflows);
    expect((await runSvc(['workflow', 'list'], { env })).code).toBe(0);
    expect(stub.requests).toHaveLength(1);
    const tab = await runSvc(['__complete', 'workflows', 'wel'], { env });
    expect(tab.stdout).toBe('welcome\nwelcome-back\n');
    expect(stub.requests).toHaveLength(1);
  });

  test('an empty cache and a profile with a key: one bounded request, whose ids are then cached', async () => {
    await addProfile('local');
    stub.on('GET', '/v2/workflows', workflows);
    expect((await runSvc(['__complete', 'workflows', 'o'], { env })).stdout).toBe('otp\n');
    expect(stub.requests).toHaveLength(1);
    expect(stub.requests[0]!.headers.authorization).toBe(`ApiKey ${KEY}`);
    expect((await runSvc(['__complete', 'workflows', ''], { env })).stdout).toBe('otp\nwelcome\nwelcome-back\n');
    expect(stub.requests).toHaveLength(1);
  });

  test('no profile and no key: nothing offered and nothing sent', async () => {
    const r = await runSvc(['__complete', 'subscribers', ''], { env });
    expect(r).toMatchObject({ code: 0, stdout: '', stderr: '' });
    expect(stub.requests).toHaveLength(0);
  });

  test('a slow service: nothing offered within about 300 ms, no error', async () => {
    await addProfile('local');
    stub.on('GET', '/v2/subscribers', { delayMs: 10_000, body: { data: [], next: null, previous: null } });
    const started = Date.now();
    const r = await runSvc(['__complete', 'subscribers', ''], { env });
    // Far below the service's 10 s (the bound leaves a loaded machine room; the limit itself is 300 ms).
    expect(Date.now() - started).toBeLessThan(5000);
    expect(r).toMatchObject({ code: 0, stdout: '', stderr: '' });
  });

  test('hidden from help', async () => {
    expect((await runSvc(['--help'])).stdout).not.toContain('__complete');
  });
});

describe('the generated bash script', () => {
  // bash with svc on its PATH (the built binary), the real completions/svc.bash, and a line typed so far.
  function tab(line: string, opts: { atBreaks: boolean; cwd: string }): string[] {
    const bin = mkdtempSync(join(tmpdir(), 'svc-path-'));
    symlinkSync(BIN, join(bin, 'svc'));
    const words = line.split(' ');
    // Readline splits a word at @ when COMP_WORDBREAKS holds it (bash's default): "@" and the rest.
    const last = words[words.length - 1]!;
    if (opts.atBreaks && last.startsWith('@')) words.splice(words.length - 1, 1, '@', last.slice(1));
    const script = [
      `source ${join(process.cwd(), 'completions/svc.bash')}`,
      opts.atBreaks ? `COMP_WORDBREAKS=$' \\t\\n"\\'@><=;|&(:'` : `COMP_WORDBREAKS=$' \\t\\n"\\'><=;|&(:'`,
      `COMP_LINE=${JSON.stringify(line)}; COMP_POINT=\${#COMP_LINE}`,
      `COMP_WORDS=(${words.map((w) => `'${w}'`).join(' ')}); COMP_CWORD=${words.length - 1}`,
      '_svc_complete',
      'printf "%s\\n" "${COMPREPLY[@]}"',
    ].join('\n');
    return execFileSync('bash', ['-c', script], {
      encoding: 'utf8',
      cwd: opts.cwd,
      env: { ...process.env, ...env, PATH: `${bin}:${dirname(process.execPath)}:${process.env.PATH}` },
    })
      .split('\n')
      .filter(Boolean);
  }

  test('--payload @file<TAB> keeps the @, whether or not readline splits words at @', () => {
    const cwd = mkdtempSync(join(tmpdir(), 'svc-files-'));
    writeFileSync(join(cwd, 'data.json'), '{}');
    mkdirSync(join(cwd, 'dir'));
    expect(tab('svc trigger welcome --payload @da', { atBreaks: false, cwd })).toEqual(['@data.json']);
    expect(tab('svc trigger welcome --payload @d', { atBreaks: false, cwd }).sort()).toEqual(['@data.json', '@dir/']);
    // Split at @ too: bash's readline still replaces the @ with the word (a "special prefix"), so the
    // candidates carry it (the real-terminal test below is what shows it).
    expect(tab('svc trigger welcome --payload @da', { atBreaks: true, cwd })).toEqual(['@data.json']);
  });

  test('--profile <TAB> offers the profile names; a workflow argument the cached ids', async () => {
    await addProfile('prod');
    await addProfile('local');
    const cwd = mkdtempSync(join(tmpdir(), 'svc-files-'));
    expect(tab('svc events list --profile ', { atBreaks: true, cwd })).toEqual(['local', 'prod']);
    stub.on('GET', '/v2/workflows', workflows);
    await runSvc(['workflow', 'list'], { env });
    expect(tab('svc trigger we', { atBreaks: true, cwd })).toEqual(['welcome', 'welcome-back']);
    expect(tab('svc events list --workflow o', { atBreaks: true, cwd })).toEqual(['otp']);
    expect(stub.requests).toHaveLength(1);
  });
});
