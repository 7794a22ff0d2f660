// svc completion bash|zsh|fish: completion scripts generated from the command tree itself, so commands,
// subcommands, flags and enum values (channels, markAs, providers...) can never drift from the CLI.
// completions/ holds the same scripts; a test fails when they are out of date.
// Values the tree cannot know come from `svc __complete` at Tab time (commands/complete.ts): profile
// names for --profile, workflow ids and subscriber ids from the local cache. A value starting with @
// (a JSON flag's file) completes as a file name and keeps its @.
import type { Argument, Command, Option } from 'commander';
import type { Deps } from '../deps.js';
import { Argument as TypedArgument, type AnyCommand, type ArgsOf, Command as TypedCommand, examples, type OptsOf } from './define.js';

export const command = () =>
  examples(
    new TypedCommand('completion')
      .description('print the shell completion script')
      .addArgument(new TypedArgument('<shell>', 'bash, zsh or fish').choices(['bash', 'zsh', 'fish'] as const)),
    [
      'svc completion bash > /etc/bash_completion.d/svc',
      'svc completion zsh > "${fpath[1]}/_svc"',
      'svc completion fish > ~/.config/fish/completions/svc.fish',
    ],
  );

/** What `svc __complete` offers. */
type Dynamic = 'profiles' | 'workflows' | 'subscribers';

interface OptionModel {
  flags: string[];
  takesValue: boolean;
  choices?: string[];
  dynamic?: Dynamic;
  description: string;
}
interface NodeModel {
  /** Space-separated command path; '' for the root. */
  path: string;
  subcommands: { name: string; description: string }[];
  options: OptionModel[];
  /** Choices of each positional argument (empty when free text). */
  args: string[][];
  /** What `svc __complete` offers for each positional argument, if anything. */
  argKinds: (Dynamic | undefined)[];
}

/** Options whose values are ids or names svc can list. */
function optionKind(o: Option): Dynamic | undefined {
  if (o.long === '--profile') return 'profiles';
  if (o.long === '--workflow') return 'workflows';
  if (o.long === '--to' || o.long === '--subscriber') return 'subscribers';
  return undefined;
}

function argKind(a: Argument): Dynamic | undefined {
  const name = a.name();
  if (name === 'workflowId' || name === 'workflow') return 'workflows';
  if (name === 'subscriberId') return 'subscribers';
  return undefined;
}

/**
 * The values an option takes: its declared choices, else those its parser names when it refuses a value
 * ("expected one of a, b, c"): a flag that checks its value against a list completes that list, whether
 * the list was declared with `.choices()` or is checked by a parser of its own.
 */
export function choicesOf(o: Option): string[] | undefined {
  if (o.argChoices) return [...o.argChoices];
  if (!o.required || !o.parseArg) return undefined;
  try {
    o.parseArg('\u0000svc-no-such-value', undefined as never);
  } catch (e) {
    const m = /\bone of:?\s+([^"]+?)(?:[,;]?\s+got\b|\.?$)/i.exec((e as Error).message ?? '');
    if (!m) return undefined;
    const values = m[1]!
      .split(/,\s*|\s+or\s+/)
      .map((v) => v.trim())
      .filter(Boolean);
    return values.length > 0 && values.every((v) => /^[\w.:@/+-]+$/.test(v)) ? values : undefined;
  }
  return undefined;
}

function optionModel(o: Option): OptionModel {
  const flags = [o.short, o.long].filter((f): f is string => Boolean(f));
  const choices = choicesOf(o);
  return {
    flags,
    takesValue: Boolean(o.required),
    ...(choices ? { choices } : {}),
    ...(optionKind(o) ? { dynamic: optionKind(o)! } : {}),
    description: o.description,
  };
}

/** Subcommands shown to people (not the hidden __complete, nor commander's implicit `help` of a group). */
const visible = (cmd: Command) =>
  cmd
    .createHelp()
    .visibleCommands(cmd)
    .filter((c) => cmd.commands.includes(c));

function modelOf(root: Command): NodeModel[] {
  const out: NodeModel[] = [];
  const walk = (cmd: Command, path: string) => {
    out.push({
      path,
      subcommands: visible(cmd).map((c) => ({ name: c.name(), description: c.description() })),
      // -h/--help is everywhere: offered once, with the root's options that every command shares.
      options: [...cmd.options.map(optionModel), ...(path ? [] : [{ flags: ['-h', '--help'], takesValue: false, description: 'show help' }])],
      args: (cmd.registeredArguments as readonly Argument[]).map((a) => (a.argChoices ? [...a.argChoices] : [])),
      argKinds: (cmd.registeredArguments as readonly Argument[]).map(argKind),
    });
    for (const c of visible(cmd)) walk(c, path ? `${path} ${c.name()}` : c.name());
  };
  walk(root, '');
  return out;
}

const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
const words = (xs: string[]) => xs.join(' ');

/** Options that take a value, across every node (global options included). */
function valueFlags(nodes: NodeModel[]): string[] {
  const set = new Set<string>();
  for (const n of nodes) for (const o of n.options) if (o.takesValue) for (const f of o.flags) set.add(f);
  return [...set].sort();
}

/**
 * The loop body both bash and zsh use to find where the user is in the tree: option values are
 * skipped, subcommand names descend, anything else counts as a positional argument.
 */
function walkCases(nodes: NodeModel[]): string[] {
  const lines = [
    '    case "$w" in',
    `      ${valueFlags(nodes).join('|')}) ((i++)); continue ;;`,
    '      -*) continue ;;',
    '    esac',
    '    case "$node/$w" in',
  ];
  for (const n of nodes) {
    for (const s of n.subcommands) {
      const next = n.path ? `${n.path} ${s.name}` : s.name;
      lines.push(`      ${q(`${n.path}/${s.name}`)}) node=${q(next)}; npos=0 ;;`);
    }
  }
  lines.push('      *) ((npos++)) ;;', '    esac');
  return lines;
}

/** `case "$node/$prev"` arms completing an option's value from its choices. */
function choiceCases(nodes: NodeModel[], action: (choices: string[]) => string): string[] {
  const globals = nodes.find((n) => n.path === '')!.options;
  const lines: string[] = [];
  for (const n of nodes) {
    for (const o of [...n.options, ...(n.path ? globals : [])]) {
      if (!o.takesValue || !o.choices) continue;
      lines.push(`    ${o.flags.map((f) => q(`${n.path}/${f}`)).join('|')}) ${action(o.choices)} ;;`);
    }
  }
  return lines;
}

/** `case "$node/$prev"` arms completing an option's value with `svc __complete`. */
function dynamicCases(nodes: NodeModel[], action: (kind: Dynamic) => string): string[] {
  const globals = nodes.find((n) => n.path === '')!.options;
  const lines: string[] = [];
  for (const n of nodes) {
    for (const o of [...n.options, ...(n.path ? globals : [])]) {
      if (!o.takesValue || !o.dynamic) continue;
      lines.push(`    ${o.flags.map((f) => q(`${n.path}/${f}`)).join('|')}) ${action(o.dynamic)} ;;`);
    }
  }
  return lines;
}

const SVC_COMPLETE = (kind: Dynamic) => `svc __complete ${kind} 2>/dev/null`;

export function bash(nodes: NodeModel[]): string {
  const root = nodes.find((n) => n.path === '')!;
  const globals = root.options;
  const lines: string[] = [];
  lines.push('# bash completion for svc (generated by `svc completion bash`; do not edit)');
  lines.push('_svc_complete() {');
  lines.push('  local cur="${COMP_WORDS[COMP_CWORD]}" prev="${COMP_WORDS[COMP_CWORD-1]}"');
  lines.push('  local node="" i w npos=0');
  // A JSON flag's @file: complete the file name and keep the @. The candidates carry the @ whether or
  // not COMP_WORDBREAKS holds it: where it does, bash's readline still hands the @ over as part of the
  // text it replaces (@ is one of its "special prefixes"), so a bare name would drop it.
  // The --flag=@file form: readline replaces what follows the = when COMP_WORDBREAKS holds it (the
  // default), else the whole word, flag included.
  lines.push('  local word="${COMP_LINE:0:COMP_POINT}" pre=""; word="${word##*[[:space:]]}"');
  lines.push('  if [[ "$word" == -*=@* ]]; then');
  lines.push('    [[ "$COMP_WORDBREAKS" == *=* ]] || pre="${word%%=*}="');
  lines.push('    word="${word#*=}"');
  lines.push('  fi');
  lines.push('  if [[ "$word" == @* ]]; then');
  lines.push('    local f; COMPREPLY=()');
  lines.push('    while IFS= read -r f; do [[ -d "$f" ]] && f="$f/"; COMPREPLY+=("$pre@$f"); done < <(compgen -f -- "${word#@}")');
  lines.push('    compopt -o nospace 2>/dev/null; return');
  lines.push('  fi');
  lines.push('  for ((i = 1; i < COMP_CWORD; i++)); do');
  lines.push('    w="${COMP_WORDS[i]}"');
  lines.push(...walkCases(nodes));
  lines.push('  done');
  lines.push('  local choices=""');
  lines.push(
    '  case "$node/$prev" in',
    ...choiceCases(nodes, (c) => `choices=${q(words(c))}`),
    ...dynamicCases(nodes, (k) => `COMPREPLY=($(compgen -W "$(${SVC_COMPLETE(k)})" -- "$cur")); return`),
    '  esac',
  );
  lines.push('  if [[ -n "$choices" ]]; then COMPREPLY=($(compgen -W "$choices" -- "$cur")); return; fi');
  lines.push('  case "$prev" in');
  lines.push(`    ${valueFlags(nodes).join('|')}) COMPREPLY=($(compgen -f -- "$cur")); return ;;`);
  lines.push('  esac');
  lines.push('  case "$node" in');
  for (const n of nodes) {
    const opts = words([...n.options, ...(n.path ? globals : [])].flatMap((o) => o.flags));
    const subs = words(n.subcommands.map((s) => s.name));
    lines.push(`    ${q(n.path)})`);
    lines.push(`      if [[ "$cur" == -* ]]; then COMPREPLY=($(compgen -W ${q(opts)} -- "$cur")); return; fi`);
    if (subs) lines.push(`      COMPREPLY=($(compgen -W ${q(subs)} -- "$cur")); return ;;`);
    else {
      const argCases = n.args
        .map((c, i) => {
          if (c.length) return `${i}) COMPREPLY=($(compgen -W ${q(words(c))} -- "$cur")); return ;;`;
          const k = n.argKinds[i];
          return k ? `${i}) COMPREPLY=($(compgen -W "$(${SVC_COMPLETE(k)})" -- "$cur")); return ;;` : '';
        })
        .filter(Boolean);
      if (argCases.length) lines.push(`      case "$npos" in ${argCases.join(' ')} esac`);
      lines.push('      COMPREPLY=($(compgen -f -- "$cur")); return ;;');
    }
  }
  lines.push('  esac');
  lines.push('}');
  lines.push('complete -o default -F _svc_complete svc');
  return `${lines.join('\n')}\n`;
}

/** zsh: a native completion function; the same walk as bash, with descriptions. */
export function zsh(nodes: NodeModel[]): string {
  const root = nodes.find((n) => n.path === '')!;
  const globals = root.options;
  const esc = (s: string) => s.replace(/\\/g, '\\\\').replace(/'/g, `'\\''`).replace(/:/g, '\\:');
  const lines: string[] = [];
  lines.push('#compdef svc');
  lines.push('# zsh completion for svc (generated by `svc completion zsh`; do not edit)');
  lines.push('_svc() {');
  lines.push('  local node="" w i npos=0 prev="${words[CURRENT-1]}"');
  // A JSON flag's @file: the @ moves out of what is completed, so it stays.
  lines.push('  if [[ "$PREFIX" == @* ]]; then compset -P @; _files; return; fi');
  lines.push('  for ((i = 2; i < CURRENT; i++)); do');
  lines.push('    w="${words[i]}"');
  lines.push(...walkCases(nodes));
  lines.push('  done');
  lines.push(
    '  case "$node/$prev" in',
    ...choiceCases(nodes, (c) => `compadd -- ${c.map(q).join(' ')}; return`),
    ...dynamicCases(nodes, (k) => `compadd -- \${(f)"$(${SVC_COMPLETE(k)})"}; return`),
    '  esac',
  );
  lines.push('  case "$prev" in');
  lines.push(`    ${valueFlags(nodes).join('|')}) _files; return ;;`);
  lines.push('  esac');
  lines.push('  local -a items');
  lines.push('  case "$node" in');
  for (const n of nodes) {
    lines.push(`    ${q(n.path)})`);
    const opts = [...n.options, ...(n.path ? globals : [])].flatMap((o) => o.flags.map((f) => `'${esc(f)}:${esc(o.description)}'`));
    lines.push(`      if [[ "$PREFIX" == -* ]]; then items=(${opts.join(' ')}); _describe option items; return; fi`);
    if (n.subcommands.length) {
      lines.push(`      items=(${n.subcommands.map((s) => `'${esc(s.name)}:${esc(s.description)}'`).join(' ')}); _describe command items; return ;;`);
    } else {
      const argCases = n.args
        .map((c, i) => {
          if (c.length) return `${i}) compadd -- ${c.map(q).join(' ')}; return ;;`;
          const k = n.argKinds[i];
          return k ? `${i}) compadd -- \${(f)"$(${SVC_COMPLETE(k)})"}; return ;;` : '';
        })
        .filter(Boolean);
      if (argCases.length) lines.push(`      case "$npos" in ${argCases.join(' ')} esac`);
      lines.push('      _files; return ;;');
    }
  }
  lines.push('  esac');
  lines.push('}');
  lines.push('compdef _svc svc');
  return `${lines.join('\n')}\n`;
}

export function fish(nodes: NodeModel[]): string {
  const root = nodes.find((n) => n.path === '')!;
  const lines: string[] = [];
  lines.push('# fish completion for svc (generated by `svc completion fish`; do not edit)');
  lines.push('function __svc_node --description "the svc command path typed so far"');
  lines.push('    set -l tokens (commandline -opc)');
  lines.push('    set -l node ""');
  lines.push('    set -l skip 0');
  lines.push('    for w in $tokens[2..-1]');
  lines.push('        if test $skip -eq 1; set skip 0; continue; end');
  lines.push(`        if contains -- $w ${valueFlags(nodes).join(' ')}; set skip 1; continue; end`);
  lines.push('        if string match -q -- "-*" $w; continue; end');
  lines.push('        switch "$node/$w"');
  for (const n of nodes) {
    for (const s of n.subcommands) {
      const next = n.path ? `${n.path} ${s.name}` : s.name;
      lines.push(`            case ${q(`${n.path}/${s.name}`)}`);
      lines.push(`                set node ${q(next)}`);
    }
  }
  lines.push('        end');
  lines.push('    end');
  lines.push('    echo $node');
  lines.push('end');
  lines.push('complete -c svc -f');
  // A JSON flag's @file: file names with the @ kept.
  lines.push('function __svc_at_files --description "file names after an @"');
  lines.push('    set -l tok (commandline -ct)');
  lines.push("    string match -q -- '@*' $tok; or return");
  lines.push('    for f in (__fish_complete_path (string sub -s 2 -- $tok))');
  lines.push('        echo "@$f"');
  lines.push('    end');
  lines.push('end');
  lines.push(`complete -c svc -n ${q("string match -q -- '@*' (commandline -ct)")} -f -a '(__svc_at_files)'`);
  const fishDesc = (s: string) => q(s.split('\n')[0]!);
  for (const o of root.options) lines.push(fishOption('', o, true, fishDesc));
  for (const n of nodes) {
    const cond = `test (__svc_node) = ${q(n.path)}`;
    for (const s of n.subcommands) lines.push(`complete -c svc -n ${q(cond)} -a ${q(s.name)} -d ${fishDesc(s.description)}`);
    if (n.path) for (const o of n.options) lines.push(fishOption(cond, o, false, fishDesc));
    n.args.forEach((choices, i) => {
      if (choices.length) lines.push(`complete -c svc -n ${q(cond)} -a ${q(words(choices))}`);
      else if (n.argKinds[i]) lines.push(`complete -c svc -n ${q(cond)} -a ${q(`(${SVC_COMPLETE(n.argKinds[i]!)})`)}`);
    });
  }
  return `${lines.join('\n')}\n`;
}

function fishOption(cond: string, o: OptionModel, global: boolean, desc: (s: string) => string): string {
  const parts = ['complete -c svc'];
  if (!global && cond) parts.push(`-n ${q(cond)}`);
  for (const f of o.flags) parts.push(f.startsWith('--') ? `-l ${f.slice(2)}` : `-s ${f.slice(1)}`);
  if (o.takesValue)
    parts.push(o.choices ? `-x -a ${q(words(o.choices))}` : o.dynamic ? `-x -a ${q(`(${SVC_COMPLETE(o.dynamic)})`)}` : `-r -F -a ${q('(__svc_at_files)')}`);
  parts.push(`-d ${desc(o.description)}`);
  return parts.join(' ');
}

const GENERATORS = { bash, zsh, fish } as const;

export async function run(deps: Deps, _opts: OptsOf<typeof command>, [shell]: ArgsOf<typeof command>, self: AnyCommand): Promise<void> {
  let root = self as unknown as Command;
  while (root.parent) root = root.parent;
  deps.io.stdout.write(GENERATORS[shell](modelOf(root)));
}
