// Identifiers derived from names and seeds, deterministic so that the same definition always yields the
// same step ids, database ids and slugs (the engine has no store to remember generated ones).
import { createHash } from 'node:crypto';

/** `"Welcome Email!"` → `welcome-email`; the service's step and workflow identifiers. */
export function slugify(text: string): string {
  const slug = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return slug || 'step';
}

/** A 24-hex database id derived from a seed. */
export function objectIdFrom(seed: string): string {
  return createHash('sha1').update(seed).digest('hex').slice(0, 24);
}

const BASE62 = '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';

function base62(hex: string): string {
  let n = BigInt(`0x${hex || '0'}`);
  let out = '';
  do {
    out = BASE62[Number(n % 62n)] + out;
    n /= 62n;
  } while (n > 0n);
  return out;
}

/** The service's slugs: the slugified name, a type prefix and the base62 database id. */
export function workflowSlug(name: string, databaseId: string): string {
  return `${slugify(name)}_wf_${base62(databaseId)}`;
}

export function stepSlug(name: string, databaseId: string): string {
  return `${slugify(name)}_st_${base62(databaseId)}`;
}

/** The database id a slug was built from, or null when it is not one of ours. */
export function databaseIdFromSlug(slug: string): string | null {
  const match = /_(?:wf|st)_([0-9a-zA-Z]+)$/.exec(slug);
  if (!match) return null;
  let n = 0n;
  for (const ch of match[1] as string) {
    const digit = BASE62.indexOf(ch);
    if (digit < 0) return null;
    n = n * 62n + BigInt(digit);
  }
  const hex = n.toString(16);
  return hex.length > 24 ? null : hex.padStart(24, '0');
}
