// The one sanitiser on the way to a terminal. Text the service holds is written by anyone (a
// subscriber's name, a payload value, a provider's error), and a terminal acts on control characters:
// `ESC ] 0 ; … BEL` retitles the window, `ESC [ 2 J` clears it, C1 `CSI` (U+009B) starts a sequence
// on some terminals, a lone CR overwrites the line, the bidi overrides reorder what follows. Every
// string a human format prints (tables, TSV, YAML, the timeline, watch lines, the browser, prompts,
// error messages) passes through here first: C0 and C1 controls, DEL and the bidi overrides become
// visible escapes (`\e`, `\r`, `\x7f`, `\u009b`, `\u202e`) and are never emitted. Colour is added by
// the renderers after this, so our own SGR codes still work. JSON and NDJSON are exact (JSON escapes
// the C0 controls itself) and do not come through here.

/**
 * Beyond C0, DEL and C1: the bidi embeddings, overrides, isolates and marks (U+202A–U+202E,
 * U+2066–U+2069, U+200E, U+200F, U+061C), which reorder what is shown, and what hides in plain sight:
 * the zero-width space, the word joiner and the BOM (an id holding one looks like another). The joiners
 * U+200C/U+200D stay: scripts and emoji need them. Every form below (terminal text, TSV, JSON) takes
 * the same set, and so does the byte reader of exports (raw-json.ts), which copies only what none of
 * these would change.
 */
export const UNSAFE_BEYOND_C0: readonly (readonly [first: number, last: number])[] = [
  [0x7f, 0x9f], // DEL and C1
  [0x061c, 0x061c],
  [0x200b, 0x200b],
  [0x200e, 0x200f],
  [0x202a, 0x202e],
  [0x2060, 0x2060],
  [0x2066, 0x2069],
  [0xfeff, 0xfeff],
];
const u = (c: number) => `\\u${c.toString(16).padStart(4, '0')}`;
const BEYOND_C0 = UNSAFE_BEYOND_C0.map(([a, b]) => (a === b ? u(a) : `${u(a)}-${u(b)}`)).join('');
/** A character class of these, DEL and C1, with the C0 range given (other forms keep some of C0). */
export const chars = (c0: string, flags = '') => new RegExp(`[${c0}${BEYOND_C0}]`, flags);

/** What a terminal may act on, or what would mislead a reader (see above). */
export const UNSAFE_RE = chars('\\u0000-\\u001f', 'g');
const UNSAFE_TEST = chars('\\u0000-\\u001f');
const UNSAFE_BUT_NEWLINE = chars('\\u0000-\\u0009\\u000b-\\u001f', 'g');

const NAMED: Record<string, string> = {
  '\u0000': '\\0',
  '\u0007': '\\a',
  '\b': '\\b',
  '\t': '\\t',
  '\n': '\\n',
  '\u000b': '\\v',
  '\f': '\\f',
  '\r': '\\r',
  '\u001b': '\\e',
};

const hex = (n: number, digits: number) => n.toString(16).padStart(digits, '0');

/** One unsafe character as a visible escape: `\e`, `\r`, `\x7f`, `\u009b`, `\u202e`. */
export function escapeChar(ch: string): string {
  const named = NAMED[ch];
  if (named) return named;
  const code = ch.charCodeAt(0);
  return code <= 0x7f ? `\\x${hex(code, 2)}` : `\\u${hex(code, 4)}`;
}

/**
 * A string safe for a terminal: every control character, DEL and bidi override shown as an escape.
 * `newlines` keeps line feeds (text laid out in lines: messages, a stack trace).
 */
export function safeText(s: string, opts: { newlines?: boolean } = {}): string {
  if (!UNSAFE_TEST.test(s)) return s;
  return s.replace(opts.newlines ? UNSAFE_BUT_NEWLINE : UNSAFE_RE, escapeChar);
}

/**
 * A deep copy of a record whose every string (keys too) is safe for a terminal; line feeds and tabs
 * are kept, as whitespace the layouts fold or wrap. Values that need no change are returned as they
 * are, so a clean record costs a walk and no copy.
 */
export function safeDeep<T>(value: T): T {
  return clean(value, 0) as T;
}

const WHITESPACE_KEPT = chars('\\u0000-\\u0008\\u000b-\\u001f', 'g');

function clean(v: unknown, depth: number): unknown {
  if (typeof v === 'string') return UNSAFE_TEST.test(v) ? v.replace(WHITESPACE_KEPT, escapeChar) : v;
  if (v === null || typeof v !== 'object' || depth > 64) return v;
  if (Array.isArray(v)) {
    let out: unknown[] | undefined;
    for (let i = 0; i < v.length; i++) {
      const x = clean(v[i], depth + 1);
      if (x !== v[i]) (out ??= v.slice())[i] = x;
    }
    return out ?? v;
  }
  if (Object.getPrototypeOf(v) !== Object.prototype && Object.getPrototypeOf(v) !== null) return v;
  let out: Record<string, unknown> | undefined;
  const entries = Object.entries(v as Record<string, unknown>);
  for (const [k, x] of entries) {
    const key = safeText(k);
    const val = clean(x, depth + 1);
    if (key !== k || val !== x) {
      out ??= {};
      break;
    }
  }
  if (!out) return v;
  for (const [k, x] of entries) out[safeText(k)] = clean(x, depth + 1);
  return out;
}

/**
 * The TSV spelling (PostgreSQL COPY's text format, which `\t \n \r \\` already follow): `\b \f \v`
 * by name, other C0 controls and DEL as `\xNN`, and C1 controls and bidi overrides as the `\xNN`
 * bytes of their UTF-8 form, so a reader that decodes COPY escapes gets the exact value back.
 */
const TSV_ESCAPED = chars('\\u0000-\\u001f\\\\', 'g');

export function tsvEscape(s: string): string {
  return s.replace(TSV_ESCAPED, (ch) => {
    if (ch === '\\') return '\\\\';
    if (ch === '\t') return '\\t';
    if (ch === '\n') return '\\n';
    if (ch === '\r') return '\\r';
    if (ch === '\b') return '\\b';
    if (ch === '\f') return '\\f';
    if (ch === '\u000b') return '\\v';
    return [...Buffer.from(ch, 'utf8')].map((b) => `\\x${hex(b, 2)}`).join('');
  });
}

const JSON_RAW = chars('', 'g');

/**
 * JSON text safe for a terminal and still exact: JSON.stringify escapes C0 controls but writes DEL,
 * C1 controls and bidi overrides raw. Outside strings JSON has no such characters, so each is written
 * as its `\uXXXX` escape, which every JSON reader decodes back to the same value.
 */
export function safeJson(text: string): string {
  JSON_RAW.lastIndex = 0;
  if (!JSON_RAW.test(text)) return text;
  return text.replace(JSON_RAW, (ch) => `\\u${hex(ch.charCodeAt(0), 4)}`);
}
