// The command tree (cli.md): the global flags and the list of commands. Each command file under
// commands/ declares its own arguments, flags and examples, and its run. A command file is loaded only
// when the command line names it (or names none, for help and completion, which show every command), and
// declarations load nothing but commander, so `--help`, completion and usage errors never load zod,
// undici or renderers.
import { Command, Option } from 'commander';
import { durationArg, fieldsArg, idempotencyKeyArg, intArg, urlArg } from './cli-args.js';
import { type AnyCommand, type CommandModule, examples, groupExamples } from './commands/define.js';
import { helpLayout } from './commands/help-layout.js';

/** A command: its name, and its file, loaded when the command line names it (with commands of its own under it: `svc dev clock`). */
type Leaf = { name: string; load: () => Promise<CommandModule>; subcommands?: Entry[] };
type Group = { name: string; description: string; commands: Entry[] };
type Entry = Leaf | Group;

const cmd = (name: string, load: () => Promise<CommandModule>, subcommands?: Entry[]): Leaf => ({ name, load, ...(subcommands && { subcommands }) });

/** The entry with its file (or its commands' files) being loaded now: many files load together, not one after another. */
function loading<E extends Entry>(e: E): E {
  if ('commands' in e) return { ...e, commands: e.commands.map(loading) };
  const file = e.load();
  return { ...e, load: () => file, ...(e.subcommands && { subcommands: e.subcommands.map(loading) }) };
}
const group = (name: string, description: string, commands: Entry[]): Group => ({ name, description, commands });

/** Every command, in the order of `svc --help`. */
const TREE: Entry[] = [
  cmd('trigger', () => import('./commands/trigger.js')),
  group('events', 'read the activity feed of triggered events', [
    cmd('list', () => import('./commands/events/list.js')),
    cmd('watch', () => import('./commands/events/watch.js')),
    cmd('get', () => import('./commands/events/get.js')),
    cmd('browse', () => import('./commands/events/browse.js')),
  ]),
  group('subscribers', 'search, create, show, update and delete subscribers; set their online status', [
    cmd('search', () => import('./commands/subscribers/search.js')),
    cmd('get', () => import('./commands/subscribers/get.js')),
    cmd('create', () => import('./commands/subscribers/create.js')),
    cmd('update', () => import('./commands/subscribers/update.js')),
    cmd('delete', () => import('./commands/subscribers/delete.js')),
    cmd('online', () => import('./commands/subscribers/online.js')),
    cmd('preferences', () => import('./commands/subscribers/preferences.js')),
    group('credentials', "a subscriber's device tokens and chat webhook URLs, per provider", [
      cmd('set', () => import('./commands/subscribers/credentials/set.js')),
      cmd('remove', () => import('./commands/subscribers/credentials/remove.js')),
    ]),
  ]),
  group('topics', 'topics: named groups of subscribers a trigger can address', [
    cmd('list', () => import('./commands/topics/list.js')),
    cmd('get', () => import('./commands/topics/get.js')),
    cmd('create', () => import('./commands/topics/create.js')),
    cmd('delete', () => import('./commands/topics/delete.js')),
    cmd('add', () => import('./commands/topics/add.js')),
    cmd('remove', () => import('./commands/topics/remove.js')),
    cmd('subscribers', () => import('./commands/topics/subscribers.js')),
  ]),
  group('integrations', 'delivery provider integrations: list, create, update, delete, set primary', [
    cmd('active', () => import('./commands/integrations/active.js')),
    cmd('list', () => import('./commands/integrations/list.js')),
    cmd('create', () => import('./commands/integrations/create.js')),
    cmd('update', () => import('./commands/integrations/update.js')),
    cmd('primary', () => import('./commands/integrations/primary.js')),
    cmd('delete', () => import('./commands/integrations/delete.js')),
  ]),
  group('layouts', 'email layouts: list, show, create, update, delete, preview', [
    cmd('list', () => import('./commands/layouts/list.js')),
    cmd('get', () => import('./commands/layouts/get.js')),
    cmd('create', () => import('./commands/layouts/create.js')),
    cmd('update', () => import('./commands/layouts/update.js')),
    cmd('delete', () => import('./commands/layouts/delete.js')),
    cmd('preview', () => import('./commands/layouts/preview.js')),
  ]),
  group('contexts', 'typed key/value scopes', [cmd('create', () => import('./commands/contexts/create.js'))]),
  group('connections', 'chat workspace authorizations (channel connections)', [
    cmd('create', () => import('./commands/connections/create.js')),
    cmd('update', () => import('./commands/connections/update.js')),
    cmd('get', () => import('./commands/connections/get.js')),
    cmd('list', () => import('./commands/connections/list.js')),
    cmd('delete', () => import('./commands/connections/delete.js')),
  ]),
  group('endpoints', 'concrete destinations: chat channels and users, webhooks, phones', [
    cmd('list', () => import('./commands/endpoints/list.js')),
    cmd('create', () => import('./commands/endpoints/create.js')),
    cmd('get', () => import('./commands/endpoints/get.js')),
    cmd('delete', () => import('./commands/endpoints/delete.js')),
  ]),
  group('workflow', 'list, show, create, update, activate, deactivate, delete and preview workflows', [
    cmd('list', () => import('./commands/workflow/list.js')),
    cmd('get', () => import('./commands/workflow/get.js')),
    cmd('preview', () => import('./commands/workflow/preview.js')),
    cmd('create', () => import('./commands/workflow/create.js')),
    cmd('update', () => import('./commands/workflow/update.js')),
    cmd('activate', () => import('./commands/workflow/activate.js')),
    cmd('deactivate', () => import('./commands/workflow/deactivate.js')),
    cmd('delete', () => import('./commands/workflow/delete.js')),
    cmd('sync', () => import('./commands/workflow/sync.js')),
  ]),
  group('messages', 'messages delivered to subscribers, and in-app read/seen state', [
    cmd('mark-as', () => import('./commands/messages/mark-as.js')),
    cmd('list', () => import('./commands/messages/list.js')),
    cmd('wait', () => import('./commands/messages/wait.js')),
    cmd('get', () => import('./commands/messages/get.js')),
  ]),
  group('environments', "the organisation's environments: list, diff, publish; create and delete (svc dev only)", [
    cmd('list', () => import('./commands/environments/list.js')),
    cmd('create', () => import('./commands/environments/create.js')),
    cmd('delete', () => import('./commands/environments/delete.js')),
    cmd('diff', () => import('./commands/environments/diff.js')),
    cmd('publish', () => import('./commands/environments/publish.js')),
  ]),
  group('translations', "workflows' texts per locale: pull them to files, push them back", [
    cmd('pull', () => import('./commands/translations/pull.js')),
    cmd('push', () => import('./commands/translations/push.js')),
  ]),
  cmd('api', () => import('./commands/api.js')),
  cmd('login', () => import('./commands/login.js')),
  group('profile', 'manage saved profiles (base URL and API key)', [
    cmd('add', () => import('./commands/profile/add.js')),
    cmd('list', () => import('./commands/profile/list.js')),
    cmd('show', () => import('./commands/profile/show.js')),
    cmd('use', () => import('./commands/profile/use.js')),
    cmd('remove', () => import('./commands/profile/remove.js')),
  ]),
  cmd('dev', () => import('./commands/dev.js'), [
    cmd('clock', () => import('./commands/dev/clock.js'), [cmd('advance', () => import('./commands/dev/clock-advance.js'))]),
    cmd('reset', () => import('./commands/dev/reset.js')),
    group('snapshot', 'the whole store of svc dev as one file: save it, load it', [
      cmd('save', () => import('./commands/dev/snapshot-save.js')),
      cmd('load', () => import('./commands/dev/snapshot-load.js')),
    ]),
  ]),
  cmd('completion', () => import('./commands/completion.js')),
  cmd('help', () => import('./commands/help.js')),
  cmd('__complete', () => import('./commands/complete.js')),
];

/** Runs a command with the dependencies of this invocation (provided by main.ts). */
export type Invoke = (command: Command, module: CommandModule, opts: Record<string, unknown>, args: unknown[]) => Promise<void>;

interface ProgramOutput {
  writeOut(s: string): void;
  writeErr(s: string): void;
  /** The width help is laid out for: the terminal's, or undefined (80) when not a terminal. */
  outWidth?(): number | undefined;
  errWidth?(): number | undefined;
}

/** Global flags that take a value: the word after one is not a command name. */
const VALUE_FLAGS = new Set(['-o', '--output', '--fields', '--query', '--idempotency-key', '--timeout', '--retries', '--api-key', '--base-url', '--profile']);
/** Commands that read the whole tree (completion scripts, help topics). */
const WHOLE_TREE = new Set(['completion', '__complete', 'help']);

/** The words of a command line that are not global flags or their values: the command it names first. */
function commandWords(argv: readonly string[]): string[] {
  const words: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    // `svc --help events` is svc's own help, which lists every command; after `--` come arguments.
    if (a === '--' || ((a === '-h' || a === '--help') && words.length === 0)) break;
    if (!a.startsWith('-')) words.push(a);
    else if (VALUE_FLAGS.has(a)) i++;
    if (words.length === 2) break;
  }
  return words;
}

/** The first word of a command line that is not a global flag or its value: the command it names. */
export function commandWord(argv: readonly string[]): string | undefined {
  return commandWords(argv)[0];
}

/**
 * The command tree. Given the command line, only the command it names is loaded and built (a group with
 * the one subcommand named): loading and declaring every command is start-up time a one-request command
 * does not need. Anything else (no command, an unknown one, --help of svc itself, completion) gets the
 * whole tree.
 */
export async function buildProgram(invoke: Invoke, output?: ProgramOutput, argv?: readonly string[]): Promise<Command> {
  const program = new Command('svc');
  // Set before any subcommand is attached: each child copies them.
  program.exitOverride();
  if (output)
    program.configureOutput({
      writeOut: output.writeOut,
      writeErr: output.writeErr,
      outputError: () => undefined,
      // commander takes undefined as "not a terminal" (its own default does the same).
      ...(output.outWidth ? { getOutHelpWidth: output.outWidth as () => number } : {}),
      ...(output.errWidth ? { getErrHelpWidth: output.errWidth as () => number } : {}),
    });
  program
    .description(
      'Drive the Notification Delivery Service: trigger workflows, read activity, manage integrations.\nRun `svc dev` for a local service with no account and no network.',
    )
    .version(__SVC_VERSION__, '-V, --version', 'print the version')
    .helpOption('-h, --help', 'show help')
    .addOption(
      new Option(
        '-o, --output <format>',
        'output format: table (the default on a terminal), json (the default otherwise), ndjson, yaml, or tsv (plain tab-separated values for shell loops; -q drops the header)',
      ).choices(['table', 'json', 'ndjson', 'yaml', 'tsv']),
    )
    .option('--json', 'same as -o json')
    .option('--fields <paths>', 'keep only these comma-separated dot paths (columns in tables)', fieldsArg)
    .option('--query <expr>', 'JMESPath expression applied to the JSON result')
    .option('--dry-run', 'validate and print the request instead of sending it')
    .option('--show-secrets', 'print access tokens and credentials the service returns (masked otherwise)')
    .option('--idempotency-key <key>', 'idempotency key for POST/PATCH (generated when absent)', idempotencyKeyArg)
    .addOption(new Option('--timeout <duration>', 'timeout per attempt, e.g. 500ms, 10s, 2m').argParser(durationArg).default(30_000, '30s'))
    .option('--retries <n>', 'retries on network errors, 408, 429 and 5xx', intArg(0, 10), 3)
    .option('--debug', 'trace HTTP requests on stderr (secrets masked)')
    .option('--no-color', 'disable colour (also NO_COLOR)')
    .option('--no-input', 'never prompt (also when not a terminal or CI is set)')
    .option('-q, --quiet', 'print nothing but the requested data')
    .option('--wide', 'tables: every column, whole (not fitted to the terminal)')
    .option('--utc', 'times in UTC (Z) rather than local time with its offset')
    .option('--api-key <key>', 'API key (env SVC_API_KEY)')
    .option('--base-url <url>', 'service base URL (env SVC_BASE_URL)', urlArg)
    .option('--profile <name>', 'profile to use (env SVC_PROFILE)')
    .configureHelp(helpLayout)
    .showHelpAfterError(false)
    .helpCommand(false);
  examples(program as unknown as AnyCommand, [
    'svc dev                                   # start a local service (saves profile "local")',
    'svc trigger welcome --to ada --payload @data.json',
    'svc events list --subscriber ada --since 2h',
    'svc events get 6761f0c2a3b4c5d6e7f80912',
    'svc help exit-codes',
  ]);

  const attach = async (parent: Command, entry: Leaf, subword?: string): Promise<void> => {
    const mod = await entry.load();
    const cmd = mod.command() as unknown as Command;
    cmd.copyInheritedSettings(parent);
    cmd.action(async (...received: unknown[]) => {
      const opts = received[received.length - 2] as Record<string, unknown>;
      await invoke(cmd, mod, opts, received.slice(0, -2));
    });
    parent.addCommand(cmd, mod.hidden ? { hidden: true } : {});
    if (entry.subcommands) {
      // The one named (`svc dev clock`), or all of them (`svc dev --help`, completion).
      const sub = entry.subcommands.find((c) => c.name === subword);
      await attachAll(cmd, sub ? [sub] : entry.subcommands.map(loading));
    }
  };
  const attachAll = async (parent: Command, entries: Entry[]): Promise<void> => {
    for (const e of entries) {
      if ('commands' in e) await attachAll(parent.command(e.name).description(e.description), e.commands);
      else await attach(parent, e);
    }
  };
  const [word, subword] = argv ? commandWords(argv) : [];
  const named = word !== undefined && !WHOLE_TREE.has(word) ? TREE.find((e) => e.name === word) : undefined;
  if (!named) await attachAll(program, TREE.map(loading));
  else if (!('commands' in named)) await attach(program, named, subword);
  else {
    // A group: only the subcommand named, or all of them (for its help, or a suggestion for a typo).
    const groupCmd = program.command(named.name).description(named.description);
    const sub = named.commands.find((c) => c.name === subword);
    // A group inside the group (`subscribers credentials`) is small: all of its commands.
    await (sub && !('commands' in sub) ? attach(groupCmd, sub) : attachAll(groupCmd, (sub ? [sub] : named.commands).map(loading)));
  }
  groupExamples(program as unknown as AnyCommand);
  return program;
}
