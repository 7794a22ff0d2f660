// Values given on the command line (cli.md, "Input values"): JSON flags as inline JSON, `@file`
// (.json, .yaml, .yml) or `-` for stdin; `--set key=value` / `key:=<json>` with dotted keys; context
// references; identifiers. Every error names the flag and what was expected, and is a UsageError (exit 2).
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { UsageError } from './errors.js';
import { locateJsonError } from './json-error.js';
import { MAX_JSON_DEPTH, nestedDeeperThan, yamlNestsDeeperThan } from './json-depth.js';
import type { Readable } from 'node:stream';
import { loadYaml } from './lazy.js';
import { MAX_BODY_BYTES, sizeText } from './size.js';

/** A value larger than the largest body the service reads can never be sent: refused before reading. */
const MAX_INPUT_BYTES = MAX_BODY_BYTES;
const OVER_LIMIT = `the service accepts request bodies of at most ${sizeText(MAX_BODY_BYTES)}`;
/** Identifiers longer than this are refused (the spec names no limit; this guards against mistakes). */
const MAX_ID_LENGTH = 512;

const CONTROL_RE = /[\u0000-\u001f\u007f]/;

export class InputReader {
  private stdinTakenBy?: string;

  constructor(
    private readonly stdin: Readable,
    private readonly cwd: string,
  ) {}

  /** Reads all of stdin once; a second flag asking for stdin is a usage error. */
  async stdinText(flag: string): Promise<string> {
    if (this.stdinTakenBy) {
      throw new UsageError(`${flag}: stdin is already used by ${this.stdinTakenBy}; give one of them a file or a value`);
    }
    this.stdinTakenBy = flag;
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of this.stdin) {
      const b = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
      size += b.length;
      if (size > MAX_INPUT_BYTES) throw new UsageError(`${flag}: stdin holds more than ${sizeText(MAX_INPUT_BYTES)}; ${OVER_LIMIT}`);
      chunks.push(b);
    }
    return Buffer.concat(chunks).toString('utf8');
  }

  /** Text of `@file`, with the errors a user can act on. */
  async fileText(flag: string, path: string): Promise<string> {
    const full = resolve(this.cwd, path);
    try {
      // node:fs/promises when a file is read, not with this module (every command loads it).
      const { readFile, stat } = process.getBuiltinModule('node:fs/promises');
      const st = await stat(full);
      if (st.isDirectory()) throw new UsageError(`${flag}: ${path} is a directory, expected a file`);
      if (st.size > MAX_INPUT_BYTES) {
        throw new UsageError(`${flag}: ${path} is ${sizeText(st.size)}; ${OVER_LIMIT}`);
      }
      return await readFile(full, 'utf8');
    } catch (e) {
      if (e instanceof UsageError) throw e;
      const code = (e as NodeJS.ErrnoException).code;
      const why = code === 'ENOENT' ? 'no such file' : code === 'EACCES' || code === 'EPERM' ? 'permission denied' : (e as Error).message;
      throw new UsageError(`${flag}: cannot read ${path}: ${why}`);
    }
  }

  /** A JSON flag's value: inline JSON, `@file` (JSON or YAML by extension) or `-` (stdin). */
  async json(flag: string, value: string): Promise<unknown> {
    if (value === '-') return parseJsonText(flag, await this.stdinText(flag), 'stdin');
    if (value.startsWith('@')) {
      const path = value.slice(1);
      if (!path) throw new UsageError(`${flag}: expected a file name after "@"`);
      const text = await this.fileText(flag, path);
      if (/\.ya?ml$/i.test(path)) return parseYamlText(flag, text, path);
      return parseJsonText(flag, text, path);
    }
    try {
      return parseJsonText(flag, value);
    } catch (e) {
      // `--data wf.yaml` (a shell's completion that dropped the @, or a habit from curl): say how to read the file.
      if (e instanceof UsageError && this.looksLikeFile(value)) {
        throw new UsageError(`${e.message}; to read the file ${value}, write ${flag} @${value}`);
      }
      throw e;
    }
  }

  /** A value that names a file here, or has a JSON or YAML file's extension, rather than being JSON. */
  private looksLikeFile(value: string): boolean {
    if (!value || /^\s*[[{"]/.test(value) || /\s/.test(value)) return false;
    if (/\.(json|ya?ml|ndjson|jsonl)$/i.test(value)) return true;
    try {
      return statSync(resolve(this.cwd, value)).isFile();
    } catch {
      return false;
    }
  }

  /** A JSON flag that must hold an object. */
  async jsonObject(flag: string, value: string): Promise<Record<string, unknown>> {
    const v = await this.json(flag, value);
    if (!isPlainObject(v)) throw new UsageError(`${flag}: expected a JSON object, got ${describeJson(v)}`);
    return v;
  }
}

export function parseJsonText(flag: string, text: string, source?: string): unknown {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    const where = locateJsonError(text);
    const file = source ? ` in ${source}` : '';
    throw new UsageError(`${flag}: invalid JSON${file} at line ${where.line}, column ${where.column}: ${where.message}`);
  }
  return checkDepth(flag, value, source);
}

function checkDepth(flag: string, value: unknown, source: string | undefined): unknown {
  if (nestedDeeperThan(value)) {
    throw new UsageError(`${flag}: the value${source ? ` in ${source}` : ''} nests more than ${MAX_JSON_DEPTH} levels deep`);
  }
  return value;
}

async function parseYamlText(flag: string, text: string, source: string): Promise<unknown> {
  if (yamlNestsDeeperThan(text)) {
    throw new UsageError(`${flag}: the value in ${source} nests more than ${MAX_JSON_DEPTH} levels deep`);
  }
  const { parse } = await loadYaml();
  try {
    return checkDepth(flag, parse(text), source);
  } catch (e) {
    if (e instanceof UsageError) throw e;
    throw yamlUsageError(flag, source, e);
  }
}

/** A YAML parse error as one line: the file, line and column, and the parser's message. */
export function yamlUsageError(flag: string, source: string, e: unknown): UsageError {
  const pos = (e as { linePos?: { line: number; col: number }[] }).linePos?.[0];
  const at = pos ? ` at line ${pos.line}, column ${pos.col}` : '';
  // The parser's message repeats the position and then quotes the text on further lines.
  const message = String((e as Error)?.message ?? e)
    .split('\n')[0]!
    .replace(/ at line \d+, column \d+:?$/, '');
  return new UsageError(`${flag}: invalid YAML in ${source}${at}: ${message}`);
}

/** A user's value for an error message: quoted, escaped (one line), shortened. */
export function quote(value: string, max = 60): string {
  const v = value.length > max ? `${value.slice(0, max)}…` : value;
  return JSON.stringify(v);
}

export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function describeJson(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  return `a ${typeof v}`;
}

const KEY_SEGMENT_RE = /^[^.\s]+$/;

/**
 * `--set` pairs into an object: `a.b=text` sets a string, `n:=5` / `tags:=["x"]` sets parsed JSON.
 * Dotted keys nest. A later pair overrides an earlier one.
 */
export function parseSetPairs(flag: string, pairs: string[], into: Record<string, unknown> = {}): Record<string, unknown> {
  for (const pair of pairs) {
    const typed = /^([^=:]+):=(.*)$/s.exec(pair);
    const plain = typed ? null : /^([^=]+)=(.*)$/s.exec(pair);
    const m = typed ?? plain;
    if (!m) throw new UsageError(`${flag}: expected key=value or key:=<json>, got ${quote(pair)}`);
    const key = m[1]!.trim();
    const segments = key.split('.');
    if (!segments.every((s) => KEY_SEGMENT_RE.test(s))) {
      throw new UsageError(`${flag}: invalid key ${quote(key)}: use dotted names such as user.name`);
    }
    for (const s of segments) {
      if (s === '__proto__' || s === 'constructor' || s === 'prototype') throw new UsageError(`${flag}: key ${quote(key)} is not allowed`);
    }
    const value = typed ? parseJsonText(`${flag} ${key}`, m[2]!) : m[2]!;
    setPath(into, segments, value, flag);
  }
  return into;
}

function setPath(obj: Record<string, unknown>, path: string[], value: unknown, flag: string): void {
  let cur = obj;
  for (let k = 0; k < path.length - 1; k++) {
    const seg = path[k]!;
    const next = cur[seg];
    if (next === undefined) cur[seg] = {};
    else if (!isPlainObject(next)) {
      throw new UsageError(`${flag}: cannot set ${path.join('.')}: ${path.slice(0, k + 1).join('.')} is not an object`);
    }
    cur = cur[seg] as Record<string, unknown>;
  }
  cur[path[path.length - 1]!] = value;
}

/** Deep merge of plain objects; `over` wins; arrays are replaced. */
export function deepMerge(base: Record<string, unknown>, over: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base };
  for (const [k, v] of Object.entries(over)) {
    const b = out[k];
    out[k] = isPlainObject(b) && isPlainObject(v) ? deepMerge(b, v) : v;
  }
  return out;
}

/** An identifier given on the command line: non-empty, no control characters, not absurdly long. */
export function checkId(label: string, value: string): string {
  if (value.length === 0) throw new UsageError(`${label}: must not be empty`);
  if (CONTROL_RE.test(value)) throw new UsageError(`${label}: must not contain control characters`);
  if (value.length > MAX_ID_LENGTH) throw new UsageError(`${label}: must be at most ${MAX_ID_LENGTH} characters (got ${value.length})`);
  return value;
}

const CONTEXT_PART_RE = /^[a-zA-Z0-9_-]{1,100}$/;

/**
 * `TYPE=ID` or `TYPE:ID` (both are accepted everywhere: neither character can appear in a part);
 * `sep` is the form the flag documents, which an error shows.
 */
export function parseContextRef(flag: string, value: string, sep: '=' | ':' = '='): { type: string; id: string } {
  const m = /^([^=:]*)[=:](.*)$/s.exec(value);
  if (!m) throw new UsageError(`${flag}: expected TYPE${sep}ID (e.g. tenant${sep}acme), got ${quote(value)}`);
  const [type, id] = [m[1]!, m[2]!];
  for (const [what, part] of [
    ['type', type],
    ['id', id],
  ] as const) {
    if (!CONTEXT_PART_RE.test(part)) {
      throw new UsageError(`${flag}: context ${what} ${quote(part)} must be 1-100 characters of letters, digits, "_" or "-"`);
    }
  }
  return { type, id };
}
