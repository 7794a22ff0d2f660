// svc trigger WORKFLOW --to ID ... → POST /v1/events/trigger
import type { Deps } from '../deps.js';
import { TriggerNotProcessedError, UsageError } from '../core/errors.js';
import { formatDuration } from '../core/duration.js';
import { checkId, isPlainObject } from '../core/input.js';
import { parseOrUsage, flagLabels } from '../core/validate.js';
import { operations } from '../api/operations.js';
import { call } from '../api/call.js';
import { MAX_RECIPIENTS, TriggerBody, type TriggerResult } from '../api/schemas/requests.js';
import { contextMap, payloadFrom } from './shared.js';

export interface TriggerOptions {
  to?: string[];
  toJson?: string;
  payload?: string;
  set?: string[];
  overrides?: string;
  transactionId?: string;
  actor?: string;
  tenant?: string;
  context?: string[];
  recipientsFile?: string;
  chunk?: number;
  concurrency?: number;
  resume?: boolean;
  report?: string;
  journal?: string;
  strict?: boolean;
  wait?: boolean;
  waitTimeout?: number;
}

const looksLikeJson = (v: string) => /^\s*[{[]/.test(v) || v.startsWith('@') || v === '-';

/** A flag that takes an id or a JSON object (--actor, --tenant). */
async function idOrObject(deps: Deps, flag: string, value: string | undefined): Promise<unknown> {
  if (value === undefined) return undefined;
  if (!looksLikeJson(value)) return checkId(flag, value);
  const v = await deps.input.json(flag, value);
  if (!isPlainObject(v)) throw new UsageError(`${flag}: expected an id or a JSON object`);
  return v;
}

async function recipients(deps: Deps, opts: TriggerOptions): Promise<unknown[]> {
  const to: unknown[] = (opts.to ?? []).map((id) => checkId('--to', id));
  if (opts.toJson !== undefined) {
    const v = await deps.input.json('--to-json', opts.toJson);
    if (Array.isArray(v)) to.push(...v);
    else to.push(v);
  }
  if (to.length === 0 && deps.interactive()) {
    const { askText } = await import('../io/prompt.js');
    const answer = await askText(deps, 'Recipients (subscriber ids, separated by spaces or commas):', {
      validate: (v) => (v.split(/[\s,]+/).filter(Boolean).length > 0 ? true : 'give at least one subscriber id'),
    });
    to.push(...answer.split(/[\s,]+/).filter(Boolean).map((id) => checkId('recipient', id)));
  }
  if (to.length === 0) throw new UsageError('missing recipients: give --to ID (repeatable) or --to-json JSON');
  if (to.length > MAX_RECIPIENTS) {
    throw new UsageError(`--to: at most ${MAX_RECIPIENTS} recipients per trigger (got ${to.length}); use --recipients-file for more`);
  }
  return to;
}

export function buildLabels(): (path: string) => string {
  const base = flagLabels({
    name: 'WORKFLOW', payload: '--payload', overrides: '--overrides', transactionId: '--transaction-id',
    actor: '--actor', tenant: '--tenant', context: '--context',
  });
  return (path) => {
    const m = /^to(?:\[(\d+)\])?\.?(.*)$/.exec(path);
    if (m) return `--to/--to-json recipient ${m[1] !== undefined ? Number(m[1]) + 1 : ''}${m[2] ? ` ${m[2]}` : ''}`.replace(/ +/g, ' ').trim();
    return base(path);
  };
}

const BULK_ONLY = ['chunk', 'concurrency', 'resume', 'report', 'journal', 'strict'] as const;
const DEFAULT_WAIT_MS = 120_000;

/** How many notifications the trigger will make, when the recipients say (topics fan out unknowably). */
function expectedRecipients(to: unknown[]): number | undefined {
  const ids = new Set<string>();
  for (const r of to) {
    if (typeof r === 'string') ids.add(r);
    else if (r && typeof r === 'object' && 'subscriberId' in r) ids.add(String((r as { subscriberId: unknown }).subscriberId));
    else return undefined;
  }
  return ids.size;
}

export async function run(deps: Deps, opts: TriggerOptions, args: unknown[]): Promise<void> {
  const workflow = checkId('WORKFLOW', String(args[0]));
  if (opts.recipientsFile !== undefined) {
    if (opts.wait) throw new UsageError('--wait cannot be used with --recipients-file: follow a run with svc events watch');
    return bulk(deps, workflow, opts);
  }
  if (opts.waitTimeout !== undefined && !opts.wait) throw new UsageError('--wait-timeout only applies with --wait');
  const extra = BULK_ONLY.filter((k) => opts[k] !== undefined);
  if (extra.length) throw new UsageError(`--${extra[0]!.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)} only applies with --recipients-file`);
  const body: Record<string, unknown> = { name: workflow, to: await recipients(deps, opts) };
  const payload = await payloadFrom(deps, opts.payload, opts.set);
  if (payload) body.payload = payload;
  if (opts.overrides !== undefined) body.overrides = await deps.input.jsonObject('--overrides', opts.overrides);
  if (opts.transactionId !== undefined) body.transactionId = checkId('--transaction-id', opts.transactionId);
  const actor = await idOrObject(deps, '--actor', opts.actor);
  if (actor !== undefined) body.actor = actor;
  const tenant = await idOrObject(deps, '--tenant', opts.tenant);
  if (tenant !== undefined) body.tenant = tenant;
  const context = await contextMap(deps, '--context', opts.context);
  if (context) body.context = context;

  const valid = parseOrUsage(TriggerBody, body, buildLabels());
  const res = await call<TriggerResult>(deps, operations.triggerEvent, { body: valid });
  if (!res) return;
  const result = res.data;
  const processed = Boolean(result && typeof result === 'object' && result.status === 'processed');
  if (!opts.wait || !processed || !result.transactionId) {
    await deps.print(result, { view: 'trigger' });
    if (!processed) throw new TriggerNotProcessedError(String(result?.status), result?.error, result);
    return;
  }
  const timeout = opts.waitTimeout ?? DEFAULT_WAIT_MS;
  deps.info(`triggered (transaction ${result.transactionId}); waiting up to ${formatDuration(timeout)} for delivery…`);
  const { waitForTransaction, checkOutcome } = await import('./wait.js');
  const waited = await waitForTransaction(deps, result.transactionId, expectedRecipients(valid.to as unknown[]), timeout);
  await deps.print({ trigger: result, ...waited }, { view: 'wait' });
  checkOutcome(waited, timeout);
  const merged = waited.recipients.filter((r) => r.outcome === 'merged').length;
  if (merged) deps.info(`${merged} recipient(s) merged into a digest already under way: they are sent with it when its window closes`);
}

/** --recipients-file: the fields every chunk shares are checked once here, then the run streams the file. */
async function bulk(deps: Deps, workflow: string, opts: TriggerOptions): Promise<void> {
  if (opts.to?.length || opts.toJson !== undefined) throw new UsageError('--recipients-file cannot be combined with --to or --to-json');
  if (opts.transactionId !== undefined) throw new UsageError('--transaction-id cannot be used with --recipients-file: each chunk gets its own, derived from the run');
  if (opts.recipientsFile!.trim() === '') throw new UsageError('--recipients-file: expected a file path, or - for stdin');
  for (const [flag, value] of [['--report', opts.report], ['--journal', opts.journal]] as const) {
    if (value !== undefined && value.trim() === '') throw new UsageError(`${flag}: expected a file path`);
  }
  if (opts.recipientsFile === '-' && (opts.payload === '-' || opts.toJson === '-')) throw new UsageError('--recipients-file - and --payload - both want stdin');
  const common: Record<string, unknown> = {};
  const payload = await payloadFrom(deps, opts.payload, opts.set);
  if (payload) common.payload = payload;
  if (opts.overrides !== undefined) common.overrides = await deps.input.jsonObject('--overrides', opts.overrides);
  const actor = await idOrObject(deps, '--actor', opts.actor);
  if (actor !== undefined) common.actor = actor;
  const tenant = await idOrObject(deps, '--tenant', opts.tenant);
  if (tenant !== undefined) common.tenant = tenant;
  const context = await contextMap(deps, '--context', opts.context);
  if (context) common.context = context;
  // One sample body validates the shared fields before anything is read or sent.
  parseOrUsage(TriggerBody, { name: workflow, to: ['sample'], ...common }, buildLabels());
  const { runBulk } = await import('../bulk/run.js');
  await runBulk(deps, {
    workflow,
    file: opts.recipientsFile!,
    common,
    chunkSize: opts.chunk ?? MAX_RECIPIENTS,
    ...(opts.concurrency !== undefined ? { concurrency: opts.concurrency } : {}),
    ...(opts.resume ? { resume: true } : {}),
    ...(opts.report !== undefined ? { report: opts.report } : {}),
    ...(opts.journal !== undefined ? { journal: opts.journal } : {}),
    ...(opts.strict ? { strict: true } : {}),
  });
}
