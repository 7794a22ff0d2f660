// Every command's --help shows at least one example; `svc` alone shows help and exits 0.
import { describe, expect, test } from 'vitest';
import type { Command } from 'commander';
import { buildProgram } from '../../src/cli.js';
import { runSvc } from '../helpers/run.js';

function leaves(cmd: Command, path: string[] = []): string[][] {
  if (cmd.commands.length === 0) return [path];
  // A command that runs and has commands of its own (`svc dev`, `svc dev clock`) is one too.
  const runs = path.length > 0 && (cmd as unknown as { _actionHandler?: unknown })._actionHandler !== undefined;
  return [...(runs ? [path] : []), ...cmd.commands.flatMap((c) => leaves(c, [...path, c.name()]))];
}

function groups(cmd: Command, path: string[] = []): string[][] {
  if (cmd.commands.length === 0) return [];
  return [...(path.length ? [path] : []), ...cmd.commands.flatMap((c) => groups(c, [...path, c.name()]))];
}

const program = await buildProgram(async () => undefined);
const commands = leaves(program);

describe('--help', () => {
  test('the tree has every command of cli.md', () => {
    const names = commands.map((c) => c.join(' '));
    for (const n of [
      'trigger',
      'events list',
      'events get',
      'subscribers search',
      'subscribers online',
      'integrations active',
      'integrations primary',
      'contexts create',
      'connections create',
      'connections update',
      'connections get',
      'endpoints list',
      'workflow get',
      'workflow preview',
      'messages mark-as',
      'messages list',
      'api',
      'login',
      'profile list',
      'profile show',
      'profile use',
      'profile remove',
      'profile add',
      'dev',
      'completion',
      'help',
    ])
      expect(names).toContain(n);
  });
  test.each([...commands, ...groups(program)].map((c) => [c.join(' ')]))('svc %s --help shows an example', async (name) => {
    const r = await runSvc([...name.split(' '), '--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Examples:');
    expect(r.stdout).toMatch(/\$ svc /);
  });
  test('svc with no arguments prints help and exits 0', async () => {
    const r = await runSvc([]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Usage: svc');
  });
  test('a group without its subcommand is a usage error', async () => {
    const r = await runSvc(['events']);
    expect(r.code).toBe(2);
  });
});

describe('global options: once, in svc help options', () => {
  test('a subcommand lists its own options and one line pointing at the global ones', async () => {
    const r = await runSvc(['trigger', '--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('--recipients-file');
    expect(r.stdout).not.toContain('--api-key');
    expect(r.stdout).not.toContain('--show-secrets');
    expect(r.stdout).toContain('Global options: see `svc help options`');
    expect(r.stdout.split('\n').length).toBeLessThan(70);
    const list = await runSvc(['events', 'list', '--help']);
    expect(list.stdout).not.toContain('--idempotency-key');
    expect(list.stdout).toContain('svc help options');
  });

  test('svc help options lists every global option', async () => {
    const r = await runSvc(['help', 'options']);
    expect(r.code).toBe(0);
    for (const flag of [
      '--output <format>',
      '--json',
      '--fields',
      '--query',
      '--dry-run',
      '--show-secrets',
      '--api-key',
      '--base-url',
      '--profile',
      '--timeout',
      '--retries',
      '--quiet',
      '--wide',
      '--utc',
    ]) {
      expect(r.stdout).toContain(flag);
    }
    for (const line of r.stdout.split('\n')) expect(line.length).toBeLessThanOrEqual(80);
  });
});
