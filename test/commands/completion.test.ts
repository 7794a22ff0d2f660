// Completion scripts come from the command tree; completions/ must hold exactly what it generates.
import { describe, expect, test } from 'vitest';
import { readFileSync } from 'node:fs';
import { execFileSync, spawnSync } from 'node:child_process';
import { runSvc } from '../helpers/run.js';
import { fish, zsh } from '../helpers/ci.js';

const files = { bash: 'completions/svc.bash', zsh: 'completions/_svc', fish: 'completions/svc.fish' } as const;

describe('svc completion', () => {
  test.each(Object.entries(files))('completions/ holds the current %s script (run `npm run completions` after changing commands)', async (shell, file) => {
    const r = await runSvc(['completion', shell]);
    expect(r.code).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe(r.stdout);
  });

  test('bash completes commands, subcommands, flags and enum values', () => {
    const complete = (...words: string[]) => {
      const script = `source ${files.bash}; COMP_WORDS=(${words.map((w) => `'${w}'`).join(' ')}); COMP_CWORD=${words.length - 1}; _svc_complete; echo "\${COMPREPLY[*]}"`;
      return execFileSync('bash', ['-c', script], { encoding: 'utf8' }).trim();
    };
    expect(complete('svc', 'ev')).toBe('events');
    expect(complete('svc', 'events', '')).toBe('list watch get browse');
    expect(complete('svc', 'events', 'list', '--channel', '')).toBe('in_app email sms chat push');
    expect(complete('svc', 'messages', 'mark-as', 'u1', '')).toBe('read seen unread unseen');
    expect(complete('svc', '--output', 'nd')).toBe('ndjson');
    expect(complete('svc', 'endpoints', 'list', '--provider', 'sla')).toBe('slack');
    expect(complete('svc', 'trigger', 'welcome', '--to-j')).toBe('--to-json');
  });

  test.for([
    ['zsh', zsh, ['-n']],
    ['fish', fish, ['-n']],
  ] as const)('the %s script parses', ([name, shell, args], ctx) => {
    // Not installed here: skipped, saying what to install (in CI, a missing shell fails).
    shell.check(ctx);
    const r = spawnSync(name, [...args, files[name]], { encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
  });
});

describe("commander's public API only", () => {
  test('no command reads or sets a private field of commander (_hidden, _name, …): they change between versions', () => {
    const r = spawnSync('grep', ['-rlE', String.raw`as unknown as \{ *_[a-zA-Z]+`, 'src/commands', 'src/cli.ts'], { encoding: 'utf8' });
    expect(r.stdout.trim()).toBe('');
    expect(r.status).toBe(1); // grep ran and found nothing
  });
});

describe('help', () => {
  test('svc help exit-codes lists every code', async () => {
    const r = await runSvc(['help', 'exit-codes']);
    for (const code of [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 130]) expect(r.stdout).toMatch(new RegExp(`^  ${code}\\s`, 'm'));
  });
  test('svc help environment names the variables', async () => {
    const r = await runSvc(['help', 'environment']);
    for (const v of ['SVC_API_KEY', 'SVC_BASE_URL', 'SVC_PROFILE', 'SVC_CONFIG_DIR', 'NO_COLOR', 'HTTPS_PROXY', 'NO_PROXY']) expect(r.stdout).toContain(v);
  });
  test("svc help events list is that command's help", async () => {
    const r = await runSvc(['help', 'events', 'list']);
    expect(r.stdout).toContain('Usage: svc events list');
  });
  test('an unknown topic is a usage error', async () => {
    expect((await runSvc(['help', 'nonsense'])).code).toBe(2);
  });
});
