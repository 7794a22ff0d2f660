// Help laid out for the terminal it is shown on: no line wider than the terminal, examples
// broken between words (a long command continues with a backslash, so it still pastes into a shell), a
// comment that does not fit moved above its command, and no option listing dozens of choices.
import { PassThrough, Readable } from 'node:stream';
import { describe, expect, test } from 'vitest';
import type { Command } from 'commander';
import { buildProgram } from '../../src/cli.js';
import { exampleLines } from '../../src/commands/define.js';
import { main } from '../../src/main.js';
import { runSvc, tempConfigDir } from '../helpers/run.js';

/** `svc ARGV` with stdout a terminal of `columns` columns. */
async function helpAt(argv: string[], columns: number): Promise<string> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  stdout.on('data', (c: Buffer) => (out += c.toString()));
  Object.assign(stdout, { isTTY: true, columns });
  const code = await main(argv, {
    io: { stdout, stderr, stdin: Readable.from([]) },
    env: { PATH: process.env.PATH, NO_COLOR: '1', SVC_CONFIG_DIR: tempConfigDir() },
    cwd: process.cwd(),
    handleSignals: false,
  });
  expect(code).toBe(0);
  return out;
}

function all(cmd: Command, path: string[] = []): string[][] {
  return [path, ...cmd.commands.flatMap((c) => all(c, [...path, c.name()]))];
}

const commands = all(await buildProgram(async () => undefined));

describe('help at the width of the terminal', () => {
  test.each([60, 80])('every command at %i columns: no line wider, examples broken between words', async (columns) => {
    for (const path of commands) {
      const text = await helpAt([...path, '--help'], columns);
      const lines = text.split('\n');
      for (const line of lines) expect(line.length, `svc ${path.join(' ')} --help: ${line}`).toBeLessThanOrEqual(columns);
      const examples = lines.slice(lines.indexOf('Examples:') + 1).filter(Boolean);
      expect(examples.length, `svc ${path.join(' ')}`).toBeGreaterThan(0);
      // An example line is a command, a comment, or the continuation of the command above (which ends with \).
      examples.forEach((l, i) => {
        if (l.startsWith('  $ ') || l.startsWith('  # ')) return;
        expect(l.startsWith('      '), `svc ${path.join(' ')}: ${l}`).toBe(true);
        expect(examples[i - 1]!.endsWith(' \\'), `svc ${path.join(' ')}: ${examples[i - 1]}`).toBe(true);
      });
    }
  });

  test.each(['exit-codes', 'environment', 'options', 'providers'])('svc help %s fits 80 columns', async (topic) => {
    const text = await helpAt(['help', topic], 80);
    for (const line of text.split('\n')) expect(line.length, `svc help ${topic}: ${line}`).toBeLessThanOrEqual(80);
  });

  test('a long example continues on the next line with a backslash, a flag kept with its value', () => {
    const lines = exampleLines('svc connections create --integration slack --workspace-id T123 --mode shared --access-token-stdin', 60);
    expect(lines).toEqual(['  $ svc connections create --integration slack \\', '      --workspace-id T123 --mode shared \\', '      --access-token-stdin']);
    // Rejoined, it is the same command.
    expect(lines.map((l) => l.replace(/^\s+\$?\s*/, '').replace(/ \\$/, '')).join(' ')).toBe(
      'svc connections create --integration slack --workspace-id T123 --mode shared --access-token-stdin',
    );
  });

  test('a comment that does not fit beside its command goes above it', () => {
    expect(exampleLines('svc events get 3f1c2a4e-9b7d-4c1e-8a2f-5d6e7f809123   # a transaction: every recipient', 80)).toEqual([
      '  # a transaction: every recipient',
      '  $ svc events get 3f1c2a4e-9b7d-4c1e-8a2f-5d6e7f809123',
    ]);
    expect(exampleLines('svc dev   # local', 80)).toEqual(['  $ svc dev   # local']);
  });

  test('a quoted argument is never broken', () => {
    const lines = exampleLines(`svc trigger otp --to-json '{"subscriberId":"u1","phone":"+15551234567"}' --set code=123456`, 60);
    expect(lines.some((l) => l.includes(`'{"subscriberId":"u1","phone":"+15551234567"}'`))).toBe(true);
  });
});

describe('choices in help', () => {
  test('connections list --help does not dump the provider ids; svc help providers lists them', async () => {
    const help = await runSvc(['connections', 'list', '--help']);
    expect(help.stdout).toMatch(/--provider <id> +provider id \(one of \d+; Tab completes/);
    expect(help.stdout).not.toContain('mailgun');
    const topic = await runSvc(['help', 'providers']);
    expect(topic.code).toBe(0);
    expect(topic.stdout).toContain('mailgun');
    expect(topic.stdout).toContain('sendgrid');
  });

  test('choices are listed once, not again after a description that names them', async () => {
    const help = await runSvc(['events', 'list', '--help']);
    expect(help.stdout).not.toContain('(choices:');
    expect(help.stdout).toMatch(/--channel <channel> +channel \(repeatable\): in_app, email, sms, chat, push\n/);
  });

  test('a wrong provider id names the flag and the closest ids, on one line', async () => {
    const r = await runSvc(['connections', 'list', '--provider', 'sendgird'], { env: { SVC_API_KEY: 'sk_test_x', SVC_BASE_URL: 'http://127.0.0.1:9' } });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("'--provider <id>'");
    expect(r.stderr).toContain('sendgrid');
    expect(r.stderr).not.toContain('mailgun');
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });
});
