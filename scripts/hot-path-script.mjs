// The build's step that turns the hot path's chunk into the script dist/main.js runs (src/script-cache.ts
// says why a script). Apart from scripts/build.mjs so that its refusals are tested on their own.
import { Script } from 'node:vm';
import ts from 'typescript';

/**
 * The hot path's chunk (an ES module that imports nothing, ending in `export { … }`) as a script: one
 * function expression on the first line, called with the module's URL and a function that imports a
 * chunk, returning the exports by name. Returns the script and the exported names, in order.
 */
export function hotPathScript(moduleText) {
  const tail = /\bexport\s*\{([^}]*)\};?\s*$/.exec(moduleText);
  if (!tail) throw new Error('the hot path does not end in one export list');
  const pairs = tail[1].split(',').map((spec) => {
    const [local, name = local] = spec.trim().split(/\s+as\s+/);
    return { local, name };
  });
  const body = moduleText
    .slice(0, tail.index)
    .replace(/\bimport\.meta\.url\b/g, '__svcModuleUrl')
    .replace(/\bimport\(\s*"(\.\/chunks\/[^"]+)"\s*\)/g, '__svcImportChunk("$1")');
  const left = /\bimport\.meta\b|\bimport\s*\(|(?:^|[;}])\s*(?:import|export)\b\s*["'{*\w]/m.exec(body);
  if (left) throw new Error(`the hot path has module syntax the build does not turn into a script: ${body.slice(left.index, left.index + 80)}`);
  // The re-exports of dist/main.js are the values once the script has run, not live bindings: an export
  // that a function assigns later (a module esbuild initialises lazily, say) would be read too early.
  const late = assignedInFunctions(body, new Set(pairs.map((p) => p.local)));
  if (late.length > 0)
    throw new Error(`the hot path exports bindings a function assigns (dist/main.js would re-export them too early): ${[...new Set(late)].join(', ')}`);
  const script = [
    "(function (__svcModuleUrl, __svcImportChunk) { 'use strict';",
    body.trimEnd(),
    `return { ${pairs.map(({ local, name }) => `${JSON.stringify(name)}: ${local}`).join(', ')} };`,
    '})',
    '',
  ].join('\n');
  // A syntax error here (a top-level await, say) stops the build, not the first run.
  new Script(script, { filename: 'dist/hot-path.js' });
  return { script, exported: pairs.map((p) => p.name) };
}

/**
 * Which of `names` (top-level bindings of the script `text`) a function of it assigns: each identifier
 * assigned inside a function (=, +=, ++, a destructuring, a for-of target) resolved by TypeScript's
 * binder, so that a local of the same name is not taken for the top-level one.
 */
function assignedInFunctions(text, names) {
  const file = '/hot-path.js';
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.JS);
  const options = { allowJs: true, noResolve: true, noLib: true, types: [] };
  const host = ts.createCompilerHost(options);
  host.getSourceFile = (name) => (name === file ? source : undefined);
  const checker = ts.createProgram([file], options, host).getTypeChecker();
  const declared = new Set();
  const declare = (name) => {
    if (ts.isIdentifier(name)) declared.add(checker.getSymbolAtLocation(name));
    else for (const e of name.elements) if (!ts.isOmittedExpression(e)) declare(e.name);
  };
  for (const statement of source.statements) {
    if (ts.isVariableStatement(statement)) for (const d of statement.declarationList.declarations) declare(d.name);
    else if ((ts.isFunctionDeclaration(statement) || ts.isClassDeclaration(statement)) && statement.name) declare(statement.name);
  }
  const topLevel = (id) => declared.has(checker.getSymbolAtLocation(id));
  const found = [];
  const target = (node) => {
    if (ts.isIdentifier(node)) return names.has(node.text) && topLevel(node) ? [node.text] : [];
    if (ts.isParenthesizedExpression(node)) return target(node.expression);
    if (ts.isArrayLiteralExpression(node)) return node.elements.flatMap((e) => target(ts.isSpreadElement(e) ? e.expression : e));
    if (ts.isObjectLiteralExpression(node))
      return node.properties.flatMap((p) =>
        ts.isShorthandPropertyAssignment(p)
          ? names.has(p.name.text) && declared.has(checker.getShorthandAssignmentValueSymbol(p))
            ? [p.name.text]
            : []
          : ts.isPropertyAssignment(p)
            ? target(p.initializer)
            : ts.isSpreadAssignment(p)
              ? target(p.expression)
              : [],
      );
    if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.EqualsToken) return target(node.left);
    return [];
  };
  const visit = (node, inFunction) => {
    const inside = inFunction || ts.isFunctionLike(node);
    if (inside) {
      if (ts.isBinaryExpression(node) && node.operatorToken.kind >= ts.SyntaxKind.FirstAssignment && node.operatorToken.kind <= ts.SyntaxKind.LastAssignment)
        found.push(...target(node.left));
      if (
        (ts.isPrefixUnaryExpression(node) || ts.isPostfixUnaryExpression(node)) &&
        [ts.SyntaxKind.PlusPlusToken, ts.SyntaxKind.MinusMinusToken].includes(node.operator)
      )
        found.push(...target(node.operand));
      if ((ts.isForOfStatement(node) || ts.isForInStatement(node)) && !ts.isVariableDeclarationList(node.initializer)) found.push(...target(node.initializer));
    }
    ts.forEachChild(node, (child) => visit(child, inside));
  };
  visit(source, false);
  return found;
}
