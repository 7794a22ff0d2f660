// The profile flags of `subscribers create` and `subscribers update`, and the body they make: only the
// flags given are sent; an empty value clears the field (null).
import type { Deps } from '../../deps.js';
import type { Command } from '../define.js';

const FIELDS = [
  ['--first-name <name>', 'firstName', 'first name'],
  ['--last-name <name>', 'lastName', 'last name'],
  ['--email <email>', 'email', 'email address'],
  ['--phone <phone>', 'phone', 'phone number, e.g. +15551234567'],
  ['--avatar <url>', 'avatar', 'avatar image URL'],
  ['--locale <locale>', 'locale', 'locale, e.g. en-US'],
  ['--timezone <tz>', 'timezone', 'IANA timezone, e.g. Europe/London'],
] as const;

type ProfileOptions = { [K in (typeof FIELDS)[number][1]]?: string } & { data?: string };

export function profileFlags<C extends Command<[string], {}>>(cmd: C) {
  return cmd
    .option('--first-name <name>', 'first name (empty to clear)')
    .option('--last-name <name>', 'last name (empty to clear)')
    .option('--email <email>', 'email address (empty to clear)')
    .option('--phone <phone>', 'phone number, e.g. +15551234567 (empty to clear)')
    .option('--avatar <url>', 'avatar image URL (empty to clear)')
    .option('--locale <locale>', 'locale, e.g. en-US (empty to clear)')
    .option('--timezone <tz>', 'IANA timezone, e.g. Europe/London (empty to clear)')
    .option('--data <json>', 'custom data as a JSON object: inline, @file or - (replaces the whole object)');
}

/** The fields to send, from the flags given. */
export async function profileBody(deps: Deps, opts: ProfileOptions): Promise<Record<string, unknown>> {
  const body: Record<string, unknown> = {};
  for (const [, key] of FIELDS) {
    const v = opts[key];
    if (v !== undefined) body[key] = v === '' ? null : v;
  }
  if (opts.data !== undefined) body.data = await deps.input.jsonObject('--data', opts.data);
  return body;
}

export const PROFILE_FLAG_NAMES = [...FIELDS.map(([f]) => f.split(' ')[0]!), '--data'];

/** The flag each field of a subscriber body comes from (`firstName` → `--first-name`). */
export const bodyLabel = (field: string): string => `--${field.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
