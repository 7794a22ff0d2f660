// The locale files of `svc translations pull|push`: DIR/<locale>.json, each the service's master JSON
// of that locale. Checked whole before anything is sent: a bad file is named, exit 2.
import { UsageError } from '../../core/errors.js';
import { isPlainObject, quote } from '../../core/input.js';

/** The service's locale codes: language_REGION (en_US, de_DE). */
const LOCALE_RE = /^[a-z]{2,3}_[A-Z]{2}$/;

export interface MasterJson {
  workflows?: Record<string, Record<string, unknown>>;
  layouts?: Record<string, Record<string, unknown>>;
}

export function checkLocale(flag: string, value: string): string {
  if (!LOCALE_RE.test(value)) throw new UsageError(`${flag}: expected a locale in language_REGION form, e.g. en_US (got ${quote(value)})`);
  return value;
}

export function masterSummary(m: MasterJson): { workflows: number; layouts: number } {
  return { workflows: Object.keys(m.workflows ?? {}).length, layouts: Object.keys(m.layouts ?? {}).length };
}

/** A file's text as a master JSON, or a usage error naming the file and what is wrong. */
export function parseMasterFile(name: string, text: string): MasterJson {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new UsageError(`${name}: not JSON (${(e as Error).message})`);
  }
  if (!isPlainObject(value)) throw new UsageError(`${name}: expected a master JSON object {"workflows": {...}, "layouts": {...}}`);
  for (const key of ['workflows', 'layouts'] as const) {
    const part = value[key];
    if (part === undefined) continue;
    if (!isPlainObject(part)) throw new UsageError(`${name}: "${key}" must be an object of texts by identifier`);
    for (const [id, texts] of Object.entries(part)) {
      if (!isPlainObject(texts)) throw new UsageError(`${name}: ${key}.${id} must be an object of texts`);
    }
  }
  return value as MasterJson;
}

/** `de_DE.json` → `de_DE`; a name that is not a locale → a usage error naming the file. */
export function localeOfFileName(name: string): string {
  const locale = name.slice(0, -'.json'.length);
  if (!LOCALE_RE.test(locale)) throw new UsageError(`${name}: the file name is not a locale (expected language_REGION.json, e.g. en_US.json)`);
  return locale;
}
