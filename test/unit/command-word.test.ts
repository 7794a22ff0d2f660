// Which command a command line names, before commander parses it: buildProgram loads and builds only
// that command (of a group, only the subcommand named), and the whole tree whenever the line names none.
import { describe, expect, test } from 'vitest';
import type { Command } from 'commander';
import { buildProgram, commandWord } from '../../src/cli.js';

const noop = async () => undefined;
const tree = (c: Command): unknown => (c.commands.length ? Object.fromEntries(c.commands.map((s) => [s.name(), tree(s)])) : true);
const built = async (argv: string[]) => tree(await buildProgram(noop, undefined, argv));

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
  test('builds only the command named; of a group, only the subcommand named', async () => {
    expect(await built(['events', 'get', 'x'])).toEqual({ events: { get: true } });
    expect(await built(['-o', 'json', 'integrations', '--profile', 'p', 'active'])).toEqual({ integrations: { active: true } });
    expect(await built(['events', 'get', '--help'])).toEqual({ events: { get: true } });
    expect(await built(['--profile', 'p', 'trigger', 'welcome'])).toEqual({ trigger: true });
    expect(await built(['subscribers', 'credentials', 'set', 'ada'])).toEqual({ subscribers: { credentials: { set: true, remove: true } } });
  });

  test('a group without a subcommand it knows gets all of them (its help, the suggestion for a typo)', async () => {
    expect(await built(['events'])).toEqual({ events: { list: true, watch: true, get: true, browse: true } });
    expect(await built(['events', 'gte', 'x'])).toEqual({ events: { list: true, watch: true, get: true, browse: true } });
    expect(await built(['events', '--help'])).toEqual({ events: { list: true, watch: true, get: true, browse: true } });
  });

  test('builds the whole tree for svc itself, an unknown command, help topics and completion', async () => {
    const all = (await built([])) as Record<string, unknown>;
    expect(Object.keys(all)).toContain('events');
    expect(Object.keys(all)).toContain('dev');
    expect(Object.keys(all).length).toBeGreaterThan(10);
    for (const argv of [['--help'], ['evnts'], ['completion', 'bash'], ['help', 'exit-codes'], ['__complete', 'x']]) expect(await built(argv)).toEqual(all);
  });

  test("every entry of the tree names its file's command", async () => {
    // Built whole, then each command alone by its own name: the same declaration either way.
    const all = (await built([])) as Record<string, true | Record<string, true>>;
    for (const [name, sub] of Object.entries(all)) {
      // These read the whole tree whenever they run.
      if (['completion', 'help', '__complete'].includes(name)) continue;
      if (sub === true) expect(await built([name])).toEqual({ [name]: true });
      // A group inside a group (`subscribers credentials`) comes whole.
      else for (const leaf of Object.keys(sub)) expect(await built([name, leaf])).toEqual({ [name]: { [leaf]: sub[leaf] } });
    }
  });
});
