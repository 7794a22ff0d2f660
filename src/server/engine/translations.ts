// Translated templates as the service renders them: `{{t.key}}` (a dotted path into a locale's texts,
// nested objects or flat dotted keys alike) is replaced by the text of the subscriber's locale before
// Liquid runs, so a text may itself hold variables (`Hi {{subscriber.firstName}}`). A key is looked
// up in the subscriber's locale, then in another locale of its language (de_AT reads de_DE), then in
// the organisation's default locale; a key found nowhere prints as its own path, as i18next does.
import type { JsonRecord } from './types.js';

/** The organisation's default locale when it has not chosen one. */
export const DEFAULT_LOCALE = 'en_US';

export interface TranslationBundle {
  /** Each locale's texts, as stored for the resource. */
  contents: Readonly<Record<string, JsonRecord>>;
  defaultLocale?: string;
}

const T_OUTPUT = /\{\{\s*t\.([A-Za-z0-9_$-]+(?:\.[A-Za-z0-9_$-]+)*)\s*\}\}/g;

/** `de-AT`, `de_at`, `DE` → `de_AT`, `de_AT`, `de`: the service's spelling of what a subscriber gave. */
export function normalizeLocale(locale: unknown): string | undefined {
  if (typeof locale !== 'string') return undefined;
  const [lang, region] = locale.trim().split(/[-_]/);
  if (!lang) return undefined;
  return region ? `${lang.toLowerCase()}_${region.toUpperCase()}` : lang.toLowerCase();
}

/**
 * The locales to read, in order: the subscriber's own, the others of its language (the one whose
 * region repeats the language first: de_DE before de_CH), then the default locale.
 */
export function localeChain(subscriberLocale: unknown, available: readonly string[], defaultLocale = DEFAULT_LOCALE): string[] {
  const chain: string[] = [];
  const add = (l: string | undefined) => {
    if (l !== undefined && available.includes(l) && !chain.includes(l)) chain.push(l);
  };
  const wanted = normalizeLocale(subscriberLocale);
  if (wanted !== undefined) {
    add(wanted);
    const lang = wanted.split('_')[0]!;
    const sameLanguage = available.filter((l) => l.split('_')[0] === lang).sort();
    add(sameLanguage.find((l) => l === `${lang}_${lang.toUpperCase()}`));
    for (const l of sameLanguage) add(l);
  }
  add(defaultLocale);
  return chain;
}

/** A dotted path in texts that may nest objects, hold dotted keys, or both. */
export function lookupKey(texts: unknown, path: readonly string[]): unknown {
  if (path.length === 0) return texts;
  if (typeof texts !== 'object' || texts === null || Array.isArray(texts)) return undefined;
  const record = texts as JsonRecord;
  for (let i = path.length; i >= 1; i--) {
    const key = path.slice(0, i).join('.');
    if (!Object.hasOwn(record, key)) continue;
    const found = lookupKey(record[key], path.slice(i));
    if (found !== undefined) return found;
  }
  return undefined;
}

/** What `{{t.<key>}}` prints for a subscriber: the first locale of the chain with the key, else the key. */
export function translator(bundle: TranslationBundle, subscriberLocale: unknown): (key: string) => string {
  const chain = localeChain(subscriberLocale, Object.keys(bundle.contents), bundle.defaultLocale);
  return (key) => {
    const path = key.split('.');
    for (const locale of chain) {
      const value = lookupKey(bundle.contents[locale], path);
      if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return String(value);
    }
    return key;
  };
}

function isJsonDocument(text: string): boolean {
  const first = text.trimStart()[0];
  if (first !== '{' && first !== '[') return false;
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

function translateText(text: string, translate: (key: string) => string): string {
  if (!text.includes('t.')) return text;
  // A block-editor body is a JSON document: a text put inside one of its strings must stay JSON.
  const escape = isJsonDocument(text) ? (s: string) => JSON.stringify(s).slice(1, -1) : (s: string) => s;
  return text.replace(T_OUTPUT, (_, key: string) => escape(translate(key)));
}

function translateValue(value: unknown, translate: (key: string) => string): unknown {
  if (typeof value === 'string') return translateText(value, translate);
  if (Array.isArray(value)) return value.map((v) => translateValue(v, translate));
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, translateValue(v, translate)]));
  }
  return value;
}

/**
 * A step's control values with every `{{t.key}}` put in the subscriber's language. Without a bundle
 * (the workflow does not have translations enabled) they are returned as they are.
 */
export function translateControls<T extends Record<string, unknown>>(controls: T, bundle: TranslationBundle | undefined, subscriberLocale: unknown): T {
  if (!bundle) return controls;
  return translateValue(controls, translator(bundle, subscriberLocale)) as T;
}
