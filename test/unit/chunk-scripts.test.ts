// The build turns the hot path's chunk (an ES module) into the script dist/main.cjs runs with a code cache
// made after the command ran (src/script-cache.ts), and so every chunk that imports nothing but the hot
// path. What it changes, and what it refuses to change: a hot path it cannot turn into a script stops the
// build instead of breaking the first run; such a chunk stays an ES module.
import { runInThisContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a script of the repository, plain JavaScript
import { chunkScript, hotPathScript } from '../../scripts/chunk-scripts.mjs';

const BANNER = "const require = (id) => process.getBuiltinModule(id) ?? process.getBuiltinModule('node:module').createRequire(import.meta.url)(id);";
type ScriptFn = (meta: object, hot: object, imp: (s: string) => Promise<unknown>) => Record<string, unknown>;
type Converted = { script: string; exported: string[] };
/** The hot path's chunk of these lines (after the chunks' first line) as a script. */
const convert = (...lines: string[]) => hotPathScript([BANNER, ...lines].join('\n'), BANNER) as Converted;

describe("the hot path's script", () => {
  it('is a function of its import.meta and a chunk importer, returning the exports under their exported names', async () => {
    const { script, exported } = convert(
      'const here = import.meta.url;',
      'class Command2 { name() { return "cmd"; } }',
      'function load() { return import("./a-ABCDEFGH.js"); }',
      'var count = 1;',
      'export{here,Command2 as Command,load,count};',
    );
    expect(exported).toEqual(['here', 'Command', 'load', 'count']);
    expect(script.split('\n')[0]).toMatch(/^\(function \(__svcMeta__, __svcHot, __svcI\) \{ 'use strict'; const require = /);
    const imported: string[] = [];
    const fn = runInThisContext(script) as ScriptFn;
    const hot = fn({ url: 'file:///x/dist/hot-path.js' }, {}, async (s) => {
      imported.push(s);
      return { ok: true };
    });
    expect(hot.here).toBe('file:///x/dist/hot-path.js');
    expect(new (hot.Command as new () => { name(): string })().name()).toBe('cmd');
    expect(await (hot.load as () => Promise<unknown>)()).toEqual({ ok: true });
    expect(imported).toEqual(['./a-ABCDEFGH.js']);
    expect(hot.count).toBe(1);
    // Values, not getters: what the chunks take from it is what it returned.
    expect(Object.getOwnPropertyDescriptor(hot, 'count')?.get).toBeUndefined();
  });

  it('runs in strict mode, as the module did', () => {
    const { script } = convert('function sloppy() { undeclared = 1; }', 'export{sloppy};');
    const hot = (runInThisContext(script) as ScriptFn)({}, {}, async () => ({}));
    expect(() => (hot.sloppy as () => void)()).toThrow(ReferenceError);
  });

  it('refuses an export that a function assigns later: dist/main.js re-exports values, not live bindings', () => {
    const lazy = ['var shapes, init_shapes = () => { shapes = { a: 1 }; };', 'export{shapes,init_shapes};'];
    expect(() => convert(...lazy)).toThrow(/exports bindings a function assigns .*: shapes/);
    expect(() => convert('let n = 0;', 'function next() { return n++; }', 'export{n,next};')).toThrow(/: n$/);
    expect(() => convert('let a, b;', 'function set(o) { ({ a, b } = o); }', 'export{a,set};')).toThrow(/: a$/);
    // Assigned at the top level, before the script returns: what dist/main.js re-exports is final.
    expect(convert('var ready = false;', 'ready = true;', 'function f() { let ready = 0; ready++; return ready; }', 'export{ready};').exported).toEqual([
      'ready',
    ]);
  });

  it('stops the build on module syntax it does not turn into script code, and on code that is not a script', () => {
    expect(() => convert('import{x}from"./x.js";', 'export{x};')).toThrow(/cannot be a script: module syntax .*import\{x\}from"\.\/x\.js"/);
    expect(() => convert('const m = import(name);', 'export{m};')).toThrow(/module syntax .*import\(name\)/);
    expect(() => convert('const r = import.meta.resolve("./a.js");', 'export{r};')).toThrow(/module syntax .*import\.meta\.resolve/);
    expect(() => convert('export const v = 1;')).toThrow(/module syntax/);
    expect(() => convert('const v = await Promise.resolve(1);', 'export{v};')).toThrow(SyntaxError);
    expect(() => hotPathScript('export{};', BANNER)).toThrow(/does not start with the chunks' first line/);
  });
});

const chunk = (...lines: string[]) => chunkScript([BANNER, ...lines, '//# sourceMappingURL=x-ABCDEFGH.js.map', ''].join('\n'), BANNER) as string | undefined;

describe('a chunk as a script', () => {
  const META = { url: 'file:///d/chunks/x.js', filename: '/d/chunks/x.js', dirname: '/d/chunks' };

  it("takes the hot path's exports, its import.meta and an importer, and returns its exports as live bindings", async () => {
    const script = chunk(
      'import{Command,about as describe}from"../main.js";var count=0;function bump(){count++}',
      'const where=[import.meta.url,import.meta.filename,import.meta.dirname];',
      'const later=()=>import("./y-ABCDEFGH.js");export{Command,describe as about,count,bump,where,later};',
    );
    expect(script).toBeDefined();
    const imported: string[] = [];
    class Command {}
    const fn = runInThisContext(script!) as ScriptFn;
    const out = fn(META, { Command, about: 'hot' }, async (s) => {
      imported.push(s);
      return { y: 1 };
    });
    expect(out.Command).toBe(Command);
    expect(out.about).toBe('hot');
    expect(out.where).toEqual([META.url, META.filename, META.dirname]);
    // A binding the chunk changes later reads as it is now, as an ES module's export does.
    expect(out.count).toBe(0);
    (out.bump as () => void)();
    expect(out.count).toBe(1);
    expect(await (out.later as () => Promise<unknown>)()).toEqual({ y: 1 });
    expect(imported).toEqual(['./y-ABCDEFGH.js']);
    // Its require (the chunks' first line) resolves from the chunk's own URL.
    expect(script!.split('\n')[0]).toMatch(
      /^\(function \(__svcMeta__, __svcHot, __svcI\) \{ 'use strict'; const require = .*createRequire\(__svcMeta__\.url\)/,
    );
  });

  it('keeps every line and column of the chunk where it was, so that its source map holds', () => {
    const lines = [
      'import{a,b as c}from"../main.js";var MARK1=a+c;',
      '  const MARK2=import.meta.url, MARK3=()=>import("./z-ABCDEFGH.js");',
      'export{MARK1,MARK2,MARK3};',
    ];
    const script = chunk(...lines)!.split('\n');
    for (const [i, line] of lines.entries())
      for (const mark of ['MARK1', 'MARK2', 'MARK3']) if (line.includes(`${mark}=`)) expect(script[i + 1]!.indexOf(`${mark}=`)).toBe(line.indexOf(`${mark}=`));
    expect(script.at(-2)).toBe('//# sourceMappingURL=x-ABCDEFGH.js.map');
  });

  it('runs in strict mode, and a chunk with no exports returns none', () => {
    const fn = runInThisContext(chunk('import"../main.js";globalThis.chunkRanStrict=(function(){return this})()===undefined;')!) as ScriptFn;
    expect(fn(META, {}, async () => ({}))).toEqual({});
    expect((globalThis as { chunkRanStrict?: boolean }).chunkRanStrict).toBe(true);
  });

  it('is not made of a chunk that needs the module loader: other imports, other exports, import() of a package or a computed path, import.meta.resolve, a top-level await', () => {
    expect(chunk('import{x}from"./other-ABCDEFGH.js";export{x};')).toBeUndefined();
    expect(chunk('import*as hot from"../main.js";export{hot};')).toBeUndefined();
    expect(chunk('import hot from"../main.js";export{hot};')).toBeUndefined();
    expect(chunk('export*from"../main.js";')).toBeUndefined();
    expect(chunk('export default 1;')).toBeUndefined();
    expect(chunk('export const x=1;')).toBeUndefined();
    expect(chunk('const m=()=>import("better-sqlite3");export{m};')).toBeUndefined();
    expect(chunk('const m=(n)=>import(n);export{m};')).toBeUndefined();
    expect(chunk('const r=import.meta.resolve("./a.js");export{r};')).toBeUndefined();
    expect(chunk('const v=await Promise.resolve(1);export{v};')).toBeUndefined();
    expect(chunk('const __svcHot=1;export{__svcHot};')).toBeUndefined();
    expect(chunkScript('import{x}from"../main.js";export{x};', BANNER)).toBeUndefined();
  });
});
