// Identifiers the service hands out: 24-hex database ids shaped like the service's own (a seconds
// timestamp first, so ids sort by creation time), prefixed short identifiers for channel connections
// and endpoints, and secret API keys.
import { randomBytes } from 'node:crypto';
import type { Clock } from './clock.js';

const processPart = randomBytes(5).toString('hex');
let counter = randomBytes(3).readUIntBE(0, 3);

export function objectId(clock: Clock): string {
  const seconds = Math.floor(clock.now() / 1000) >>> 0;
  counter = (counter + 1) % 0xffffff;
  return seconds.toString(16).padStart(8, '0') + processPart + counter.toString(16).padStart(6, '0');
}

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

/** `length` characters of [a-z0-9], e.g. the `<12 chars>` of `chconn_<12 chars>`. */
export function shortId(length = 12): string {
  const bytes = randomBytes(length);
  let out = '';
  for (const b of bytes) out += ALPHABET[b % ALPHABET.length];
  return out;
}

export function newApiKey(): string {
  return `sk_${randomBytes(16).toString('hex')}`;
}
