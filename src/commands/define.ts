// What every command file uses to declare itself: commander with typed options (the types of
// @commander-js/extra-typings over the one commander runtime, so that `opts` is inferred from the flags
// and nothing but commander loads for --help), the flag sets several commands share, examples, and help
// text that names the operation from the route table. Cheap to import: no zod, no undici.
import { Argument as BaseArgument, Command as BaseCommand, Option as BaseOption } from 'commander';
import type * as Typed from '@commander-js/extra-typings';
import {
  CHANNELS, ORDER_DIRECTIONS, PROVIDER_IDS,
} from '../api/enum-values.js';
import { type RouteName, routeLabel } from '../api/routes.js';
import { choiceArg, choiceList, collect, intArg } from '../cli-args.js';
import type { Deps } from '../deps.js';

export const Command = BaseCommand as unknown as typeof Typed.Command;
export type Command<A extends unknown[] = [], O extends Typed.OptionValues = {}> = Typed.Command<A, O>;
export const Option = BaseOption as unknown as typeof Typed.Option;
export const Argument = BaseArgument as unknown as typeof Typed.Argument;
export type AnyCommand = Typed.CommandUnknownOpts;

/** A command file: its declaration (a new Command each time) and what it does. */
export interface CommandModule {
  command(): AnyCommand;
  run(deps: Deps, opts: never, args: never, command: AnyCommand): Promise<void>;
}

/** The option values a declaration infers. */
export type OptsOf<F extends () => AnyCommand> = ReturnType<ReturnType<F>['opts']>;
/** The positional arguments a declaration infers, after their parsers. */
export type ArgsOf<F extends () => AnyCommand> = ReturnType<F>['processedArgs'];

/** "list triggered events (GET /v1/notifications)": the method and path come from the route table. */
export function about(what: string, route: RouteName, how = ''): string {
  return `${what} (${how}${routeLabel(route)})`;
}

const EXAMPLES = new WeakMap<object, string[]>();

export function examples<C extends AnyCommand>(cmd: C, lines: string[]): C {
  EXAMPLES.set(cmd, lines);
  cmd.addHelpText('after', `\nExamples:\n${lines.map((l) => `  $ ${l}`).join('\n')}\n`);
  return cmd;
}

/** A command group's help shows the first example of each of its subcommands. */
export function groupExamples(cmd: AnyCommand): void {
  for (const sub of cmd.commands) groupExamples(sub);
  if (cmd.commands.length === 0 || EXAMPLES.has(cmd)) return;
  const lines = cmd.commands.map((c) => EXAMPLES.get(c)?.[0]).filter((l): l is string => l !== undefined);
  if (lines.length) examples(cmd, lines);
}

/** An option restricted to choices; the choices feed help and completion. */
export function choiceOption<const F extends string>(flags: F, description: string, choices: readonly string[]) {
  const opt = new Option(flags, description).argParser(choiceArg(choices));
  opt.argChoices = [...choices];
  return opt;
}

/** A repeatable option restricted to choices; also takes comma lists. */
export function choicesOption<const F extends string>(flags: F, description: string, choices: readonly string[]) {
  const opt = new Option(flags, description).argParser(choiceList(choices));
  opt.argChoices = [...choices];
  return opt;
}

/** The paging flags of a cursor list (subscribers, connections, endpoints). */
export function cursorPaging<A extends unknown[], O extends Typed.OptionValues>(cmd: Command<A, O>, orderBy: readonly string[], maxLimit?: number) {
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
export function channelFilters<A extends unknown[], O extends Typed.OptionValues>(cmd: Command<A, O>) {
  return cmd
    .option('--subscriber <id>', 'subscriber id')
    .option('--context <type:id>', 'context key TYPE:ID (repeatable; exact set match)', collect)
    .addOption(choiceOption('--channel <channel>', 'channel', CHANNELS))
    .addOption(choiceOption('--provider <id>', 'provider id', PROVIDER_IDS))
    .option('--integration <identifier>', 'integration identifier');
}
