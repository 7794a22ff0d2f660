// The build turns the hot path's chunk (an ES module) into the script dist/main.js runs with a code cache
// made after the command ran (src/script-cache.ts). What it changes, and what it refuses to change: a
// chunk it cannot turn into a script stops the build instead of breaking the first run.
import { runInThisContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a script of the repository, plain JavaScript
import { hotPathScript } from '../../scripts/hot-path-script.mjs';

type Converted = { script: string; exported: string[] };
const convert = (text: string) => hotPathScript(text) as Converted;

describe("the hot path's script", () => {
  it('is a function of the module URL and a chunk importer, returning the exports under their exported names', async () => {
    const { script, exported } = convert(
      [
        'const here = import.meta.url;',
        'class Command2 { name() { return "cmd"; } }',
        'function load() { return import("./chunks/a-ABCDEFGH.js"); }',
        'var count = 1;',
        'export{here,Command2 as Command,load,count};',
      ].join('\n'),
    );
    expect(exported).toEqual(['here', 'Command', 'load', 'count']);
    expect(script.split('\n')[0]).toMatch(/^\(function \(__svcModuleUrl, __svcImportChunk\) \{/);
    const imported: string[] = [];
    const fn = runInThisContext(script) as (url: string, imp: (s: string) => Promise<unknown>) => Record<string, unknown>;
    const hot = fn('file:///x/dist/main.js', async (s) => {
      imported.push(s);
      return { ok: true };
    });
    expect(hot.here).toBe('file:///x/dist/main.js');
    expect(new (hot.Command as new () => { name(): string })().name()).toBe('cmd');
    expect(await (hot.load as () => Promise<unknown>)()).toEqual({ ok: true });
    expect(imported).toEqual(['./chunks/a-ABCDEFGH.js']);
    expect(hot.count).toBe(1);
  });

  it('runs in strict mode, as the module did', () => {
    const { script } = convert('function sloppy() { undeclared = 1; }\nexport{sloppy};');
    const hot = (runInThisContext(script) as (u: string, i: unknown) => { sloppy(): void })('file:///m.js', null);
    expect(() => hot.sloppy()).toThrow(ReferenceError);
  });

  it('refuses an export that a function assigns later: dist/main.js re-exports values, not live bindings', () => {
    const lazy = 'var shapes, init_shapes = () => { shapes = { a: 1 }; };\nexport{shapes,init_shapes};';
    expect(() => convert(lazy)).toThrow(/exports bindings a function assigns .*: shapes/);
    expect(() => convert('let n = 0;\nfunction next() { return n++; }\nexport{n,next};')).toThrow(/: n$/);
    expect(() => convert('let a, b;\nfunction set(o) { ({ a, b } = o); }\nexport{a,set};')).toThrow(/: a$/);
    // Assigned at the top level, before the script returns: what dist/main.js re-exports is final.
    expect(convert('var ready = false;\nready = true;\nfunction f() { let ready = 0; ready++; return ready; }\nexport{ready};').exported).toEqual(['ready']);
  });

  it('refuses module syntax it does not turn into script code, and code that is not a script', () => {
    expect(() => convert('import{x}from"./chunks/x.js";\nexport{x};')).toThrow(/module syntax/);
    expect(() => convert('const m = import(name);\nexport{m};')).toThrow(/module syntax/);
    expect(() => convert('const d = import.meta.dirname;\nexport{d};')).toThrow(/module syntax/);
    expect(() => convert('const v = await Promise.resolve(1);\nexport{v};')).toThrow(SyntaxError);
    expect(() => convert('const v = 1;')).toThrow(/one export list/);
  });
});
