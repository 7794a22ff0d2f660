// svc messages wait [filters] [--since T] [--wait-timeout 30s] [--extract link|otp|REGEX]
// The first message that matches, created at or after --since (by default the command's own start,
// so a test never matches an older message). Against svc dev it is told when a message is stored
// (GET /v1/svc-dev/messages/wait, held until one matches); elsewhere it polls GET /v1/messages.
// Exit 0 found, 8 when the wait ends with nothing; with --extract, stdout is the value alone.
import { CHANNELS } from '../../api/enum-values.js';
import type { Message } from '../../api/schemas/resources.js';
import type { Api } from '../../api/session.js';
import { durationArg } from '../../cli-args.js';
import { formatDuration, parseTime } from '../../core/duration.js';
import { EXIT, InterruptedError, SvcError, UsageError } from '../../core/errors.js';
import { checkId } from '../../core/input.js';
import { type Extract, extract, messageContains, parsePattern } from '../../core/message-text.js';
import type { Deps } from '../../deps.js';
import { safeText } from '../../io/safe-text.js';
import { about, choiceOption, Command, examples, helpNote, type OptsOf } from '../define.js';

const DEFAULT_WAIT_MS = 30_000;
/** The longest svc dev holds one request: well inside any client's timeout. */
const MAX_HOLD_MS = 20_000;
/** Between two looks at GET /v1/messages when the service is not svc dev. */
const POLL_MS = 1_000;
/** Pages of GET /v1/messages looked through, newest first, for matches since the start. */
const MAX_PAGES = 10;

export const command = () =>
  examples(
    helpNote(
      new Command('wait')
        .description(about('wait for a message to be delivered, and read its link or code', 'listMessages'))
        .option('--subscriber <id>', 'the recipient subscriber id')
        .option('--workflow <id>', 'the workflow identifier')
        .addOption(choiceOption('--channel <channel>', 'channel', CHANNELS))
        .option('--transaction-id <id>', 'the trigger transaction id')
        .option('--contains <text>', 'part of the subject, title or text, in any case')
        .option('--since <time>', "messages created at or after this (ISO 8601 or an age such as 5m); default: the command's start")
        .option('--wait-timeout <duration>', 'how long to wait (default 30s)', durationArg)
        .option('--extract <what>', 'print only: link (the first link), otp (the first 4-8 digit code), or a regular expression (its first group)'),
      [
        'Exit code 0 when a message matched, 8 when none did before --wait-timeout; with --extract, exit 1 when',
        'the message has no such value. Against svc dev the answer comes as the message is stored; against the',
        'hosted service GET /v1/messages is polled every second. --since defaults to the start of the command (in',
        "svc dev's own time, manual clock included):",
        'start it before the trigger, or give --since (or --transaction-id with --since 1m) to match one sent already.',
      ].join(' '),
    ),
    [
      'svc messages wait --subscriber ada --channel email --extract link',
      'svc messages wait --subscriber ada --workflow otp --extract otp --wait-timeout 10s',
      "svc messages wait --transaction-id 9f1c... --since 1m --extract 'token=([A-Za-z0-9_-]+)'",
    ],
  );

interface Filters {
  subscriberId?: string | undefined;
  workflowId?: string | undefined;
  channel?: string | undefined;
  transactionId?: string | undefined;
  contains?: string | undefined;
}

function parseExtract(value: string | undefined): Extract | undefined {
  if (value === undefined) return undefined;
  if (value === 'link' || value === 'otp') return value;
  if (value === '') throw new UsageError('--extract: expected link, otp or a regular expression');
  const re = parsePattern(value);
  if (typeof re === 'string') throw new UsageError(`--extract: not a regular expression: ${re}`);
  return re;
}

export async function run(deps: Deps, opts: OptsOf<typeof command>): Promise<void> {
  const startedAt = deps.now();
  const what = parseExtract(opts.extract);
  const filters: Filters = {
    subscriberId: opts.subscriber !== undefined ? checkId('--subscriber', opts.subscriber) : undefined,
    workflowId: opts.workflow !== undefined ? checkId('--workflow', opts.workflow) : undefined,
    channel: opts.channel,
    transactionId: opts.transactionId !== undefined ? checkId('--transaction-id', opts.transactionId) : undefined,
    contains: opts.contains,
  };
  if (filters.contains === '') throw new UsageError('--contains: must not be empty');
  if (opts.since !== undefined && parseTime(opts.since, startedAt) === undefined)
    throw new UsageError('--since: expected an ISO 8601 time (2026-11-22T10:00:00Z) or an age such as 90s, 15m, 2h');
  const timeout = opts.waitTimeout ?? DEFAULT_WAIT_MS;
  // Each held request may last MAX_HOLD_MS before its answer: the timeout per attempt allows for it.
  const api = await deps.client({ timeoutMs: deps.globals.timeout + MAX_HOLD_MS });
  const { hasExtension } = await import('../../api/local-service.js');
  const told = await hasExtension(api, 'messages.wait', { dryRun: deps.globals.dryRun });
  // The command's start in the service's time when the service says it (svc dev: a manual or scaled
  // clock is not this machine's), so that a test never misses a message nor matches an older one.
  const now = told && (await hasExtension(api, 'clock')) ? await serviceStart(deps, api, startedAt) : startedAt;
  const since = opts.since !== undefined ? parseTime(opts.since, now)! : new Date(now).toISOString();
  if (deps.io.stderr.isTTY) deps.info(`waiting up to ${formatDuration(timeout)} for a message…`);
  const deadline = performance.now() + timeout;
  const found = told ? await waitTold(api, filters, since, deadline) : await waitPolling(deps, api, filters, since, deadline);
  if (deps.globals.dryRun) return;
  if (!found) {
    throw new SvcError(
      `no message matched within ${formatDuration(timeout)} (${describe(filters, since)})`,
      'wait_timeout',
      EXIT.waitPending,
      'svc messages list shows what was delivered; --since 10m also matches messages sent before this command started',
    );
  }
  if (what === undefined) return deps.print(found, { view: 'message' });
  const value = extract(found, what);
  if (value === undefined) {
    const name = what === 'link' ? 'no link' : what === 'otp' ? 'no code of 4 to 8 digits' : `nothing that ${String(what)} matches`;
    throw new SvcError(`message ${found._id} (${found.channel}) has ${name}`, 'nothing_extracted', EXIT.failure, `svc messages get ${found._id} shows it`);
  }
  deps.io.stdout.write(`${safeText(value)}\n`);
}

/** svc dev's time at the command's start: its clock now, less the time this command has run (none on a manual clock). */
async function serviceStart(deps: Deps, api: Api, startedAt: number): Promise<number> {
  const res = await api.call<{ mode: string; now: string }>('getClock');
  const now = res ? Date.parse(res.data.now) : Number.NaN;
  if (!Number.isFinite(now)) return startedAt;
  return res!.data.mode === 'manual' ? now : now - Math.max(0, deps.now() - startedAt);
}

function describe(f: Filters, since: string): string {
  const parts = Object.entries(f)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k} ${JSON.stringify(v)}`);
  return [...parts, `since ${since}`].join(', ');
}

/** svc dev: each request is held until a matching message is stored, or the hold ends. */
async function waitTold(api: Api, f: Filters, since: string, deadline: number): Promise<Message | undefined> {
  for (;;) {
    const hold = Math.max(0, Math.min(MAX_HOLD_MS, Math.round(deadline - performance.now())));
    const res = await api.call<Message | null>('waitForMessage', { query: { ...f, since, holdMs: hold } });
    if (res?.data) return res.data;
    if (!res || performance.now() >= deadline) return undefined;
  }
}

/** Elsewhere: GET /v1/messages, newest first, every second; the oldest match since `since`. */
async function waitPolling(deps: Deps, api: Api, f: Filters, since: string, deadline: number): Promise<Message | undefined> {
  const sinceMs = Date.parse(since);
  for (;;) {
    const found = await lookOnce(api, f, sinceMs);
    if (found !== null) return found;
    const left = deadline - performance.now();
    if (left <= 0) return undefined;
    try {
      await process.getBuiltinModule('node:timers/promises').setTimeout(Math.min(POLL_MS, left), undefined, { signal: deps.signal });
    } catch (e) {
      if (deps.signal.aborted) throw new InterruptedError('interrupted while waiting for a message');
      throw e;
    }
  }
}

/** The oldest matching message since `sinceMs`, null when there is none yet, undefined on a dry run. */
async function lookOnce(api: Api, f: Filters, sinceMs: number): Promise<Message | undefined | null> {
  let oldest: Message | null = null;
  for (let page = 0; page < MAX_PAGES; page++) {
    const query = { subscriberId: f.subscriberId, channel: f.channel, transactionId: f.transactionId ? [f.transactionId] : undefined, page, limit: 100 };
    const res = await api.call<{ data: Message[]; hasMore?: boolean }>('listMessages', { query });
    if (!res) return undefined;
    let older = false;
    for (const m of res.data.data) {
      if (Date.parse(m.createdAt) < sinceMs) {
        older = true;
        break;
      }
      if (f.workflowId !== undefined && m.templateIdentifier !== f.workflowId) continue;
      if (f.contains !== undefined && !messageContains(m, f.contains)) continue;
      oldest = m;
    }
    if (older || !res.data.hasMore || res.data.data.length === 0) break;
  }
  return oldest;
}
