// The one sanitiser on the way to a terminal (src/io/safe-text.ts) and the exact forms of the machine
// formats: every control character, DEL and bidi override becomes a visible escape; JSON, YAML and TSV
// (decoded as COPY text) give back the exact value.
import { describe, expect, it } from 'vitest';
import { Document, parse as parseYaml } from 'yaml';
import * as yaml from 'yaml';
import { safeDeep, safeJson, safeText, tsvEscape } from '../../src/io/safe-text.js';
import { yamlText } from '../../src/io/output.js';

const CORPUS = 'Eve\u001b]0;PWNED\u0007\u001b[31mred\u001b[2Jwipe\u009bcsi\u202eevil\u2066iso\u007fdel\u0000nul\rcr\u0008bs\u0085nel';
const RAW = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

describe('safeText', () => {
  it('shows every control as an escape and emits none', () => {
    const s = safeText(CORPUS);
    expect(s).not.toMatch(RAW);
    expect(s).toBe('Eve\\e]0;PWNED\\a\\e[31mred\\e[2Jwipe\\u009bcsi\\u202eevil\\u2066iso\\x7fdel\\0nul\\rcr\\bbs\\u0085nel');
  });
  it('bidi marks and invisible characters too (zero-width space, word joiner, BOM); the joiners emoji and scripts need stay', () => {
    expect(safeText('zw\u200bjoin\u2060x\ufeffy\u200el\u200fr\u061ca')).toBe('zw\\u200bjoin\\u2060x\\ufeffy\\u200el\\u200fr\\u061ca');
    expect(safeText('👩\u200d👩\u200d👧 می\u200cخواهم')).toBe('👩\u200d👩\u200d👧 می\u200cخواهم');
    const hidden = 'zw\u200bjoin\u2060\ufeff\u200e';
    expect(JSON.parse(safeJson(JSON.stringify({ v: hidden }))).v).toBe(hidden);
    expect(safeJson(JSON.stringify({ v: hidden }))).not.toMatch(/[\u200b\u2060\ufeff\u200e]/);
    expect(tsvEscape(hidden)).not.toMatch(/[\u200b\u2060\ufeff\u200e]/);
  });
  it('keeps line feeds when asked, and text without controls as it is (the same string)', () => {
    expect(safeText('a\nb\u001b', { newlines: true })).toBe('a\nb\\e');
    const clean = '日本語 👩‍👩‍👧 é';
    expect(safeText(clean)).toBe(clean);
  });
  it('safeDeep: keys and values, nested; a clean record is returned untouched', () => {
    const rec = { [`k${CORPUS}`]: [{ v: CORPUS, n: 1, ok: 'fine' }] };
    const out = safeDeep(rec);
    const [key, list] = Object.entries(out)[0] as [string, { v: string; n: number }[]];
    const inner = list[0];
    expect(key).not.toMatch(RAW);
    expect(inner!.v).not.toMatch(RAW);
    expect(inner!.v).toBe(safeText(CORPUS));
    expect(inner!.n).toBe(1);
    const clean = { a: { b: ['x', 1, null] } };
    expect(safeDeep(clean)).toBe(clean);
  });
});

describe('the machine formats stay exact', () => {
  it('JSON: DEL, C1 and bidi as \\u escapes, the same value parsed back', () => {
    const text = safeJson(JSON.stringify({ v: CORPUS }));
    expect(text).not.toMatch(RAW);
    expect(JSON.parse(text).v).toBe(CORPUS);
  });
  it('YAML: double-quoted with YAML escapes, the same value parsed back', () => {
    const text = yamlText(yaml, { [`k${CORPUS}`]: CORPUS, plain: 'ok', multi: 'a\nb' });
    expect(text.replace(/\n/g, ' ')).not.toMatch(RAW);
    expect(parseYaml(text)).toEqual({ [`k${CORPUS}`]: CORPUS, plain: 'ok', multi: 'a\nb' });
    // Ordinary text keeps its ordinary form.
    expect(text).toContain('plain: ok');
    expect(new Document({ plain: 'ok' }).toString()).toBe('plain: ok\n');
  });
  it('TSV: COPY text escapes, decoded back to the same value', () => {
    const field = tsvEscape(CORPUS);
    expect(field).not.toMatch(RAW);
    // COPY text format: \\xNN is a byte, \\t \\n \\r \\b \\f \\v and \\\\ by name.
    const named: Record<string, number> = { t: 9, n: 10, r: 13, b: 8, f: 12, v: 11, '\\': 92 };
    const bytes: number[] = [];
    for (let i = 0; i < field.length; i++) {
      if (field[i] !== '\\') {
        bytes.push(...Buffer.from(field[i]!, 'utf8'));
        continue;
      }
      const c = field[++i]!;
      if (c === 'x') {
        bytes.push(Number.parseInt(field.slice(i + 1, i + 3), 16));
        i += 2;
      } else bytes.push(named[c]!);
    }
    expect(Buffer.from(bytes).toString('utf8')).toBe(CORPUS);
  });
});
