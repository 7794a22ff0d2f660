// Every option that takes one of a list of values completes those values, in bash, zsh and fish: the
// test walks the whole command tree, finds each choice-taking option (declared choices, or a parser
// that refuses a value by naming the ones it takes) and asks each shell's script for its values.
import { spawnSync } from 'node:child_process';
import type { Command, Option } from 'commander';
import { describe, expect, test } from 'vitest';
import { buildProgram } from '../../src/cli.js';
import { choicesOf } from '../../src/commands/completion.js';
import { fish, zsh } from '../helpers/ci.js';

interface Case {
  path: string[];
  flag: string;
  choices: string[];
}

/** Parsers that refuse a value without naming a list: numbers, durations, URLs. Free text, not choices. */
const FREE_FORM = /^Expected (an integer|a duration|a positive number|an http)/;

async function cases(): Promise<{ all: Case[]; unexplained: string[] }> {
  const program = (await buildProgram(async () => undefined)) as unknown as Command;
  const all: Case[] = [];
  const unexplained: string[] = [];
  const walk = (cmd: Command, path: string[]) => {
    for (const o of cmd.options as Option[]) {
      if (!o.required) continue;
      const choices = choicesOf(o);
      const flag = o.long ?? o.short!;
      if (choices) {
        all.push({ path, flag, choices });
        continue;
      }
      // A parser that refuses an arbitrary word checks the value: it must either be free-form or list its values.
      try {
        o.parseArg?.('zzz-no-such-value', undefined as never);
      } catch (e) {
        const message = (e as Error).message;
        if (!FREE_FORM.test(message)) unexplained.push(`svc ${path.join(' ')} ${flag}: ${message}`);
      }
    }
    for (const sub of cmd.commands as Command[]) if (sub.name() !== '__complete') walk(sub, [...path, sub.name()]);
  };
  walk(program, []);
  return { all, unexplained };
}

const { all, unexplained } = await cases();
const sorted = (xs: string[]) => [...new Set(xs)].sort();
const label = (c: Case) => ['svc', ...c.path, c.flag].join(' ');

describe('the choice-taking options', () => {
  test('are found across the tree, the enum flags people reach for among them', () => {
    const found = all.map(label);
    for (const expected of [
      'svc --output',
      'svc events list --status',
      'svc events list --channel',
      'svc events list --severity',
      'svc subscribers search --order-direction',
      'svc integrations create --channel',
      'svc integrations create --active',
      'svc integrations update --hmac',
      'svc workflow list --status',
      'svc endpoints create --type',
    ]) {
      expect(found).toContain(expected);
    }
  });

  test('every option whose value is checked either lists its values or is free-form (numbers, durations, URLs)', () => {
    expect(unexplained).toEqual([]);
  });
});

describe('bash', () => {
  test('completes the values of every choice-taking option', () => {
    const script = ['source completions/svc.bash'];
    for (const [i, c] of all.entries()) {
      const words = ['svc', ...c.path, c.flag, ''].map((w) => `'${w}'`).join(' ');
      script.push(`COMP_WORDS=(${words}); COMP_CWORD=${c.path.length + 2}; COMPREPLY=(); _svc_complete; echo "@@${i}"; printf '%s\\n' "\${COMPREPLY[@]}"`);
    }
    const r = spawnSync('bash', ['-c', script.join('\n')], { encoding: 'utf8' });
    expect(r.stderr).toBe('');
    const got = parse(r.stdout);
    for (const [i, c] of all.entries()) expect(sorted(got[i] ?? []), label(c)).toEqual(sorted(c.choices));
  });
});

describe('zsh', () => {
  zsh.test('completes the values of every choice-taking option', () => {
    const script = [
      'compadd() { [[ "$1" == -- ]] && shift; print -rl -- "$@"; }',
      '_files() { print -r -- "<files>"; }',
      '_describe() { print -r -- "<described>"; }',
      'compdef() { :; }',
      'compset() { return 1; }',
      'source completions/_svc',
    ];
    for (const [i, c] of all.entries()) {
      const words = ['svc', ...c.path, c.flag, ''].map((w) => `'${w}'`).join(' ');
      script.push(`words=(${words}); CURRENT=${c.path.length + 3}; PREFIX=''; print -r -- "@@${i}"; _svc`);
    }
    const r = spawnSync('zsh', ['-f', '-c', script.join('\n')], { encoding: 'utf8' });
    expect(r.stderr).toBe('');
    const got = parse(r.stdout);
    for (const [i, c] of all.entries()) expect(sorted(got[i] ?? []), label(c)).toEqual(sorted(c.choices));
  });
});

describe('fish', () => {
  fish.test('completes the values of every choice-taking option', () => {
    const script = ['source completions/svc.fish'];
    for (const [i, c] of all.entries()) {
      script.push(`echo "@@${i}"; complete -C '${['svc', ...c.path, c.flag].join(' ')} '`);
    }
    const r = spawnSync('fish', ['--no-config', '-c', script.join('\n')], { encoding: 'utf8' });
    expect(r.stderr).toBe('');
    const got = parse(r.stdout).map((lines) => lines.map((l) => l.split('\t')[0]!));
    for (const [i, c] of all.entries()) expect(sorted(got[i] ?? []), label(c)).toEqual(sorted(c.choices));
  });
});

/** Output split at the "@@N" markers: the candidates of each case. */
function parse(out: string): string[][] {
  const got: string[][] = [];
  let at = -1;
  for (const line of out.split('\n')) {
    const m = /^@@(\d+)$/.exec(line);
    if (m) at = Number(m[1]);
    else if (at >= 0 && line !== '') (got[at] ??= []).push(line);
  }
  return got;
}
