// Parsers for flag values, run by commander while it reads the command line. Each throws commander's
// InvalidArgumentError, so the message names the flag ("option '--limit <n>' argument '0' is invalid.
// ...") and main.ts reports it as a usage error (exit 2). No heavy imports: this loads at start-up.
import { InvalidArgumentError } from 'commander';
import { parseDuration } from './core/duration.js';
import { editDistance } from './core/suggest.js';

export function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

export function intArg(min: number, max = Number.MAX_SAFE_INTEGER) {
  return (value: string): number => {
    if (!/^-?\d+$/.test(value.trim())) throw new InvalidArgumentError(`Expected an integer${range(min, max)}.`);
    const n = Number(value);
    if (n < min || n > max) throw new InvalidArgumentError(`Expected an integer${range(min, max)}.`);
    return n;
  };
}

function range(min: number, max: number): string {
  return max === Number.MAX_SAFE_INTEGER ? ` of at least ${min}` : ` from ${min} to ${max}`;
}

/** A repeatable flag restricted to choices; also accepts comma-separated values. */
export function choiceList(choices: readonly string[]) {
  return (value: string, previous: string[] | undefined): string[] => {
    const parts = value
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    if (parts.length === 0) throw new InvalidArgumentError(`Expected one of: ${choices.join(', ')}.`);
    for (const p of parts) {
      if (!choices.includes(p)) throw new InvalidArgumentError(`Expected one of: ${choices.join(', ')}.`);
    }
    return [...(previous ?? []), ...parts];
  };
}

export function choiceArg(choices: readonly string[]) {
  return (value: string): string => {
    if (!choices.includes(value)) throw new InvalidArgumentError(expected(choices, value));
    return value;
  };
}

/** "Expected one of: a, b", or for a long list (the provider ids) the closest few and where the rest are. */
function expected(choices: readonly string[], value: string): string {
  if (choices.length <= 12) return `Expected one of: ${choices.join(', ')}.`;
  const v = value.toLowerCase();
  const close = choices.filter((c) => c.includes(v) || v.includes(c) || editDistance(c, v) <= 2).slice(0, 4);
  return `Expected one of ${choices.length} values${close.length ? ` such as ${close.join(', ')}` : ''} (svc help providers lists them).`;
}

export function durationArg(value: string): number {
  const ms = parseDuration(value);
  if (ms === undefined || ms <= 0) throw new InvalidArgumentError('Expected a duration such as 500ms, 10s or 2m.');
  return ms;
}

export function urlArg(value: string): string {
  let u: URL;
  try {
    u = new URL(value);
  } catch {
    throw new InvalidArgumentError('Expected an http:// or https:// URL.');
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new InvalidArgumentError('Expected an http:// or https:// URL.');
  return value.replace(/\/+$/, '');
}

export function fieldsArg(value: string): string[] {
  const fields = value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (fields.length === 0 || fields.some((f) => !/^[^.\s]+(\.[^.\s]+)*$/.test(f))) {
    throw new InvalidArgumentError('Expected comma-separated dot paths such as _id,subscriber.email.');
  }
  return fields;
}

export function idempotencyKeyArg(value: string): string {
  if (value.length === 0 || value.length > 255) throw new InvalidArgumentError('Expected 1 to 255 characters.');
  if (/[\u0000-\u001f\u007f]/.test(value)) throw new InvalidArgumentError('Control characters are not allowed.');
  return value;
}

export function booleanArg(value: string): boolean {
  if (value === 'true') return true;
  if (value === 'false') return false;
  throw new InvalidArgumentError('Expected true or false.');
}

export function positiveNumberArg(value: string): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n <= 0) throw new InvalidArgumentError('Expected a positive number.');
  return n;
}
