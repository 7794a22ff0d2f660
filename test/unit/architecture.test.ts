// The layers of docs/architecture.md ("The layers"), read from the import statements of src/ (type
// imports included): every rule that section states is checked here, and every folder of src/ is named
// in the document.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';

const SRC = fileURLToPath(new URL('../../src/', import.meta.url));
const DOC = fileURLToPath(new URL('../../docs/architecture.md', import.meta.url));

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? files(p) : /\.tsx?$/.test(p) ? [p] : [];
  });
}

function folders(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? [relative(SRC, p), ...folders(p)] : [];
  });
}

/** src-relative path → the src-relative paths it imports (static, type-only, re-exports and dynamic). */
function graph(): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const file of files(SRC)) {
    const text = readFileSync(file, 'utf8');
    const targets = [...text.matchAll(/(?:from\s+|import\s*\(\s*)'(\.{1,2}\/[^']+)'/g)].map((m) =>
      relative(SRC, resolve(dirname(file), m[1]!)).replace(/\.js$/, '.ts'),
    );
    out.set(relative(SRC, file), targets);
  }
  return out;
}

const g = graph();
const ENTRY = /^(main|execute|cli|cli-args|runtime|deps|about)\.ts$|^commands\//;
const layer = (prefix: string) => [...g.entries()].filter(([f]) => f.startsWith(prefix));
/** The imports of the files under `prefix` that `allowed` refuses, as "file → target". */
const outside = (prefix: string, allowed: (target: string) => boolean) =>
  layer(prefix).flatMap(([f, ts]) => ts.filter((t) => !allowed(t)).map((t) => `${f} → ${t}`));
const under =
  (...prefixes: string[]) =>
  (t: string) =>
    prefixes.some((p) => t.startsWith(p));

describe('the rules of docs/architecture.md', () => {
  test('the graph sees the imports (a broken reader would pass every rule below)', () => {
    expect(g.get('core/input.ts')).toContain('core/size.ts');
    expect(g.get('server/app.ts')).toContain('api/limits.ts');
    expect(outside('server/', under('server/'))).not.toEqual([]);
  });

  test('server/ imports only server/, api/ (the contract) and core/: never commands/, io/, config/ or the entry', () => {
    expect(outside('server/', under('server/', 'api/', 'core/'))).toEqual([]);
  });

  test('core/ imports only core/ (type imports too): never api/', () => {
    expect(outside('core/', under('core/'))).toEqual([]);
  });

  test('config/ imports only config/ and core/', () => {
    expect(outside('config/', under('config/', 'core/'))).toEqual([]);
  });

  test('testing/ imports only testing/, server/ and core/: it drives svc dev through its HTTP API', () => {
    expect(layer('testing/')).not.toEqual([]);
    expect(outside('testing/', under('testing/', 'server/', 'core/'))).toEqual([]);
  });

  test('server/engine/ imports only the engine, api/ and core/: no store, clock, outbound, runner', () => {
    expect(outside('server/engine/', under('server/engine/', 'api/', 'core/'))).toEqual([]);
  });

  test('every folder of src/ is named in docs/architecture.md', () => {
    const doc = readFileSync(DOC, 'utf8');
    // commands/<noun>/ folders are the command tree itself ("file tree = command tree").
    const named = (dir: string) => new RegExp(`(^|[\\s\`(])(src/)?${dir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/`, 'm').test(doc);
    const missing = folders(SRC).filter((d) => !/^commands\/./.test(d) && !named(d));
    expect(missing).toEqual([]);
  });
});

describe('layers', () => {
  test('api/ imports neither the entry nor io/', () => {
    const bad = layer('api/').flatMap(([f, ts]) => ts.filter((t) => ENTRY.test(t) || t.startsWith('io/')).map((t) => `${f} → ${t}`));
    expect(bad).toEqual([]);
  });

  test('io/ imports neither the entry nor api/', () => {
    const bad = layer('io/').flatMap(([f, ts]) => ts.filter((t) => ENTRY.test(t) || t.startsWith('api/')).map((t) => `${f} → ${t}`));
    expect(bad).toEqual([]);
  });

  test('no import cycle in the CLI', () => {
    const cli = new Map([...g].filter(([f]) => !f.startsWith('server/')));
    const cycles: string[] = [];
    const state = new Map<string, 'open' | 'done'>();
    const visit = (f: string, path: string[]) => {
      if (state.get(f) === 'done') return;
      if (state.get(f) === 'open') {
        cycles.push([...path.slice(path.indexOf(f)), f].join(' → '));
        return;
      }
      state.set(f, 'open');
      for (const t of cli.get(f) ?? []) if (cli.has(t)) visit(t, [...path, f]);
      state.set(f, 'done');
    };
    for (const f of cli.keys()) visit(f, []);
    expect(cycles).toEqual([]);
  });

  test("the service throws no CLI errors: exit codes are the CLI's, svc dev maps the service's errors", () => {
    const bad = layer('server/').flatMap(([f, ts]) => ts.filter((t) => t === 'core/errors.ts').map((t) => `${f} → ${t}`));
    expect(bad).toEqual([]);
  });

  test('the only API client is the one the dependencies hand out', () => {
    // ApiClient (the bare HTTP core) is constructed by api/session.ts alone; commands ask deps.client().
    const bad = [...g.keys()].filter((f) => f !== 'api/session.ts' && /new ApiClient\(/.test(readFileSync(join(SRC, f), 'utf8')));
    expect(bad).toEqual([]);
  });

  test('waits are node:timers/promises with a signal, never a hand-written sleep', () => {
    // A hand-written sleep that adds an abort listener per wait piled them up (MaxListenersExceededWarning
    // after ~11 polls of trigger --wait); one without a signal could not be interrupted. src/console runs
    // in a browser, which has no node:timers.
    const bad = [...g.keys()].filter((f) => !f.startsWith('console/') && /new Promise[\s\S]{0,300}?\bsetTimeout\(/.test(readFileSync(join(SRC, f), 'utf8')));
    expect(bad).toEqual([]);
  });
});
