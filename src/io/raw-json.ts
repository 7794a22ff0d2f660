// A byte-level reader of a list answer (`{"data": [...], "hasMore": ..., ...}`) that finds the bytes of
// each element of `data` without building a value for it. A long export (`events list --all -o
// ndjson`) then writes what the service sent, page by page, instead of parsing, masking and printing
// every record: a record allocated per event is what made the process's memory grow with the length
// of the export (V8's young generation doubles each time enough of what it holds survives).
//
// The bytes of an element may be written as they came only if the usual path would print exactly
// them: `safeJson(JSON.stringify(mask(JSON.parse(bytes))))`. So each element is marked clean only when
// - it is in the form JSON.stringify prints: no whitespace outside strings; in strings only the escapes
//   JSON.stringify writes (\" \\ \b \f \n \r \t and \u00XX, lower-case, for the other C0 controls);
//   numbers as Number#toString writes them (no exponent, no `-0`, no trailing zero in a fraction, at
//   most 15 significant digits, no more than 5 zeros after `0.`); valid UTF-8;
// - JSON.parse would keep every key in place: no key twice in an object (the last would win), no key
//   that is an array index (those come first in any object), no `__proto__`;
// - masking changes nothing: no key whose value masking may hide (mask.ts), matched as maskData
//   matches it (lower-cased);
// - terminal escaping changes nothing: none of the characters safeJson writes as \u escapes (DEL, C1
//   controls, bidi controls, hidden characters: safe-text.ts's UNSAFE_BEYOND_C0).
// Known secret strings (the API key) are looked for by the writer, which knows them.
// An element that is not clean is still valid JSON; its writer parses it and prints it the usual way.
// An answer that is not valid JSON, not an object with a `data` array, nested deeper than
// MAX_RAW_DEPTH, or that spells a key of the envelope with escapes or names `data` twice gets no
// RawList at all: the caller parses it as before (and so sees the same errors).
import { maskedKeyNames } from '../core/mask.js';
import { UNSAFE_BEYOND_C0 } from './safe-text.js';

/** The elements of a list answer's `data` array, as byte ranges of the answer; valid until the next scanList(). */
export interface RawList {
  readonly bytes: Buffer;
  readonly count: number;
  /** Element i is bytes[spans[2i], spans[2i + 1]). */
  readonly spans: Int32Array;
  /** 1 where element i may be written as its bytes (see above), 0 where it must be parsed. */
  readonly clean: Uint8Array;
  /** The envelope's `hasMore` is `true` (the last one, as JSON.parse keeps). */
  readonly hasMore: boolean;
}

/** Deeper answers are left to JSON.parse and the HTTP core's own depth rule (1,000). */
export const MAX_RAW_DEPTH = 200;

const FAIL = new Error('not a list answer this reader takes');

// Byte classes inside a string: 0 plain ASCII, 1 quote, 2 backslash, 3 control (invalid), 4 DEL or non-ASCII.
const STRING_CLASS = new Uint8Array(256);
for (let c = 0; c < 0x20; c++) STRING_CLASS[c] = 3;
STRING_CLASS[0x22] = 1;
STRING_CLASS[0x5c] = 2;
for (let c = 0x7f; c < 0x100; c++) STRING_CLASS[c] = 4;

// The key names masking looks at, by length, as lower-case ASCII bytes.
const MASKED_BY_LENGTH: Uint8Array[][] = [];
for (const name of maskedKeyNames) {
  const bytes = Buffer.from(name, 'latin1');
  (MASKED_BY_LENGTH[bytes.length] ??= []).push(bytes);
}
const PROTO = Buffer.from('__proto__', 'latin1');

/** Whether safeJson escapes this code point (beyond C0, which JSON escapes itself). */
function escaped(code: number): boolean {
  for (const [first, last] of UNSAFE_BEYOND_C0) if (code >= first && code <= last) return true;
  return false;
}

// The reader's state: one answer at a time, synchronously.
const EMPTY = Buffer.alloc(0);
let b: Buffer = EMPTY;
let p = 0;
let n = 0;
/** Set by anything that makes the current element unclean; reset at each element's start. */
let dirty = false;
/** What the last string held: 1 an escape, 2 a non-ASCII byte. */
let stringFlags = 0;
// The keys of the objects being read (a stack: an object's keys start at its base), for duplicates.
let keyHash = new Int32Array(256);
let keyStart = new Int32Array(256);
let keyLength = new Int32Array(256);
let keyTop = 0;
// The elements' ranges and marks, reused from answer to answer: a RawList is read before the next scan.
let spans = new Int32Array(256);
let clean = new Uint8Array(128);

/**
 * The elements of the `data` array of a list answer, or undefined when the answer is not one this
 * reader takes (the caller then parses it).
 */
export function scanList(bytes: Buffer): RawList | undefined {
  b = bytes;
  p = 0;
  n = bytes.length;
  keyTop = 0;
  try {
    return envelope();
  } catch (e) {
    if (e === FAIL || e instanceof RangeError) return undefined;
    throw e;
  } finally {
    b = EMPTY;
  }
}

/** Parses element i of a RawList the way the whole answer would have been parsed. */
export function parseElement(list: RawList, i: number): unknown {
  return JSON.parse(list.bytes.toString('utf8', list.spans[2 * i], list.spans[2 * i + 1]));
}

function envelope(): RawList {
  ws();
  if (b[p] !== 0x7b) throw FAIL;
  p++;
  let found = false;
  let count = 0;
  let hasMore = false;
  ws();
  if (b[p] === 0x7d) throw FAIL;
  for (;;) {
    if (b[p] !== 0x22) throw FAIL;
    const ks = p + 1;
    string();
    const ke = p - 1;
    // "d\u0061ta" is `data` to JSON.parse: an escaped envelope key is left to it.
    if (stringFlags & 1) throw FAIL;
    ws();
    if (b[p] !== 0x3a) throw FAIL;
    p++;
    ws();
    if (equals(ks, ke, 'data')) {
      if (found) throw FAIL;
      found = true;
      if (b[p] !== 0x5b) throw FAIL;
      p++;
      ws();
      if (b[p] === 0x5d) p++;
      else
        for (;;) {
          const start = p;
          dirty = false;
          value(2);
          if (count * 2 + 2 > spans.length) {
            const s2 = new Int32Array(spans.length * 2);
            s2.set(spans);
            spans = s2;
            const c2 = new Uint8Array(clean.length * 2);
            c2.set(clean);
            clean = c2;
          }
          spans[2 * count] = start;
          spans[2 * count + 1] = p;
          clean[count] = dirty ? 0 : 1;
          count++;
          ws();
          if (b[p] === 0x2c) {
            p++;
            ws();
          } else if (b[p] === 0x5d) {
            p++;
            break;
          } else throw FAIL;
        }
    } else if (equals(ks, ke, 'hasMore')) {
      hasMore = b[p] === 0x74;
      value(1);
    } else value(1);
    ws();
    if (b[p] === 0x2c) {
      p++;
      ws();
    } else if (b[p] === 0x7d) {
      p++;
      break;
    } else throw FAIL;
  }
  ws();
  if (p !== n || !found) throw FAIL;
  return { bytes: b, count, spans: spans.subarray(0, 2 * count), clean: clean.subarray(0, count), hasMore };
}

function equals(start: number, end: number, ascii: string): boolean {
  if (end - start !== ascii.length) return false;
  for (let i = 0; i < ascii.length; i++) if (b[start + i] !== ascii.charCodeAt(i)) return false;
  return true;
}

function ws(): void {
  while (p < n) {
    const c = b[p]!;
    if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) return;
    dirty = true;
    p++;
  }
}

function value(depth: number): void {
  if (p >= n) throw FAIL;
  const c = b[p]!;
  if (c === 0x22) string();
  else if (c === 0x7b) object(depth + 1);
  else if (c === 0x5b) array(depth + 1);
  else if (c === 0x2d || (c >= 0x30 && c <= 0x39)) number();
  else if (c === 0x74) literal('true');
  else if (c === 0x66) literal('false');
  else if (c === 0x6e) literal('null');
  else throw FAIL;
}

function literal(word: string): void {
  if (!equals(p, p + word.length, word) || p + word.length > n) throw FAIL;
  p += word.length;
}

function array(depth: number): void {
  if (depth > MAX_RAW_DEPTH) throw FAIL;
  p++;
  ws();
  if (b[p] === 0x5d) {
    p++;
    return;
  }
  for (;;) {
    value(depth);
    ws();
    const c = b[p];
    p++;
    if (c === 0x2c) ws();
    else if (c === 0x5d) return;
    else throw FAIL;
  }
}

function object(depth: number): void {
  if (depth > MAX_RAW_DEPTH) throw FAIL;
  p++;
  ws();
  if (b[p] === 0x7d) {
    p++;
    return;
  }
  const base = keyTop;
  for (;;) {
    if (b[p] !== 0x22) throw FAIL;
    const ks = p + 1;
    string();
    key(ks, p - 1, base);
    ws();
    if (b[p] !== 0x3a) throw FAIL;
    p++;
    ws();
    value(depth);
    ws();
    const c = b[p];
    p++;
    if (c === 0x2c) ws();
    else if (c === 0x7d) break;
    else throw FAIL;
  }
  keyTop = base;
}

/** A key of an object whose keys start at `base` on the key stack: marks the element when JSON.parse, masking or a repeat would change it. */
function key(ks: number, ke: number, base: number): void {
  const len = ke - ks;
  if (stringFlags === 0) {
    const first = b[ks]!;
    if (first >= 0x30 && first <= 0x39 && (len === 1 || first !== 0x30)) {
      let digits = true;
      for (let i = ks + 1; i < ke; i++) if (b[i]! < 0x30 || b[i]! > 0x39) digits = false;
      // An integer key is listed first by JSON.stringify, whatever its place in the answer.
      if (digits) dirty = true;
    }
    if (len === 9 && sameBytes(PROTO, 0, ks, 9)) dirty = true;
    const names = MASKED_BY_LENGTH[len];
    if (names)
      for (const name of names) {
        let same = true;
        for (let i = 0; i < len; i++) {
          const c = b[ks + i]!;
          if ((c >= 0x41 && c <= 0x5a ? c | 0x20 : c) !== name[i]) {
            same = false;
            break;
          }
        }
        if (same) dirty = true;
      }
  } else if (stringFlags & 2) {
    // toLowerCase() maps some non-ASCII letters to ASCII (the Kelvin sign to "k"), as maskData compares.
    const k = JSON.parse(b.toString('utf8', ks - 1, ke + 1)) as string;
    if (maskedKeyNames.has(k.toLowerCase())) dirty = true;
  }
  // Escapes that JSON.stringify writes stand only for controls, `"` and `\`: no name above has them.
  let h = 0x811c9dc5 | 0;
  for (let i = ks; i < ke; i++) h = Math.imul(h ^ b[i]!, 0x01000193);
  for (let j = base; j < keyTop; j++) {
    if (keyHash[j] === h && keyLength[j] === len && sameBytes(b, keyStart[j]!, ks, len)) dirty = true;
  }
  if (keyTop === keyHash.length) {
    const grow = (a: Int32Array) => {
      const g = new Int32Array(a.length * 2);
      g.set(a);
      return g;
    };
    keyHash = grow(keyHash);
    keyStart = grow(keyStart);
    keyLength = grow(keyLength);
  }
  keyHash[keyTop] = h;
  keyStart[keyTop] = ks;
  keyLength[keyTop] = len;
  keyTop++;
}

/** Whether a[from, from + len) equals b[at, at + len) (Buffer#compare allocates on each call). */
function sameBytes(a: Uint8Array, from: number, at: number, len: number): boolean {
  for (let i = 0; i < len; i++) if (a[from + i] !== b[at + i]) return false;
  return true;
}

const isCont = (c: number | undefined) => c !== undefined && (c & 0xc0) === 0x80;
const isHex = (c: number | undefined) => c !== undefined && ((c >= 0x30 && c <= 0x39) || (c >= 0x61 && c <= 0x66) || (c >= 0x41 && c <= 0x46));

function string(): void {
  p++;
  stringFlags = 0;
  for (;;) {
    if (p >= n) throw FAIL;
    const c = b[p++]!;
    const k = STRING_CLASS[c]!;
    if (k === 0) continue;
    if (k === 1) return;
    if (k === 3) throw FAIL;
    if (k === 2) {
      stringFlags |= 1;
      const e = b[p++];
      if (e === 0x22 || e === 0x5c || e === 0x62 || e === 0x66 || e === 0x6e || e === 0x72 || e === 0x74) continue;
      if (e === 0x2f) {
        dirty = true;
        continue;
      }
      if (e !== 0x75) throw FAIL;
      if (!isHex(b[p]) || !isHex(b[p + 1]) || !isHex(b[p + 2]) || !isHex(b[p + 3])) throw FAIL;
      // JSON.stringify writes \u00XX (lower-case) for C0 controls without a short escape; anything else
      // (a lone surrogate's \udXXX included) is left to the usual path.
      const d3 = b[p + 2]!;
      const d4 = b[p + 3]!;
      const low = d4 <= 0x39 ? d4 - 0x30 : d4 - 0x57;
      const code = (d3 - 0x30) * 16 + low;
      if (
        b[p] !== 0x30 ||
        b[p + 1] !== 0x30 ||
        (d3 !== 0x30 && d3 !== 0x31) ||
        !((d4 >= 0x30 && d4 <= 0x39) || (d4 >= 0x61 && d4 <= 0x66)) ||
        code === 8 ||
        code === 9 ||
        code === 10 ||
        code === 12 ||
        code === 13
      )
        dirty = true;
      p += 4;
      continue;
    }
    // DEL, then UTF-8 sequences: a character safeJson escapes makes the element unclean; invalid
    // sequences are decoded to U+FFFD by the usual path.
    stringFlags |= 2;
    if (c === 0x7f) {
      if (escaped(c)) dirty = true;
      continue;
    }
    const c1 = b[p];
    if (c >= 0xc2 && c <= 0xdf) {
      if (!isCont(c1)) {
        dirty = true;
        continue;
      }
      p++;
      if (escaped(((c & 0x1f) << 6) | (c1! & 0x3f))) dirty = true;
      continue;
    }
    if (c >= 0xe0 && c <= 0xef) {
      const c2 = b[p + 1];
      const ok = c === 0xe0 ? c1! >= 0xa0 && c1! <= 0xbf : c === 0xed ? c1! >= 0x80 && c1! <= 0x9f : isCont(c1);
      if (!ok || !isCont(c2)) {
        dirty = true;
        continue;
      }
      p += 2;
      if (escaped(((c & 0x0f) << 12) | ((c1! & 0x3f) << 6) | (c2! & 0x3f))) dirty = true;
      continue;
    }
    if (c >= 0xf0 && c <= 0xf4) {
      const ok = c === 0xf0 ? c1! >= 0x90 && c1! <= 0xbf : c === 0xf4 ? c1! >= 0x80 && c1! <= 0x8f : isCont(c1);
      if (!ok || !isCont(b[p + 1]) || !isCont(b[p + 2])) {
        dirty = true;
        continue;
      }
      if (escaped(((c & 0x07) << 18) | ((c1! & 0x3f) << 12) | ((b[p + 1]! & 0x3f) << 6) | (b[p + 2]! & 0x3f))) dirty = true;
      p += 3;
      continue;
    }
    dirty = true;
  }
}

function number(): void {
  const neg = b[p] === 0x2d;
  if (neg) p++;
  const intStart = p;
  const c = b[p];
  if (c === 0x30) p++;
  else if (c !== undefined && c >= 0x31 && c <= 0x39) while (p < n && b[p]! >= 0x30 && b[p]! <= 0x39) p++;
  else throw FAIL;
  const intLen = p - intStart;
  const intIsZero = c === 0x30;
  let fracLen = 0;
  let fracZeros = 0;
  if (b[p] === 0x2e) {
    p++;
    const fracStart = p;
    while (p < n && b[p]! >= 0x30 && b[p]! <= 0x39) p++;
    fracLen = p - fracStart;
    if (fracLen === 0) throw FAIL;
    while (fracZeros < fracLen && b[fracStart + fracZeros] === 0x30) fracZeros++;
    // 1.50 prints as 1.5, 0.0 as 0.
    if (b[p - 1] === 0x30) dirty = true;
  }
  if (b[p] === 0x65 || b[p] === 0x45) {
    p++;
    if (b[p] === 0x2b || b[p] === 0x2d) p++;
    const expStart = p;
    while (p < n && b[p]! >= 0x30 && b[p]! <= 0x39) p++;
    if (p === expStart) throw FAIL;
    dirty = true;
    return;
  }
  if (intIsZero) {
    if (fracLen === 0) {
      // -0 prints as 0.
      if (neg) dirty = true;
      return;
    }
    // 0.0000001 prints as 1e-7; more than 15 significant digits may not print back the same.
    if (fracZeros > 5 || fracLen - fracZeros > 15) dirty = true;
  } else if (intLen + fracLen > 15) dirty = true;
}
