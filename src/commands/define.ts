// What every command file uses to declare itself: commander with typed options (the types of
// @commander-js/extra-typings over the one commander runtime, so that `opts` is inferred from the flags
// and nothing but commander loads for --help), the flag sets several commands share, examples, and help
// text that names the operation from the route table. Cheap to import: no zod, no undici.
import { Argument as BaseArgument, Command as BaseCommand, Option as BaseOption } from 'commander';
import type * as Typed from '@commander-js/extra-typings';
import { CHANNELS, ORDER_DIRECTIONS, PROVIDER_IDS } from '../api/enum-values.js';
import { type RouteName, routeLabel } from '../api/routes.js';
import { choiceArg, choiceList, collect, intArg } from '../cli-args.js';
import type { Deps } from '../deps.js';

export const Command = BaseCommand as unknown as typeof Typed.Command;
// biome-ignore lint/complexity/noBannedTypes: `{}` is extra-typings' own default for "no options yet"
export type Command<A extends unknown[] = [], O extends Typed.OptionValues = {}> = Typed.Command<A, O>;
export const Option = BaseOption as unknown as typeof Typed.Option;
export const Argument = BaseArgument as unknown as typeof Typed.Argument;
export type AnyCommand = Typed.CommandUnknownOpts;

/** A command file: its declaration (a new Command each time) and what it does. */
export interface CommandModule {
  command(): AnyCommand;
  /** Left out of help and completion (a command the completion scripts call). */
  hidden?: boolean;
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
  // Laid out when shown, for the width of the terminal it is shown on (80 when not a terminal).
  cmd.addHelpText('after', ({ error, command }) => {
    const out = command.configureOutput();
    const width = (error ? out.getErrHelpWidth?.() : out.getOutHelpWidth?.()) || 80;
    return `\nExamples:\n${lines.flatMap((l) => exampleLines(l, width)).join('\n')}\n`;
  });
  return cmd;
}

/** A paragraph after a command's options in its help, wrapped for the terminal it is shown on. */
export function helpNote<C extends AnyCommand>(cmd: C, text: string): C {
  cmd.addHelpText('after', ({ error, command }) => {
    const out = command.configureOutput();
    const width = (error ? out.getErrHelpWidth?.() : out.getOutHelpWidth?.()) || 80;
    return `\n${wrapWords(text, width).join('\n')}`;
  });
  return cmd;
}

/** A command line's words, a quoted string being one word. */
function shellWords(s: string): string[] {
  return s.match(/(?:'[^']*'|"(?:\\.|[^"\\])*"|[^\s'"])+/g) ?? [];
}

/**
 * One example laid out for `width` columns, never cut inside a word: a comment that does not fit
 * beside the command goes on a line of its own above it, and a command too long for one line
 * continues on the next with a trailing backslash (so it still pastes into a shell), a flag kept with
 * its value.
 */
export function exampleLines(example: string, width: number): string[] {
  const m = /^(.*?\S)\s{2,}# (.*)$/.exec(example);
  const commandText = m ? m[1]! : example;
  const comment = m ? m[2]! : undefined;
  const first = '  $ ';
  const cont = '      ';
  if (`${first}${example}`.length <= width) return [`${first}${example}`];
  const out: string[] = [];
  if (comment !== undefined) out.push(...wrapWords(comment, width - 4).map((l) => `  # ${l}`));
  if (`${first}${commandText}`.length <= width) return [...out, `${first}${commandText}`];
  // Units: a flag with its value stays on one line.
  const words = shellWords(commandText);
  const units: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    const next = words[i + 1];
    if (/^-/.test(w) && !w.includes('=') && next !== undefined && !/^[-|<>]/.test(next)) {
      units.push(`${w} ${next}`);
      i++;
    } else units.push(w);
  }
  let line = first;
  // A flag and its value too long for a line of their own go on two.
  for (const u of units.flatMap((u) => (`${cont}${u} \\`.length > width && u.includes(' ') ? shellWords(u) : [u]))) {
    const prefix = line === first || line === cont ? line : `${line} `;
    // Room for " \\" at the end of every line but the last.
    if (line !== first && line !== cont && `${prefix}${u} \\`.length > width) {
      out.push(`${line} \\`);
      line = `${cont}${u}`;
    } else line = `${prefix}${u}`;
  }
  out.push(line);
  return out;
}

/** Words of `text` in lines of at most `width` characters (a longer word stays whole on its line). */
export function wrapWords(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const w of text.split(/\s+/).filter(Boolean)) {
    if (line && `${line} ${w}`.length > width) {
      lines.push(line);
      line = w;
    } else line = line ? `${line} ${w}` : w;
  }
  if (line) lines.push(line);
  return lines;
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
