// One invocation: parses the command line, runs the command with this invocation's dependencies, and is
// the only place where errors become messages and exit codes (cli.md, "Exit codes").
import { CommanderError, type Command } from 'commander';
import { buildProgram, type Invoke } from './cli.js';
import { createRuntime, type Runtime } from './runtime.js';
import { EXIT, SvcError } from './core/errors.js';
import { hideUrlCredentialsIn, maskData } from './core/mask.js';
import { escapeChar, safeJson, safeText, UNSAFE_RE } from './io/safe-text.js';
import type { GlobalOptions, IO } from './deps.js';
import { checkQuery } from './io/output.js';
import { checkFieldsBeforeSending } from './io/fields.js';
import { stoppedServiceHint } from './config/profiles.js';

export interface Host {
  io: IO;
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** Installs SIGINT/SIGTERM handlers (the real process only). */
  handleSignals: boolean;
  /** Aborting it acts as Ctrl-C (tests of long-running commands). */
  signal?: AbortSignal;
}

function rootOf(cmd: Command): Command {
  let c = cmd;
  while (c.parent) c = c.parent;
  return c;
}

function commandPath(cmd: Command): string {
  const names: string[] = [];
  for (let c: Command | null = cmd; c?.parent; c = c.parent) names.unshift(c.name());
  return names.join(' ');
}

function globalsOf(cmd: Command): GlobalOptions {
  const root = rootOf(cmd);
  const o = root.opts();
  const g: GlobalOptions = { timeout: o.timeout as number, retries: o.retries as number };
  if (o.output) g.output = o.output;
  if (o.json) g.json = true;
  if (o.fields) g.fields = o.fields;
  if (o.query !== undefined) g.query = o.query;
  if (o.dryRun) g.dryRun = true;
  if (o.showSecrets) g.showSecrets = true;
  if (o.idempotencyKey !== undefined) g.idempotencyKey = o.idempotencyKey;
  if (o.debug) g.debug = true;
  if (root.getOptionValueSource('color') === 'cli') g.color = false;
  if (root.getOptionValueSource('input') === 'cli') g.input = false;
  if (o.quiet) g.quiet = true;
  if (o.wide) g.wide = true;
  if (o.utc) g.utc = true;
  if (o.apiKey !== undefined) g.apiKey = o.apiKey;
  if (o.baseUrl !== undefined) g.baseUrl = o.baseUrl;
  if (o.profile !== undefined) g.profile = o.profile;
  return g;
}

/**
 * A command may declare a flag a global flag also has (cli.md: `svc workflow list --query Q` searches,
 * while the global `--query` is JMESPath). Commander hands such a flag to the root wherever it appears;
 * written after the command's name it is the command's own, so it moves there from the globals.
 */
function claimShadowed(command: Command, argv: string[], globals: GlobalOptions, opts: Record<string, unknown>): void {
  const root = rootOf(command);
  if (root === command) return;
  const names = commandPath(command).split(' ');
  let at = -1;
  for (let i = 0, k = 0; i < argv.length && k < names.length; i++) if (argv[i] === names[k]) k++, (at = i);
  for (const own of command.options) {
    const key = own.attributeName();
    const global = root.options.find((o) => o.long === own.long);
    if (!global || !own.long || root.getOptionValueSource(key) !== 'cli') continue;
    const after = argv.slice(at + 1);
    const end = after.indexOf('--');
    const written = (end < 0 ? after : after.slice(0, end)).some((a) => a === own.long || a.startsWith(`${own.long}=`));
    if (!written) continue;
    opts[key] = root.getOptionValue(key);
    delete (globals as unknown as Record<string, unknown>)[key];
  }
}

/** Whether the user asked for JSON output, read from argv so it works even when parsing failed. */
function wantsJsonErrors(argv: string[]): boolean {
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--') break;
    if (a === '--json' || a === '--output=json' || a === '-ojson') return true;
    if ((a === '-o' || a === '--output') && argv[i + 1] === 'json') return true;
  }
  return false;
}

export async function execute(argv: string[], host: Host): Promise<number> {
  const { io } = host;
  const controller = new AbortController();
  let interrupts = 0;
  const onSignal = () => {
    interrupts++;
    if (interrupts > 1) process.exit(EXIT.interrupted);
    controller.abort();
  };
  if (host.handleSignals) {
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  }
  // A host's signal that fired before this line (while modules loaded) has no abort event left to send.
  if (host.signal?.aborted) controller.abort();
  else host.signal?.addEventListener('abort', () => controller.abort(), { once: true });

  let runtime: Runtime | undefined;
  const invoke: Invoke = async (command, mod, opts, args) => {
    const globals = globalsOf(command);
    claimShadowed(command, argv, globals, opts);
    runtime = createRuntime({
      io,
      env: host.env,
      globals,
      commandPath: commandPath(command),
      signal: controller.signal,
      cwd: host.cwd,
    });
    // --query is applied when the answer is printed; a bad expression must fail before anything is sent.
    if (runtime.globals.query !== undefined) await checkQuery(runtime.globals.query);
    // So is a --fields name the resource a write prints does not have (a typo creates nothing).
    checkFieldsBeforeSending(runtime.globals.fields, runtime.commandPath, opts, { dryRun: Boolean(runtime.globals.dryRun), format: runtime.format() });
    await mod.run(runtime, opts as never, args as never, command as never).catch((e: unknown) => {
      throw withStoppedServiceHint(e, runtime!);
    });
  };

  let program: Command | undefined;
  try {
    // In the try: a command's file that cannot be loaded (a damaged install) is reported as any error is.
    program = await buildProgram(
      invoke,
      {
        writeOut: (s) => io.stdout.write(s),
        // commander's own errors quote the argument given (a --base-url with a password in it).
        writeErr: (s) => io.stderr.write(hideUrlCredentialsIn(s)),
        outWidth: () => (io.stdout.isTTY ? io.stdout.columns : undefined),
        errWidth: () => (io.stderr.isTTY ? io.stderr.columns : undefined),
      },
      argv,
    );
    if (argv.length === 0) {
      program.outputHelp();
      return EXIT.ok;
    }
    await program.parseAsync(argv, { from: 'user' });
    return EXIT.ok;
  } catch (err) {
    return report(err, argv, io, runtime?.globals.debug ?? argv.includes('--debug'), program, typedSecrets(argv, host.env));
  } finally {
    if (host.handleSignals) {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    }
    await runtime?.dispose();
  }
}

/** The command an argv names, as far as it names one (for "Run 'svc events list --help'"). */
function commandNamed(program: Command, argv: string[]): string {
  let cmd = program;
  const names: string[] = [];
  for (const word of argv) {
    if (word.startsWith('-')) continue;
    const next = cmd.commands.find((c) => c.name() === word);
    if (!next) break;
    names.push(word);
    cmd = next;
  }
  return names.join(' ');
}

/** A value the user typed, inside a message: its control characters shown as escapes, never acted on. */
function escapeControls(s: string): string {
  return safeText(s);
}

/** cli.md: an error is one line. A list of problems becomes `a: x; b: y`. */
function oneLine(s: string): string {
  return (
    s
      .trim()
      .replace(/:\s*\n\s*/g, ': ')
      .replace(/\s*\n\s*/g, '; ')
      // Service text quoted in a message (a provider's error, a name) is shown, never acted on.
      .replace(UNSAFE_RE, escapeChar)
  );
}

/**
 * Keys and tokens the user gave: the key in the environment, and whatever follows --api-key or
 * --access-token on the command line, even where commander read it as something else (in
 * `--idempotency-key --api-key KEY` the key becomes a stray argument that an error would quote).
 */
function typedSecrets(argv: string[], env: NodeJS.ProcessEnv): string[] {
  const out = env.SVC_API_KEY ? [env.SVC_API_KEY] : [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--') break;
    for (const flag of ['--api-key', '--access-token']) {
      if (a === flag && argv[i + 1] !== undefined) out.push(argv[i + 1]!);
      else if (a.startsWith(`${flag}=`)) out.push(a.slice(flag.length + 1));
    }
  }
  return out.filter((s) => s.length >= 4 && !s.startsWith('-'));
}

function report(err: unknown, argv: string[], io: IO, debug: boolean, program: Command | undefined, secrets: string[] = []): number {
  const json = wantsJsonErrors(argv);
  const scrub = (s: string) => hideUrlCredentialsIn(String(maskData(s, { knownSecrets: secrets })));
  const emit = (code: string, message: string, exitCode: number, extra: Record<string, unknown> = {}, hint?: string) => {
    // One line, always (cli.md): a hint follows the message on the same line.
    if (json) io.stderr.write(`${safeJson(scrub(JSON.stringify({ error: { code, message, ...extra, ...(hint ? { hint } : {}) } })))}\n`);
    else io.stderr.write(`error: ${scrub(oneLine(message))}${hint ? `; ${scrub(oneLine(hint.charAt(0).toLowerCase() + hint.slice(1)))}` : ''}\n`);
    return exitCode;
  };

  if (err instanceof CommanderError) {
    if (err.exitCode === 0) return EXIT.ok;
    // A command group run without a subcommand: commander has printed its help on stderr already.
    if (err.code === 'commander.help') return EXIT.usage;
    // commander quotes the argument it refused as typed, newlines and all, and adds its suggestion on
    // a line of its own.
    const message = escapeControls(
      err.message.replace(/^error: /, '').replace(/\n\((Did you mean [^)]*)\)/, (_, m: string) => ` (${m.charAt(0).toLowerCase()}${m.slice(1)})`),
    ).replace(/\.$/, '');
    const cmd = program ? commandNamed(program, argv) : '';
    return emit('usage', message, EXIT.usage, {}, `see 'svc ${cmd ? `${cmd} ` : ''}--help'`);
  }
  if (err instanceof SvcError) {
    // An ending the command has already told the person about (Ctrl-C on a watch): its exit code, no error line.
    if ((err as { said?: boolean }).said === true) return err.exitCode;
    if (debug && err.stack) io.stderr.write(`${safeText(scrub(err.stack), { newlines: true })}\n`);
    // A person's own choice (a confirmation declined with Ctrl-C) ends the command with its exit code,
    // but it is not an error: the line says what happened, without "error:".
    if ((err as { notAnError?: boolean }).notAnError === true && !json) {
      io.stderr.write(`${scrub(oneLine(err.message))}\n`);
      return err.exitCode;
    }
    const { code: _code, message: _message, ...extra } = err.toJSON();
    return emit(err.code, err.message, err.exitCode, extra, err.hint);
  }
  // Anything else is a bug in svc: say so plainly, with the stack only under --debug.
  const e = err as Error;
  if (debug && e?.stack) io.stderr.write(`${safeText(scrub(e.stack), { newlines: true })}\n`);
  return emit('internal', `internal error: ${e?.message ?? String(err)}${debug ? '' : ' (run with --debug for details)'}`, EXIT.failure);
}

/** A refused connection to the local service: say how to start it (unless the command said more). */
function withStoppedServiceHint(e: unknown, runtime: Runtime): unknown {
  if (!(e instanceof SvcError) || e.code !== 'network_error' || e.hint || !/could not reach .*connection refused/.test(e.message)) return e;
  try {
    const hint = stoppedServiceHint(runtime.settings());
    return hint ? e.withHint(hint) : e;
  } catch {
    return e;
  }
}
