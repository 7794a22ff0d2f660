// The Liquid filters the service registers on top of liquidjs' standard ones (digest, toSentence,
// pluralize, and a `json` that prints single-quoted JSON), so that templates written for the service
// render the same here. Implemented from the service's documented behaviour.

function valueAt(item: unknown, keyPath: string): unknown {
  let current: unknown = item;
  for (const key of keyPath.split('.')) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

function textOf(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'object') {
    const json = JSON.stringify(value);
    return json === '{}' ? '' : json;
  }
  return String(value);
}

function words(array: unknown[], keyPath: string | undefined): string[] {
  return array.map((item) => (keyPath ? textOf(typeof item === 'object' && item ? valueAt(item, keyPath) : '') : textOf(item)));
}

/** Objects and arrays print as JSON with single quotes, the way the service prints them in templates. */
export function singleQuotedJson(value: unknown, spaces = 0): string {
  if (value !== null && typeof value === 'object') {
    return JSON.stringify(value, null, spaces).replace(/"/g, "'").replace(/\n/g, '\\n');
  }
  return value === undefined || value === null ? '' : String(value);
}

/**
 * `{{ actors | digest }}` → "John, Josh and 2 others"; `digest: maxNames, keyPath, separator`.
 */
export function digest(array: unknown, maxNames = 2, keyPath?: string, separator = ', '): string {
  if (!Array.isArray(array) || array.length === 0) return '';
  const values = words(array, keyPath);
  if (values.length === 1) return values[0] ?? '';
  if (values.length === 2) return `${values[0]} and ${values[1]}`;
  if (values.length === 3 && maxNames >= 3) return `${values[0]}${separator}${values[1]} and ${values[2]}`;
  const others = values.length - maxNames;
  if (others <= 0) return `${values.slice(0, -1).join(separator)} and ${values[values.length - 1]}`;
  return `${values.slice(0, maxNames).join(separator)} and ${others} ${others === 1 ? 'other' : 'others'}`;
}

/**
 * `{{ steps.digest.events | toSentence: "payload.name", 2, "other" }}` → "Ann, Bob, and 3 others".
 */
export function toSentence(
  array: unknown,
  keyPath = '',
  limit = 2,
  overflowSuffix = 'other',
  wordsConnector = ', ',
  twoWordsConnector = ' and ',
  lastWordConnector = ', and ',
): string {
  if (!Array.isArray(array) || array.length === 0) return '';
  const values = words(array, keyPath || undefined);
  if (values.length === 1) return values[0] ?? '';
  if (values.length === 2) return `${values[0]}${twoWordsConnector}${values[1]}`;
  if (limit >= values.length) {
    return `${values.slice(0, -1).join(wordsConnector)}${lastWordConnector}${values[values.length - 1]}`;
  }
  const more = values.length - limit;
  const connector = limit === 1 ? twoWordsConnector : lastWordConnector;
  return `${values.slice(0, limit).join(wordsConnector)}${connector}${more} ${englishPlural(overflowSuffix, more)}`;
}

/** Regular English plurals; enough for the nouns notifications count ("event", "reply", "match"). */
function englishPlural(word: string, count: number): string {
  if (count === 1 || word === '') return word;
  if (/(s|x|z|ch|sh)$/i.test(word)) return `${word}es`;
  if (/[^aeiou]y$/i.test(word)) return `${word.slice(0, -1)}ies`;
  return `${word}s`;
}

/** `{{ steps.digest.events | pluralize: "comment" }}` → "3 comments"; nothing for zero. */
export function pluralize(item: unknown, singular = '', plural = ''): string {
  if (item === null || item === undefined) return '';
  let count: number;
  if (Array.isArray(item)) count = item.length;
  else if (typeof item === 'object') count = Object.keys(item).length;
  else count = Number(item);
  if (Number.isNaN(count) || count <= 0) return '';
  if (plural) return `${count} ${count === 1 ? singular : plural}`;
  return `${count} ${englishPlural(singular, count)}`;
}
