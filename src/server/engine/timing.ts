// Time arithmetic of delay, digest and throttle steps. Pure: every function takes `now` (ms since the
// epoch) and returns instants; the job runner owns the timers and the store.
import { cronParser } from './packages.js';
import type { TimeUnit } from '../../api/schemas/enums.js';
import { renderTemplate } from './template.js';
import { SCOPE_ROOTS, type TemplateScope } from './types.js';

const FIXED_UNIT_MS: Record<Exclude<TimeUnit, 'months'>, number> = {
  seconds: 1_000,
  minutes: 60_000,
  hours: 3_600_000,
  days: 86_400_000,
  weeks: 604_800_000,
};

function isTimeUnit(value: unknown): value is TimeUnit {
  return typeof value === 'string' && (value === 'months' || value in FIXED_UNIT_MS);
}

function addMonths(from: number, months: number): number {
  const date = new Date(from);
  const day = date.getUTCDate();
  date.setUTCDate(1);
  date.setUTCMonth(date.getUTCMonth() + months);
  const lastDay = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 0)).getUTCDate();
  date.setUTCDate(Math.min(day, lastDay));
  return date.getTime();
}

/** `from` plus amount×unit; months are calendar months (Jan 31 + 1 month = the last day of February). */
export function addDuration(from: number, amount: number, unit: TimeUnit): number {
  if (unit === 'months') {
    const whole = Math.trunc(amount);
    const rest = amount - whole;
    const base = addMonths(from, whole);
    return rest === 0 ? base : base + Math.round(rest * (addMonths(base, 1) - base));
  }
  return from + amount * FIXED_UNIT_MS[unit];
}

/** The length of amount×unit starting at `from` (months vary in length). */
function durationMs(amount: number, unit: TimeUnit, from: number): number {
  return addDuration(from, amount, unit) - from;
}

type Duration = { amount: number; unit: TimeUnit } | { iso: string; ms: (from: number) => number };

const ISO_DURATION =
  /^P(?:(\d+(?:\.\d+)?)Y)?(?:(\d+(?:\.\d+)?)M)?(?:(\d+(?:\.\d+)?)W)?(?:(\d+(?:\.\d+)?)D)?(?:T(?:(\d+(?:\.\d+)?)H)?(?:(\d+(?:\.\d+)?)M)?(?:(\d+(?:\.\d+)?)S)?)?$/;

/** `{amount, unit}` or an ISO-8601 duration such as `PT15M`, `P1D`, `P1M2DT3H`. */
export function parseDuration(value: unknown): Duration | null {
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    const { amount, unit } = value as { amount?: unknown; unit?: unknown };
    const n = typeof amount === 'string' ? Number(amount) : amount;
    if (typeof n === 'number' && Number.isFinite(n) && n > 0 && isTimeUnit(unit)) return { amount: n, unit };
    return null;
  }
  if (typeof value !== 'string') return null;
  const match = ISO_DURATION.exec(value.trim());
  if (!match || value.trim() === 'P' || value.trim().endsWith('T')) return null;
  const [years, months, weeks, days, hours, minutes, seconds] = match.slice(1).map((v) => (v ? Number(v) : 0)) as number[];
  const iso = value.trim();
  return {
    iso,
    ms: (from) => {
      const afterMonths = addDuration(from, (years ?? 0) * 12 + (months ?? 0), 'months');
      const rest =
        (weeks ?? 0) * FIXED_UNIT_MS.weeks +
        (days ?? 0) * FIXED_UNIT_MS.days +
        (hours ?? 0) * FIXED_UNIT_MS.hours +
        (minutes ?? 0) * FIXED_UNIT_MS.minutes +
        (seconds ?? 0) * FIXED_UNIT_MS.seconds;
      return afterMonths - from + rest;
    },
  };
}

function durationLength(duration: Duration, from: number): number {
  return 'iso' in duration ? duration.ms(from) : durationMs(duration.amount, duration.unit, from);
}

function isValidTimezone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

type Instant = { ok: true; at: number } | { ok: false; error: string };

/** The first time after `now` the cron expression fires, in `timezone` when valid (else UTC). */
export function nextCronTime(cron: string, now: number, timezone?: string | null): Instant {
  try {
    const tz = timezone && isValidTimezone(timezone) ? timezone : 'UTC';
    const expression = cronParser().CronExpressionParser.parse(cron.trim(), { currentDate: new Date(now), tz });
    return { ok: true, at: expression.next().toDate().getTime() };
  } catch (err) {
    return { ok: false, error: `invalid cron expression "${cron}": ${err instanceof Error ? err.message : String(err)}` };
  }
}

/** A problem with a cron expression, or null. */
export function cronProblem(cron: string): string | null {
  const next = nextCronTime(cron, 0);
  return next.ok ? null : next.error;
}

// --- reading a value the controls point at ---------------------------------------------------------

type PathValue = { found: true; value: unknown; path: string } | { found: false; path: string };

/**
 * Reads a control's data path: `payload.sendAt`, `{{ payload.sendAt }}`, `subscriber.data.x`, or a
 * bare `sendAt`, which (like the service's delayPath) is relative to the payload.
 */
export function readPath(rawPath: string, scope: TemplateScope): PathValue {
  const trimmed = rawPath
    .trim()
    .replace(/^\{\{\s*/, '')
    .replace(/\s*\}\}$/, '')
    .trim();
  const parts = trimmed
    .replace(/\[(\d+)\]/g, '.$1')
    .split('.')
    .filter((p) => p !== '');
  const rooted = (SCOPE_ROOTS as readonly string[]).includes(parts[0] ?? '');
  const segments = rooted ? parts : ['payload', ...parts];
  const path = segments.join('.');
  let current: unknown = scope;
  for (const segment of segments) {
    if (current === null || typeof current !== 'object' || !Object.prototype.hasOwnProperty.call(current, segment)) {
      return { found: false, path };
    }
    current = (current as Record<string, unknown>)[segment];
  }
  return current === undefined || current === null ? { found: false, path } : { found: true, value: current, path };
}

function asInstant(value: unknown): number | null {
  if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}/.test(value.trim())) return null;
  const at = Date.parse(value.trim());
  return Number.isNaN(at) ? null : at;
}

// --- delay ---------------------------------------------------------------------------------------

type DelayDecision = { ok: true; type: 'regular' | 'timed' | 'dynamic'; until: number; durationMs: number } | { ok: false; error: string };

export interface DelayControlsInput {
  type?: string;
  amount?: number;
  unit?: string;
  cron?: string;
  dynamicKey?: string;
  delayPath?: string;
  /** Held until the subscriber's delivery schedule when released outside it. */
  extendToSchedule?: boolean;
}

/**
 * When a delay step releases its job. `regular`: amount×unit; `timed`: the next cron time (in the
 * subscriber's timezone when known); `dynamic` (alias `scheduled`): the ISO date, or the duration
 * (`{amount, unit}` or ISO 8601 like `PT1H`), found at the `dynamicKey`/`delayPath` path. A date in
 * the past releases at once.
 */
export function delayUntil(controls: DelayControlsInput, scope: TemplateScope, now: number): DelayDecision {
  const type = controls.type ?? 'regular';
  if (type === 'regular') {
    if (typeof controls.amount !== 'number' || !(controls.amount > 0) || !isTimeUnit(controls.unit)) {
      return { ok: false, error: 'a regular delay needs a positive amount and a unit' };
    }
    const until = addDuration(now, controls.amount, controls.unit);
    return { ok: true, type: 'regular', until, durationMs: until - now };
  }
  if (type === 'timed') {
    if (!controls.cron) return { ok: false, error: 'a timed delay needs a cron expression' };
    const tz = typeof scope.subscriber?.timezone === 'string' ? scope.subscriber.timezone : undefined;
    const next = nextCronTime(controls.cron, now, tz);
    return next.ok ? { ok: true, type: 'timed', until: next.at, durationMs: next.at - now } : next;
  }
  if (type === 'dynamic' || type === 'scheduled') {
    const key = controls.dynamicKey ?? controls.delayPath;
    if (!key) return { ok: false, error: 'a dynamic delay needs dynamicKey, the payload path of a date or duration' };
    const read = readPath(key, scope);
    if (!read.found) return { ok: false, error: `dynamic delay: nothing at ${read.path}; send an ISO date or a duration there` };
    const at = asInstant(read.value);
    if (at !== null) return { ok: true, type: 'dynamic', until: Math.max(at, now), durationMs: Math.max(0, at - now) };
    const duration = parseDuration(read.value);
    if (duration) {
      const length = durationLength(duration, now);
      return { ok: true, type: 'dynamic', until: now + length, durationMs: length };
    }
    return {
      ok: false,
      error: `dynamic delay: ${read.path} is ${JSON.stringify(read.value)}, not an ISO date (2025-01-31T09:00:00Z) or a duration ({"amount": 5, "unit": "minutes"} or PT5M)`,
    };
  }
  return { ok: false, error: `unknown delay type "${type}"` };
}

// --- digest --------------------------------------------------------------------------------------

export interface DigestControlsInput {
  type?: string;
  amount?: number;
  unit?: string;
  cron?: string;
  digestKey?: string;
  lookBackWindow?: { amount?: number; unit?: string };
  /** Held until the subscriber's delivery schedule when its window ends outside it. */
  extendToSchedule?: boolean;
}

type DigestKeyValue = { ok: true; value: string; missing: boolean } | { ok: false; error: string };

/**
 * The value events are grouped by within a subscriber's digest: the digestKey rendered as a template
 * (`{{ payload.postId }}`) or read as a path (`payload.postId`, or `postId` relative to the payload).
 * No digestKey: one group per subscriber. A key that resolves to nothing groups as "" and says so.
 */
export function digestKeyValue(controls: DigestControlsInput, scope: TemplateScope): DigestKeyValue {
  const key = controls.digestKey?.trim();
  if (!key) return { ok: true, value: '', missing: false };
  if (key.includes('{{') || key.includes('{%')) {
    const rendered = renderTemplate(key, scope, 'digestKey');
    if (!rendered.ok) return { ok: false, error: `digestKey: ${rendered.error.message}` };
    return { ok: true, value: rendered.output, missing: rendered.output === '' };
  }
  const read = readPath(key, scope);
  if (!read.found) return { ok: true, value: '', missing: true };
  const value = typeof read.value === 'object' ? JSON.stringify(read.value) : String(read.value);
  return { ok: true, value, missing: false };
}

/** The identity of one digest window: workflow, step, subscriber and digest-key value. */
export function digestGroupKey(parts: { workflowId: string; stepId: string; subscriberId: string; keyValue: string }): string {
  return `digest:${JSON.stringify([parts.workflowId, parts.stepId, parts.subscriberId, parts.keyValue])}`;
}

type DigestDecision = { ok: true; type: 'regular' | 'backoff' | 'timed'; mode: 'immediate' | 'digest'; until: number } | { ok: false; error: string };

/**
 * What the first event of a new digest window does (later events of an open window merge into it).
 * - regular: collect for amount×unit, then send one message with every event;
 * - backoff (`lookBackWindow` set): if no event of this group arrived within the look-back window
 *   before this one (`lastEventAt`), send this one at once; otherwise digest for amount×unit;
 * - timed (`cron`, or type `timed`): collect until the next cron time.
 */
export function digestWindow(input: {
  controls: DigestControlsInput;
  now: number;
  /** When the previous event of this digest group arrived, if ever. */
  lastEventAt?: number | null;
  timezone?: string | null;
}): DigestDecision {
  const { controls, now } = input;
  const timed = controls.type === 'timed' || (controls.type === undefined && Boolean(controls.cron));
  if (timed) {
    if (!controls.cron) return { ok: false, error: 'a timed digest needs a cron expression' };
    const next = nextCronTime(controls.cron, now, input.timezone);
    return next.ok ? { ok: true, type: 'timed', mode: 'digest', until: next.at } : next;
  }
  if (typeof controls.amount !== 'number' || !(controls.amount > 0) || !isTimeUnit(controls.unit)) {
    return { ok: false, error: 'a regular digest needs a positive amount and a unit' };
  }
  const until = addDuration(now, controls.amount, controls.unit);
  const look = controls.lookBackWindow;
  if (!look) return { ok: true, type: 'regular', mode: 'digest', until };
  if (typeof look.amount !== 'number' || !(look.amount > 0) || !isTimeUnit(look.unit)) {
    return { ok: false, error: 'lookBackWindow needs a positive amount and a unit' };
  }
  const windowStart = now - durationMs(look.amount, look.unit, now);
  const recent = typeof input.lastEventAt === 'number' && input.lastEventAt > windowStart && input.lastEventAt <= now;
  return recent ? { ok: true, type: 'backoff', mode: 'digest', until } : { ok: true, type: 'backoff', mode: 'immediate', until: now };
}

export interface DigestEvent {
  id: string;
  /** ms since the epoch, or an ISO string. */
  time: number | string;
  payload: Record<string, unknown>;
}

/** A digest step's output as later steps read it: `steps.<id>.events` and `steps.<id>.eventCount`. */
export function digestOutput(events: readonly DigestEvent[]): {
  events: Array<{ id: string; time: string; payload: Record<string, unknown> }>;
  eventCount: number;
} {
  // Events of the same millisecond go in the order they were created: an id begins with its second
  // and ends with a counter, so the earlier id sorts first. Which job of a group becomes its leader is
  // decided by which one reaches the digest first (a code-first step's key is computed by the app, so
  // that can be a later event), and that must not change the order the app's next step sees.
  const sorted = [...events].sort((a, b) => new Date(a.time).getTime() - new Date(b.time).getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return {
    events: sorted.map((e) => ({ id: e.id, time: new Date(e.time).toISOString(), payload: e.payload })),
    eventCount: sorted.length,
  };
}

// --- throttle ------------------------------------------------------------------------------------

export interface ThrottleControlsInput {
  type?: string;
  amount?: number;
  unit?: string;
  dynamicKey?: string;
  threshold?: number;
  throttleKey?: string;
}

/**
 * The group a throttle counts in. Without a throttleKey, the service's default: this workflow step and
 * subscriber. With one (a template or a path), every execution whose key renders to the same value
 * shares the window, whichever subscriber it is for.
 */
export function throttleGroupKey(input: {
  workflowId: string;
  stepId: string;
  subscriberId: string;
  controls: ThrottleControlsInput;
  scope: TemplateScope;
}): { ok: true; key: string } | { ok: false; error: string } {
  const { workflowId, stepId, subscriberId, controls, scope } = input;
  const raw = controls.throttleKey?.trim();
  if (!raw) return { ok: true, key: `throttle:${JSON.stringify([workflowId, stepId, 'subscriber', subscriberId])}` };
  let value: string;
  if (raw.includes('{{') || raw.includes('{%')) {
    const rendered = renderTemplate(raw, scope, 'throttleKey');
    if (!rendered.ok) return { ok: false, error: `throttleKey: ${rendered.error.message}` };
    value = rendered.output;
  } else {
    const read = readPath(raw, scope);
    value = read.found ? (typeof read.value === 'object' ? JSON.stringify(read.value) : String(read.value)) : raw;
  }
  return { ok: true, key: `throttle:${JSON.stringify([workflowId, stepId, 'key', value])}` };
}

type ThrottleDecision =
  | {
      ok: true;
      allow: boolean;
      /** Executions already counted in the window. */
      count: number;
      threshold: number;
      windowStart: number;
      /** When the oldest counted execution leaves the window (a blocked one could pass after it); null if allowed. */
      resetAt: number | null;
    }
  | { ok: false; error: string };

/**
 * Whether one more execution passes the throttle, given the times of the executions that passed
 * before in this group. `fixed`: a sliding window of amount×unit. `dynamic`: the value at dynamicKey
 * is the window's length (`{amount, unit}` or ISO 8601 like `PT1H`) or its start (an ISO date).
 * At most `threshold` (default 1) executions pass per window.
 */
export function throttleDecision(history: readonly number[], now: number, controls: ThrottleControlsInput, scope: TemplateScope = {}): ThrottleDecision {
  const threshold = controls.threshold ?? 1;
  if (!Number.isInteger(threshold) || threshold < 1) return { ok: false, error: 'threshold must be a whole number of at least 1' };
  let windowStart: number;
  let windowMs: number | null = null;
  if ((controls.type ?? 'fixed') === 'fixed') {
    if (typeof controls.amount !== 'number' || !(controls.amount > 0) || !isTimeUnit(controls.unit)) {
      return { ok: false, error: 'a fixed throttle needs a positive amount and a unit' };
    }
    windowMs = durationMs(controls.amount, controls.unit, now);
    windowStart = now - windowMs;
  } else if (controls.type === 'dynamic') {
    if (!controls.dynamicKey) return { ok: false, error: 'a dynamic throttle needs dynamicKey, the path of its window' };
    const read = readPath(controls.dynamicKey, scope);
    if (!read.found) return { ok: false, error: `dynamic throttle: nothing at ${read.path}; send a duration or an ISO date there` };
    const start = asInstant(read.value);
    const duration = start === null ? parseDuration(read.value) : null;
    if (start !== null) {
      if (start > now) return { ok: false, error: `dynamic throttle: the window start ${read.path} (${JSON.stringify(read.value)}) is in the future` };
      windowStart = start;
    } else if (duration) {
      windowMs = durationLength(duration, now);
      windowStart = now - windowMs;
    } else {
      return {
        ok: false,
        error: `dynamic throttle: ${read.path} is ${JSON.stringify(read.value)}, not a duration ({"amount": 1, "unit": "hours"} or PT1H) or an ISO date`,
      };
    }
  } else {
    return { ok: false, error: `unknown throttle type ${JSON.stringify(controls.type)}` };
  }
  // A sliding window excludes its start instant; a window starting at a given date includes it.
  const inWindow = history.filter((t) => (t > windowStart || (windowMs === null && t === windowStart)) && t <= now).sort((a, b) => a - b);
  const allow = inWindow.length < threshold;
  const oldest = inWindow[inWindow.length - threshold];
  const resetAt = allow || windowMs === null || oldest === undefined ? null : oldest + windowMs;
  return { ok: true, allow, count: inWindow.length, threshold, windowStart, resetAt };
}
