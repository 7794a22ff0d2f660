// Code a newcomer can read: no file of the CLI in src/ over 500 lines and no function over 100 (the
// local service, src/server, and the web console, src/console, have their own). Functions are counted
// from the TypeScript syntax tree, each on its own (an inner function is counted apart as well as
// within the one that holds it).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { expect, test } from 'vitest';

const SRC = fileURLToPath(new URL('../../src/', import.meta.url));
const APART = ['server', 'console'];

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    if (statSync(p).isDirectory()) return files(p);
    return /\.tsx?$/.test(f) ? [p] : [];
  });
}

const cli = files(SRC)
  .filter((f) => !APART.some((dir) => relative(SRC, f).startsWith(`${dir}/`)))
  .map((f) => ({ path: relative(SRC, f), text: readFileSync(f, 'utf8') }));

test('the CLI has files to check', () => {
  expect(cli.length).toBeGreaterThan(100);
  expect(cli.some((f) => f.path.startsWith('server/') || f.path.startsWith('console/'))).toBe(false);
});

test('no file over 500 lines', () => {
  const long = cli.map((f) => ({ path: f.path, lines: f.text.split('\n').length })).filter((f) => f.lines > 500);
  expect(long).toEqual([]);
});

test('no function over 100 lines', () => {
  const long: string[] = [];
  for (const { path, text } of cli) {
    const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node): void => {
      if (ts.isFunctionLike(node) && 'body' in node && node.body) {
        const first = source.getLineAndCharacterOfPosition(node.getStart()).line;
        const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
        if (last - first + 1 > 100)
          long.push(`${path}:${first + 1} ${(node.name as ts.Node | undefined)?.getText() ?? '(anonymous)'}: ${last - first + 1} lines`);
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  expect(long).toEqual([]);
});
