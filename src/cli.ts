// The command tree (cli.md): the global flags and the list of commands. Each command file under
// commands/ declares its own arguments, flags and examples, and its run; declarations load nothing but
// commander, so `--version`, `--help`, completion and usage errors never load zod, undici or renderers.
import { Command, Option } from 'commander';
import { durationArg, fieldsArg, idempotencyKeyArg, intArg, urlArg } from './cli-args.js';
import * as api from './commands/api.js';
import * as complete from './commands/complete.js';
import * as completion from './commands/completion.js';
import * as connectionsCreate from './commands/connections/create.js';
import * as connectionsDelete from './commands/connections/delete.js';
import * as connectionsGet from './commands/connections/get.js';
import * as connectionsList from './commands/connections/list.js';
import * as connectionsUpdate from './commands/connections/update.js';
import * as contextsCreate from './commands/contexts/create.js';
import { type AnyCommand, type CommandModule, examples, groupExamples } from './commands/define.js';
import * as dev from './commands/dev.js';
import * as endpointsCreate from './commands/endpoints/create.js';
import * as endpointsDelete from './commands/endpoints/delete.js';
import * as endpointsGet from './commands/endpoints/get.js';
import * as endpointsList from './commands/endpoints/list.js';
import * as eventsBrowse from './commands/events/browse.js';
import * as eventsGet from './commands/events/get.js';
import * as eventsList from './commands/events/list.js';
import * as eventsWatch from './commands/events/watch.js';
import * as help from './commands/help.js';
import { helpLayout } from './commands/help-layout.js';
import * as integrationsActive from './commands/integrations/active.js';
import * as integrationsCreate from './commands/integrations/create.js';
import * as integrationsDelete from './commands/integrations/delete.js';
import * as integrationsList from './commands/integrations/list.js';
import * as integrationsPrimary from './commands/integrations/primary.js';
import * as integrationsUpdate from './commands/integrations/update.js';
import * as subscribersPreferences from './commands/subscribers/preferences.js';
import * as topicsAdd from './commands/topics/add.js';
import * as topicsCreate from './commands/topics/create.js';
import * as topicsDelete from './commands/topics/delete.js';
import * as topicsGet from './commands/topics/get.js';
import * as topicsList from './commands/topics/list.js';
import * as topicsRemove from './commands/topics/remove.js';
import * as topicsSubscribers from './commands/topics/subscribers.js';
import * as login from './commands/login.js';
import * as messagesList from './commands/messages/list.js';
import * as messagesMarkAs from './commands/messages/mark-as.js';
import * as messagesWait from './commands/messages/wait.js';
import * as messagesGet from './commands/messages/get.js';
import * as profileAdd from './commands/profile/add.js';
import * as profileList from './commands/profile/list.js';
import * as profileRemove from './commands/profile/remove.js';
import * as profileShow from './commands/profile/show.js';
import * as profileUse from './commands/profile/use.js';
import * as subscribersCreate from './commands/subscribers/create.js';
import * as subscribersDelete from './commands/subscribers/delete.js';
import * as subscribersGet from './commands/subscribers/get.js';
import * as subscribersOnline from './commands/subscribers/online.js';
import * as subscribersSearch from './commands/subscribers/search.js';
import * as subscribersUpdate from './commands/subscribers/update.js';
import * as trigger from './commands/trigger.js';
import * as workflowActivate from './commands/workflow/activate.js';
import * as workflowCreate from './commands/workflow/create.js';
import * as workflowDeactivate from './commands/workflow/deactivate.js';
import * as workflowDelete from './commands/workflow/delete.js';
import * as workflowGet from './commands/workflow/get.js';
import * as workflowList from './commands/workflow/list.js';
import * as workflowPreview from './commands/workflow/preview.js';
import * as workflowSync from './commands/workflow/sync.js';
import * as workflowUpdate from './commands/workflow/update.js';

export type { CommandModule } from './commands/define.js';

type Group = { name: string; description: string; commands: Entry[] };
type Entry = CommandModule | Group;

const group = (name: string, description: string, commands: Entry[]): Group => ({ name, description, commands });

/** Every command, in the order of `svc --help`. */
const TREE: Entry[] = [
  trigger,
  group('events', 'read the activity feed of triggered events', [eventsList, eventsWatch, eventsGet, eventsBrowse]),
  group('subscribers', 'search, create, show, update and delete subscribers; set their online status', [
    subscribersSearch,
    subscribersGet,
    subscribersCreate,
    subscribersUpdate,
    subscribersDelete,
    subscribersOnline,
    subscribersPreferences,
  ]),
  group('topics', 'topics: named groups of subscribers a trigger can address', [
    topicsList,
    topicsGet,
    topicsCreate,
    topicsDelete,
    topicsAdd,
    topicsRemove,
    topicsSubscribers,
  ]),
  group('integrations', 'delivery provider integrations: list, create, update, delete, set primary', [
    integrationsActive,
    integrationsList,
    integrationsCreate,
    integrationsUpdate,
    integrationsPrimary,
    integrationsDelete,
  ]),
  group('contexts', 'typed key/value scopes', [contextsCreate]),
  group('connections', 'chat workspace authorizations (channel connections)', [
    connectionsCreate,
    connectionsUpdate,
    connectionsGet,
    connectionsList,
    connectionsDelete,
  ]),
  group('endpoints', 'concrete destinations: chat channels and users, webhooks, phones', [endpointsList, endpointsCreate, endpointsGet, endpointsDelete]),
  group('workflow', 'list, show, create, update, activate, deactivate, delete and preview workflows', [
    workflowList,
    workflowGet,
    workflowPreview,
    workflowCreate,
    workflowUpdate,
    workflowActivate,
    workflowDeactivate,
    workflowDelete,
    workflowSync,
  ]),
  group('messages', 'messages delivered to subscribers, and in-app read/seen state', [messagesMarkAs, messagesList, messagesWait, messagesGet]),
  api,
  login,
  group('profile', 'manage saved profiles (base URL and API key)', [profileAdd, profileList, profileShow, profileUse, profileRemove]),
  dev,
  completion,
  help,
  complete,
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

/** The first word of a command line that is not a global flag or its value: the command it names. */
export function commandWord(argv: readonly string[]): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    // `svc --help events` is svc's own help, which lists every command.
    if (a === '--' || a === '-h' || a === '--help') return undefined;
    if (!a.startsWith('-')) return a;
    if (VALUE_FLAGS.has(a)) i++;
  }
  return undefined;
}

/**
 * The command tree. Given the command line, only the top-level command it names is built (with its
 * subcommands): building every command's flags is start-up time a one-request command does not need.
 * Anything else (no command, an unknown one, --help of svc itself, completion) gets the whole tree.
 */
export function buildProgram(invoke: Invoke, output?: ProgramOutput, argv?: readonly string[]): Command {
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

  const attach = (parent: Command, entry: Entry, made?: Command): void => {
    if ('commands' in entry) {
      const cmd = parent.command(entry.name).description(entry.description);
      for (const e of entry.commands) attach(cmd, e);
      return;
    }
    const cmd = made ?? (entry.command() as unknown as Command);
    cmd.copyInheritedSettings(parent);
    cmd.action(async (...received: unknown[]) => {
      const opts = received[received.length - 2] as Record<string, unknown>;
      await invoke(cmd, entry, opts, received.slice(0, -2));
    });
    parent.addCommand(cmd, entry.hidden ? { hidden: true } : {});
  };
  const word = argv ? commandWord(argv) : undefined;
  let built = false;
  if (word !== undefined && !WHOLE_TREE.has(word)) {
    for (const entry of TREE) {
      if ('commands' in entry) {
        if (entry.name !== word) continue;
        attach(program, entry);
      } else {
        const cmd = entry.command() as unknown as Command;
        if (cmd.name() !== word) continue;
        attach(program, entry, cmd);
      }
      built = true;
      break;
    }
  }
  if (!built) for (const entry of TREE) attach(program, entry);
  groupExamples(program as unknown as AnyCommand);
  return program;
}
