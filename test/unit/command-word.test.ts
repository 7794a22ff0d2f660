// Which command a command line names, before commander parses it: buildProgram builds only that
// command's subtree (start-up), and the whole tree whenever the line names none.
import { describe, expect, test } from 'vitest';
import { buildProgram, commandWord } from '../../src/cli.js';

const noop = async () => undefined;
const names = (argv: string[]) => buildProgram(noop, undefined, argv).commands.map((c) => c.name());

describe('commandWord', () => {
  test.each([
    [['events', 'get', 'x'], 'events'],
    [['-o', 'json', '--profile', 'prod', 'trigger', 'welcome'], 'trigger'],
    [['--output=json', '-q', 'integrations', 'active'], 'integrations'],
    [['--fields', 'a,b', '--timeout', '5s', '--retries', '0', 'api', 'GET', '/v1/x'], 'api'],
    [['--help', 'events'], undefined],
    [['-h'], undefined],
    [['--', 'events'], undefined],
    [[], undefined],
  ])('%j names %j', (argv, word) => {
    expect(commandWord(argv)).toBe(word);
  });
});

describe('buildProgram', () => {
  test('builds only the subtree of the command named, with its subcommands', () => {
    expect(names(['events', 'get', 'x'])).toEqual(['events']);
    expect(buildProgram(noop, undefined, ['events']).commands[0]!.commands.map((c) => c.name())).toEqual(['list', 'watch', 'get', 'browse']);
    expect(names(['--profile', 'p', 'trigger', 'welcome'])).toEqual(['trigger']);
  });

  test('builds the whole tree for svc itself, an unknown command, help topics and completion', () => {
    const all = names([]);
    expect(all).toContain('events');
    expect(all).toContain('dev');
    expect(all.length).toBeGreaterThan(10);
    for (const argv of [['--help'], ['evnts'], ['completion', 'bash'], ['help', 'exit-codes'], ['__complete', 'x']]) expect(names(argv)).toEqual(all);
  });
});
