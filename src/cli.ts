// The command tree (cli.md). Declares every command, argument and flag with an example; a command's
// module is imported only when that command runs, so `--version`, `--help`, completion and usage errors
// never load zod, undici or the renderers.
import { Argument, Command, Option } from 'commander';
import {
  CHANNELS, CHANNEL_ENDPOINT_TYPES, CONNECTION_MODES, ENDPOINT_ORDER_BY, MARK_AS, ORDER_DIRECTIONS, PROVIDER_IDS, SEVERITIES,
  SUBSCRIBER_ORDER_BY,
} from './api/enum-values.js';
import {
  booleanArg, choiceArg, choiceList, collect, durationArg, fieldsArg, idempotencyKeyArg, intArg, positiveNumberArg,
  urlArg,
} from './cli-args.js';
import type { Deps } from './deps.js';

export interface CommandModule {
  // Each module declares its own options type; commander has already parsed and checked the values.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  run(deps: Deps, opts: any, args: unknown[], command: Command): Promise<void>;
}
export type Loader = () => Promise<CommandModule>;
/** Runs a command module with the dependencies of this invocation (provided by main.ts). */
export type Invoke = (command: Command, loader: Loader, opts: Record<string, unknown>, args: unknown[]) => Promise<void>;

/** An option restricted to choices (repeatable ones also take comma lists); the choices feed help and completion. */
function choiceOption(flags: string, description: string, choices: readonly string[], repeatable = false): Option {
  const opt = new Option(flags, description).argParser((repeatable ? choiceList(choices) : choiceArg(choices)) as (v: string, p: unknown) => unknown);
  opt.argChoices = [...choices];
  return opt;
}

/** GET, POST, PUT, PATCH or DELETE, in any case. */
function methodArgument(): Argument {
  const methods = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
  const arg = new Argument('<method>', 'HTTP method').argParser((v: string) => choiceArg(methods)(v.toUpperCase()));
  arg.argChoices = methods;
  return arg;
}

/** The paging flags of a cursor list (subscribers, connections, endpoints). */
function cursorPaging(cmd: Command, orderBy: readonly string[], maxLimit?: number): Command {
  return cmd
    .option('--limit <n>', maxLimit ? `records per page, 1 to ${maxLimit}` : 'records per page', intArg(1, maxLimit))
    .option('--after <cursor>', 'cursor: records after this one')
    .option('--before <cursor>', 'cursor: records before this one')
    .addOption(choiceOption('--order-by <field>', orderBy.join(' or '), orderBy))
    .addOption(choiceOption('--order-direction <dir>', 'ASC or DESC', ORDER_DIRECTIONS))
    .option('--include-cursor', 'include the cursor record itself')
    .option('--all', 'follow every cursor to the end, streaming records');
}

/** Filters shared by the channel connection and endpoint lists. */
function channelFilters(cmd: Command): Command {
  return cmd
    .option('--subscriber <id>', 'subscriber id')
    .option('--context <type:id>', 'context key TYPE:ID (repeatable; exact set match)', collect)
    .addOption(choiceOption('--channel <channel>', 'channel', CHANNELS))
    .addOption(choiceOption('--provider <id>', 'provider id', PROVIDER_IDS))
    .option('--integration <identifier>', 'integration identifier');
}

const EXAMPLES = new WeakMap<Command, string[]>();

function examples(cmd: Command, lines: string[]): Command {
  EXAMPLES.set(cmd, lines);
  return cmd.addHelpText('after', `\nExamples:\n${lines.map((l) => `  $ ${l}`).join('\n')}\n`);
}

/** A command group's help shows the first example of each of its subcommands. */
function groupExamples(cmd: Command): void {
  for (const sub of cmd.commands) groupExamples(sub);
  if (cmd.commands.length === 0 || EXAMPLES.has(cmd)) return;
  const lines = cmd.commands.map((c) => EXAMPLES.get(c)?.[0]).filter((l): l is string => l !== undefined);
  if (lines.length) examples(cmd, lines);
}

export interface ProgramOutput {
  writeOut(s: string): void;
  writeErr(s: string): void;
}

export function buildProgram(invoke: Invoke, output?: ProgramOutput): Command {
  const program = new Command('svc');
  // Set before any subcommand is created: `.command()` copies these settings to each child.
  program.exitOverride();
  if (output) program.configureOutput({ writeOut: output.writeOut, writeErr: output.writeErr, outputError: () => undefined });

  const act = (cmd: Command, loader: Loader): Command =>
    cmd.action(async (...received: unknown[]) => {
      const command = received[received.length - 1] as Command;
      const opts = received[received.length - 2] as Record<string, unknown>;
      await invoke(command, loader, opts, received.slice(0, -2));
    });

  program
    .description('Drive the Notification Delivery Service: trigger workflows, read activity, manage integrations.\nRun `svc dev` for a local service with no account and no network.')
    .version(__SVC_VERSION__, '-V, --version', 'print the version')
    .helpOption('-h, --help', 'show help')
    .addOption(new Option('-o, --output <format>', 'output format (default: table on a terminal, else json)').choices(['table', 'json', 'ndjson', 'yaml']))
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
    .option('--api-key <key>', 'API key (env SVC_API_KEY)')
    .option('--base-url <url>', 'service base URL (env SVC_BASE_URL)', urlArg)
    .option('--profile <name>', 'profile to use (env SVC_PROFILE)')
    .configureHelp({ showGlobalOptions: true, sortSubcommands: false })
    .showHelpAfterError(false)
    .helpCommand(false);
  examples(program, [
    'svc dev                                   # start a local service (saves profile "local")',
    'svc trigger welcome --to user-1 --payload @data.json',
    'svc events list --subscriber user-1 --since 2h',
    'svc events get 6761f0c2a3b4c5d6e7f80912',
    'svc help exit-codes',
  ]);

  // --- trigger -----------------------------------------------------------------------------------------
  examples(
    act(
      program
        .command('trigger')
        .description('trigger a workflow for one or more recipients (POST /v1/events/trigger)')
        .argument('<workflow>', 'trigger identifier of the workflow')
        .option('--to <id>', 'recipient subscriber id (repeatable)', collect)
        .option('--to-json <json>', 'recipients as JSON: a subscriber object, a topic {"type":"Topic","topicKey":...}, or an array')
        .option('--payload <json>', 'payload: inline JSON, @file (.json/.yaml) or - for stdin')
        .option('--set <key=value>', 'set a payload field (repeatable; key:=<json> for non-strings, dotted keys nest)', collect)
        .option('--overrides <json>', 'provider overrides as JSON')
        .option('--transaction-id <id>', 'deduplication key (generated by the service when absent)')
        .option('--actor <id|json>', 'actor: a subscriber id or a subscriber object as JSON')
        .option('--tenant <id|json>', 'tenant: an identifier or {"identifier", "name", "data"} as JSON')
        .option('--context <type=id|json>', 'context entry TYPE=ID, or a JSON map (repeatable)', collect)
        .option('--recipients-file <file>', 'CSV (with a header) or NDJSON of recipients, - for stdin: sent in chunks')
        .option('--chunk <n>', 'recipients per trigger with --recipients-file, 1 to 100 (default 100)', intArg(1, 100))
        .option('--concurrency <n>', 'requests in flight with --recipients-file (default: adapts to the rate limits)', intArg(1, 64))
        .option('--report <file>', 'write one NDJSON line per recipient: row, subscriberId, transactionId, status, error')
        .option('--journal <file>', 'journal of acknowledged chunks (default: beside the report, or the file)')
        .option('--resume', 'continue an interrupted --recipients-file run: nobody is sent twice')
        .option('--strict', 'stop at the first bad row (a file is checked whole before anything is sent)')
        .option('--wait', 'follow the activity until every job has finished; exit 0 delivered, 9 failed, 8 pending')
        .option('--wait-timeout <duration>', 'how long --wait follows the activity (default 2m)', durationArg),
      () => import('./commands/trigger.js'),
    ),
    [
      'svc trigger welcome --to user-1',
      'svc trigger welcome --to user-1 --to user-2 --payload @data.json',
      'svc trigger otp --to-json \'{"subscriberId":"u1","phone":"+15551234567"}\' --set code=123456',
      'svc trigger incident --to user-1 --set severity:=3 --context tenant=acme --json',
      'svc trigger welcome --to user-1 --wait --wait-timeout 30s',
      'svc trigger welcome --recipients-file users.csv --report report.ndjson',
      'svc trigger welcome --recipients-file users.csv --report report.ndjson --resume   # after an interruption',
    ],
  );

  // --- events --------------------------------------------------------------------------------------------
  const events = program.command('events').description('read the activity feed of triggered events');
  const listFilters = (cmd: Command) =>
    cmd
      .addOption(choiceOption('--channel <channel>', `channel (repeatable): ${CHANNELS.join(', ')}`, CHANNELS, true))
      .option('--workflow <id>', 'workflow identifier or id (repeatable)', collect)
      .option('--email <email>', 'subscriber email (repeatable)', collect)
      .option('--subscriber <id>', 'subscriber id (repeatable)', collect)
      .addOption(choiceOption('--severity <level>', `severity (repeatable): ${SEVERITIES.join(', ')}`, SEVERITIES, true))
      .option('--transaction-id <id>', 'transaction id')
      .option('--topic-key <key>', 'topic key')
      .option('--subscription-id <id>', 'topic subscription id')
      .option('--context <type:id>', 'context key TYPE:ID (repeatable; exact set match)', collect)
      .option('--since <time>', 'events after this time: ISO 8601 or an age such as 90s, 15m, 2h, 7d')
      .option('--until <time>', 'events before this time: ISO 8601 or an age');
  examples(
    act(
      listFilters(events.command('list').description('list triggered events (GET /v1/notifications)'))
        .option('--page <n>', 'page number, from 0', intArg(0))
        .option('--limit <n>', 'events per page, 1 to 50', intArg(1, 50))
        .option('--all', 'follow every page to the end, streaming records'),
      () => import('./commands/events/list.js'),
    ),
    [
      'svc events list --subscriber user-1 --since 2h',
      'svc events list --channel email --channel sms --limit 50',
      'svc events list --all -o ndjson > events.ndjson',
    ],
  );
  examples(
    act(
      listFilters(events.command('watch').description('print new events as they arrive (polls GET /v1/notifications)'))
        .option('--interval <duration>', 'time between polls (default 2s; slower when the rate limit runs low)', durationArg),
      () => import('./commands/events/watch.js'),
    ),
    [
      'svc events watch --subscriber user-1',
      'svc events watch --workflow welcome -o ndjson | jq .transactionId',
      'svc events watch --since 2026-11-22T10:00:00Z   # continue where an earlier watch stopped',
    ],
  );
  examples(
    act(
      events
        .command('get')
        .description('show one event with every job and its execution details (GET /v1/notifications/{id})')
        .argument('<notificationId>', '24-character id of the event'),
      () => import('./commands/events/get.js'),
    ),
    ['svc events get 6761f0c2a3b4c5d6e7f80912', 'svc events get 6761f0c2a3b4c5d6e7f80912 --json | jq .jobs'],
  );

  // --- subscribers ---------------------------------------------------------------------------------------
  const subscribers = program.command('subscribers').description('search subscribers and set their online status');
  examples(
    act(
      cursorPaging(
        subscribers
          .command('search')
          .description('search subscribers; email, phone and name match partially (GET /v2/subscribers)')
          .option('--email <email>', 'email (partial, case sensitive)')
          .option('--name <name>', 'name over "first last" (partial)')
          .option('--phone <phone>', 'phone (partial)')
          .option('--subscriber-id <id>', 'subscriber id (exact)'),
        SUBSCRIBER_ORDER_BY,
      ),
      () => import('./commands/subscribers/search.js'),
    ),
    ['svc subscribers search --email @acme.com', 'svc subscribers search --name Ada --limit 5 --json'],
  );
  examples(
    act(
      subscribers
        .command('online')
        .description('set a subscriber online or offline (PATCH /v1/subscribers/{id}/online-status)')
        .argument('<subscriberId>', 'subscriber id')
        .addArgument(new Argument('<online>', 'true or false').choices(['true', 'false']).argParser(booleanArg)),
      () => import('./commands/subscribers/online.js'),
    ),
    ['svc subscribers online user-1 true', 'svc subscribers online user-1 false'],
  );

  // --- integrations --------------------------------------------------------------------------------------
  const integrations = program.command('integrations').description('delivery provider integrations');
  examples(
    act(
      integrations.command('active').description('list active integrations (GET /v1/integrations/active)'),
      () => import('./commands/integrations/active.js'),
    ),
    ['svc integrations active', 'svc integrations active --query "[?channel==\'email\'].identifier"'],
  );
  examples(
    act(
      integrations
        .command('primary')
        .description('make an email or sms integration the primary one (POST /v1/integrations/{id}/set-primary)')
        .argument('<integrationId>', 'integration _id'),
      () => import('./commands/integrations/primary.js'),
    ),
    ['svc integrations primary 6761f0c2a3b4c5d6e7f80912'],
  );

  // --- contexts ------------------------------------------------------------------------------------------
  const contexts = program.command('contexts').description('typed key/value scopes');
  examples(
    act(
      contexts
        .command('create')
        .description('create a context (POST /v2/contexts)')
        .argument('<type>', 'context type, e.g. tenant (1-100 of a-z A-Z 0-9 _ -)')
        .argument('<id>', 'context id (1-100 of a-z A-Z 0-9 _ -)')
        .option('--data <json>', 'custom data as a JSON object'),
      () => import('./commands/contexts/create.js'),
    ),
    ['svc contexts create tenant acme --data \'{"plan":"pro"}\''],
  );

  // --- channel connections --------------------------------------------------------------------------------
  const connections = program.command('connections').description('chat workspace authorizations (channel connections)');
  const tokenOptions = (cmd: Command) =>
    cmd
      .requiredOption('--workspace-id <id>', 'workspace id')
      .option('--workspace-name <name>', 'workspace name')
      .option('--access-token <token>', 'access token (visible to other users of this machine; prefer --access-token-stdin)')
      .option('--access-token-stdin', 'read the access token from stdin');
  examples(
    act(
      tokenOptions(
        connections
          .command('create')
          .description('create a channel connection (POST /v1/channel-connections)')
          .requiredOption('--integration <identifier>', 'integration identifier'),
      )
        .option('--subscriber <id>', 'subscriber to link (subscriber mode)')
        .option('--context <type=id>', 'context entry TYPE=ID (repeatable; required in shared mode)', collect)
        .addOption(new Option('--mode <mode>', 'subscriber (default) or shared').choices(CONNECTION_MODES))
        .option('--identifier <id>', 'identifier of the connection (generated when absent)'),
      () => import('./commands/connections/create.js'),
    ),
    [
      'printf %s "$SLACK_TOKEN" | svc connections create --integration slack --workspace-id T123 --subscriber user-1 --access-token-stdin',
      'svc connections create --integration slack --workspace-id T123 --mode shared --context tenant=acme --access-token-stdin < token.txt',
    ],
  );
  examples(
    act(
      tokenOptions(
        connections
          .command('update')
          .description('replace a connection\'s workspace and token (PATCH /v1/channel-connections/{identifier})')
          .argument('<identifier>', 'connection identifier'),
      ),
      () => import('./commands/connections/update.js'),
    ),
    ['svc connections update chconn_abc123def456 --workspace-id T123 --access-token-stdin < token.txt'],
  );
  examples(
    act(
      connections
        .command('get')
        .description('show a channel connection (GET /v1/channel-connections/{identifier})')
        .argument('<identifier>', 'connection identifier'),
      () => import('./commands/connections/get.js'),
    ),
    ['svc connections get chconn_abc123def456', 'svc connections get chconn_abc123def456 --show-secrets --json'],
  );
  examples(
    act(
      cursorPaging(channelFilters(connections.command('list').description('list channel connections (GET /v1/channel-connections)')), ENDPOINT_ORDER_BY, 100),
      () => import('./commands/connections/list.js'),
    ),
    ['svc connections list --subscriber user-1'],
  );
  examples(
    act(
      connections
        .command('delete')
        .description('delete a channel connection (DELETE /v1/channel-connections/{identifier})')
        .argument('<identifier>', 'connection identifier'),
      () => import('./commands/connections/delete.js'),
    ),
    ['svc connections delete chconn_abc123def456'],
  );

  // --- channel endpoints ---------------------------------------------------------------------------------
  const endpoints = program.command('endpoints').description('concrete destinations: chat channels and users, webhooks, phones');
  examples(
    act(
      cursorPaging(
        channelFilters(endpoints.command('list').description('list channel endpoints (GET /v1/channel-endpoints)'))
          .option('--connection <identifier>', 'channel connection identifier'),
        ENDPOINT_ORDER_BY,
        100,
      ),
      () => import('./commands/endpoints/list.js'),
    ),
    ['svc endpoints list --subscriber user-1 --channel chat', 'svc endpoints list --all -o ndjson'],
  );
  examples(
    act(
      endpoints
        .command('create')
        .description('create a channel endpoint (POST /v1/channel-endpoints)')
        .requiredOption('--subscriber <id>', 'subscriber id')
        .requiredOption('--integration <identifier>', 'integration identifier')
        .addOption(new Option('--type <type>', 'endpoint type').choices(CHANNEL_ENDPOINT_TYPES).makeOptionMandatory())
        .requiredOption('--endpoint <json>', 'the endpoint as JSON, e.g. {"channelId":"C123"} or {"phoneNumber":"+15551234567"}')
        .option('--connection <identifier>', 'channel connection identifier')
        .option('--context <type=id>', 'context entry TYPE=ID (repeatable)', collect)
        .option('--identifier <id>', 'identifier (generated when absent)'),
      () => import('./commands/endpoints/create.js'),
    ),
    ['svc endpoints create --subscriber user-1 --integration slack --type slack_channel --endpoint \'{"channelId":"C123"}\''],
  );
  examples(
    act(
      endpoints.command('get').description('show a channel endpoint (GET /v1/channel-endpoints/{identifier})').argument('<identifier>'),
      () => import('./commands/endpoints/get.js'),
    ),
    ['svc endpoints get chendp_abc123def456'],
  );
  examples(
    act(
      endpoints.command('delete').description('delete a channel endpoint (DELETE /v1/channel-endpoints/{identifier})').argument('<identifier>'),
      () => import('./commands/endpoints/delete.js'),
    ),
    ['svc endpoints delete chendp_abc123def456'],
  );

  // --- workflows -------------------------------------------------------------------------------------------
  const workflow = program.command('workflow').description('retrieve, create and preview workflows');
  examples(
    act(
      workflow
        .command('get')
        .description('show a workflow with its steps and issues (GET /v2/workflows/{workflowId})')
        .argument('<workflowId>', 'workflow identifier, slug or id')
        .option('--environment-id <id>', 'environment id'),
      () => import('./commands/workflow/get.js'),
    ),
    ['svc workflow get welcome', 'svc workflow get welcome --json | jq ".steps[].issues"'],
  );
  examples(
    act(
      workflow
        .command('preview')
        .description('render a step with a payload (POST /v2/workflows/{workflowId}/step/{stepId}/preview)')
        .argument('<workflowId>', 'workflow identifier')
        .argument('<stepId>', 'step identifier')
        .option('--payload <json>', 'payload: inline JSON, @file or -')
        .option('--set <key=value>', 'set a payload field (repeatable; key:=<json> for non-strings)', collect)
        .option('--subscriber <json>', 'subscriber fields as JSON, e.g. {"firstName":"Ada"}')
        .option('--controls <json>', 'control values to render instead of the saved ones')
        .option('--context <type=id|json>', 'context entry TYPE=ID, or a JSON map (repeatable)', collect),
      () => import('./commands/workflow/preview.js'),
    ),
    ['svc workflow preview welcome in-app --set name=Ada', 'svc workflow preview welcome email --payload @data.json --subscriber \'{"firstName":"Ada"}\''],
  );
  examples(
    act(
      workflow
        .command('create')
        .description('create a workflow from a definition (POST /v2/workflows)')
        .requiredOption('--data <json>', 'the workflow as JSON or YAML: inline, @file or -'),
      () => import('./commands/workflow/create.js'),
    ),
    ['svc workflow create --data @workflows/welcome.yaml'],
  );

  // --- messages --------------------------------------------------------------------------------------------
  const messages = program.command('messages').description('messages delivered to subscribers, and in-app read/seen state');
  examples(
    act(
      messages
        .command('mark-as')
        .description('mark in-app messages read, seen, unread or unseen (POST /v1/subscribers/{id}/messages/mark-as)')
        .argument('<subscriberId>', 'subscriber id')
        .addArgument(new Argument('<state>', 'read, seen, unread or unseen').choices(MARK_AS))
        .argument('<messageIds...>', 'one or more 24-character message ids'),
      () => import('./commands/messages/mark-as.js'),
    ),
    ['svc messages mark-as user-1 read 6761f0c2a3b4c5d6e7f80912', 'svc messages mark-as user-1 seen 6761f0c2a3b4c5d6e7f80912 6761f0c2a3b4c5d6e7f80913'],
  );
  examples(
    act(
      messages
        .command('list')
        .description('list messages (GET /v1/messages)')
        .option('--subscriber <id>', 'subscriber id')
        .addOption(choiceOption('--channel <channel>', 'channel', CHANNELS))
        .option('--transaction-id <id>', 'transaction id (repeatable)', collect)
        .option('--context <type:id>', 'context key TYPE:ID (repeatable)', collect)
        .option('--page <n>', 'page number, from 0', intArg(0))
        .option('--limit <n>', 'messages per page, 1 to 1000', intArg(1, 1000))
        .option('--all', 'follow every page to the end, streaming records'),
      () => import('./commands/messages/list.js'),
    ),
    ['svc messages list --subscriber user-1 --channel in_app', 'svc messages list --transaction-id 9f1c... --json'],
  );

  // --- raw API ----------------------------------------------------------------------------------------------
  examples(
    act(
      program
        .command('api')
        .description('call any operation: prints the answer as returned (envelope removed)')
        .addArgument(methodArgument())
        .argument('<path>', 'path starting with /, e.g. /v1/notifications')
        .option('--data <json>', 'request body: inline JSON, @file or -')
        .option('-f, --field <key=value>', 'query parameter (GET/DELETE) or body field (repeatable; key:=<json>)', collect)
        .option('--paginate', 'follow cursors (next) or pages (hasMore) and stream every record'),
      () => import('./commands/api.js'),
    ),
    [
      'svc api GET /v1/integrations/active',
      'svc api GET /v1/notifications -f limit=50 -f channels=email --paginate -o ndjson',
      'svc api POST /v2/contexts --data \'{"type":"tenant","id":"acme"}\'',
    ],
  );

  // --- credentials --------------------------------------------------------------------------------------------
  examples(
    act(
      program
        .command('login')
        .description('save an API key in a profile after checking it against the service')
        .option('--with-key', 'read the API key from stdin instead of prompting'),
      () => import('./commands/login.js'),
    ),
    ['svc login', 'svc login --profile eu --base-url https://eu.api.novu.co', 'printf %s "$KEY" | svc login --with-key --profile ci'],
  );
  const profile = program.command('profile').description('manage saved profiles (base URL and API key)');
  examples(
    act(
      profile
        .command('add')
        .description('add or replace a profile; --base-url and --api-key or --with-key give its values')
        .argument('<name>', 'profile name')
        .option('--with-key', 'read the API key from stdin')
        .option('--read-only', 'refuse commands that change state with this profile')
        .option('--use', 'make it the current profile'),
      () => import('./commands/profile/add.js'),
    ),
    ['svc profile add prod --base-url https://api.novu.co --with-key --read-only < key.txt', 'svc profile add local --base-url http://127.0.0.1:2999 --api-key sk_test_...'],
  );
  examples(act(profile.command('list').description('list profiles'), () => import('./commands/profile/list.js')), ['svc profile list']);
  examples(
    act(
      profile.command('show').description('show the resolved settings and where each came from').argument('[name]', 'profile to show (default: as resolved)'),
      () => import('./commands/profile/show.js'),
    ),
    ['svc profile show', 'SVC_API_KEY=sk_x svc profile show prod'],
  );
  examples(
    act(profile.command('use').description('make a profile the current one').argument('<name>'), () => import('./commands/profile/use.js')),
    ['svc profile use prod'],
  );
  examples(
    act(profile.command('remove').description('remove a profile').argument('<name>'), () => import('./commands/profile/remove.js')),
    ['svc profile remove old'],
  );

  // --- local service --------------------------------------------------------------------------------------------
  examples(
    act(
      program
        .command('dev')
        .description('run the service locally (SQLite store, demo data, real workflow engine)')
        .option('--port <n>', 'port; 0 picks a free one', intArg(0, 65535), 2999)
        .option('--host <host>', 'interface to listen on', '127.0.0.1')
        .option('--data <file>', 'SQLite store file (default: in the user data directory)')
        .option('--in-memory', 'keep everything in memory (nothing saved)')
        .option('--seed <file>', 'load workflows, integrations, subscribers... from a JSON or YAML file')
        .option('--empty', 'start without the demo data')
        .option('--rate-limit [spec]', 'enforce rate limits, e.g. trigger=60,configuration=20,global=30')
        .option('--time-scale <n>', 'make delays and digests pass N times faster', positiveNumberArg)
        .option('--allow-remote-webhooks', 'let webhooks deliver to non-loopback addresses')
        .option('--retention <duration>', 'delete activity older than this, e.g. 30d (default: keep all)')
        .option('--no-save-profile', 'do not save the "local" profile'),
      () => import('./commands/dev.js'),
    ),
    ['svc dev', 'svc dev --port 0 --in-memory', 'svc dev --data ./dev.sqlite --seed seed.yaml --time-scale 60'],
  );

  // --- shell completion and help topics ----------------------------------------------------------------------------
  examples(
    act(
      program
        .command('completion')
        .description('print the shell completion script')
        .addArgument(new Argument('<shell>', 'bash, zsh or fish').choices(['bash', 'zsh', 'fish'])),
      () => import('./commands/completion.js'),
    ),
    ['svc completion bash > /etc/bash_completion.d/svc', 'svc completion zsh > "${fpath[1]}/_svc"', 'svc completion fish > ~/.config/fish/completions/svc.fish'],
  );
  examples(
    act(
      program.command('help').description('show help for a command, or a topic: exit-codes, environment').argument('[topic...]', 'command or topic'),
      () => import('./commands/help.js'),
    ),
    ['svc help exit-codes', 'svc help environment', 'svc help events list'],
  );

  groupExamples(program);
  return program;
}

