// The build's steps that turn chunks (ES modules) into scripts that src/script-cache.ts runs with code
// caches made after a command ran (it says why scripts): the hot path's chunk, and every chunk that
// imports nothing but the hot path. Apart from scripts/build.mjs so that what they refuse is tested on
// its own.
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

/**
 * A chunk (an ES module whose only static import is the hot path's, `"../main.js"`) as a script, or
 * undefined when it is not one that can be: a function expression on the chunk's first line, called with
 * the chunk's import.meta, the hot path's exports and a function that imports a chunk (its path relative
 * to dist/chunks/), and returning the exports as getters, which read the bindings as an ES module's
 * exports do (live). Each edit keeps the lines and columns of what follows it, so the chunk's source map
 * holds for the script as it is:
 * - the first line, `banner` (the chunks' `require`), follows the function's head;
 * - the hot path's import, `import{a,b as c}from"../main.js";`, becomes `const{a,b:c}=__svcHot;` and
 *   spaces;
 * - `import.meta` becomes `__svcMeta__` and `import("./x.js")` becomes `__svcI("./x.js")`;
 * - the export list, last, becomes the return.
 * Not one: any other import or export, an import() of anything but a chunk, import.meta's other fields, a
 * top-level await (the script does not compile), a name of the chunk's own that is one of the script's.
 */
export function chunkScript(moduleText, banner) {
  // The script's own names (its parameters) must not be the chunk's.
  if (!moduleText.startsWith(`${banner}\n`) || /\b(__svcMeta__|__svcHot|__svcI)\b/.test(moduleText)) return undefined;
  const source = ts.createSourceFile('/chunk.js', moduleText, ts.ScriptTarget.Latest, true, ts.ScriptKind.JS);
  const edits = [];
  let exported;
  for (const [i, statement] of source.statements.entries()) {
    if (ts.isImportDeclaration(statement)) {
      const clause = statement.importClause;
      const bindings = clause?.namedBindings;
      if (statement.moduleSpecifier.text !== '../main.js' || clause?.name || (bindings && !ts.isNamedImports(bindings))) return undefined;
      const names = (bindings?.elements ?? []).map((e) => (e.propertyName ? `${key(e.propertyName)}:${e.name.text}` : e.name.text));
      const text = names.length > 0 ? `const{${names.join(',')}}=__svcHot;` : '';
      // Never longer than the import (`a as b` is `a:b`, `import{` and `from"../main.js"` are longer).
      if (text.length > statement.end - statement.getStart()) return undefined;
      edits.push({ at: statement.getStart(), end: statement.end, text: text.padEnd(statement.end - statement.getStart()) });
    } else if (ts.isExportDeclaration(statement)) {
      if (i !== source.statements.length - 1 || statement.moduleSpecifier || !statement.exportClause || !ts.isNamedExports(statement.exportClause))
        return undefined;
      exported = statement.exportClause.elements.map((e) => `get ${key(e.name)}(){return ${(e.propertyName ?? e.name).text}}`);
      edits.push({ at: statement.getStart(), end: statement.end, text: `return{${exported.join(',')}};` });
    } else if (
      ts.canHaveModifiers(statement) &&
      ts.getModifiers(statement)?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword || m.kind === ts.SyntaxKind.DefaultKeyword)
    ) {
      return undefined;
    } else if (ts.isExportAssignment(statement) || ts.isImportEqualsDeclaration(statement)) return undefined;
  }
  let refused = false;
  const visit = (node) => {
    if (ts.isMetaProperty(node) && node.keywordToken === ts.SyntaxKind.ImportKeyword) {
      const field = ts.isPropertyAccessExpression(node.parent) ? node.parent.name.text : undefined;
      if (!['url', 'filename', 'dirname'].includes(field) || moduleText.slice(node.getStart(), node.end) !== 'import.meta') refused = true;
      edits.push({ at: node.getStart(), end: node.end, text: '__svcMeta__' });
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [arg] = node.arguments;
      if (node.arguments.length !== 1 || !ts.isStringLiteral(arg) || !/^\.\/[^/]+\.js$/.test(arg.text)) refused = true;
      edits.push({ at: node.expression.getStart(), end: node.expression.end, text: '__svcI' });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  if (refused) return undefined;
  let text = moduleText;
  for (const edit of edits.sort((a, b) => b.at - a.at)) text = text.slice(0, edit.at) + edit.text + text.slice(edit.end);
  const map = /\n(\/\/# sourceMappingURL=[^\n]*)\n?$/.exec(text);
  if (map) text = text.slice(0, map.index);
  const script = `(function (__svcMeta__, __svcHot, __svcI) { 'use strict'; ${text.trimEnd()}${exported ? '' : '\nreturn{};'}\n})\n${map ? `${map[1]}\n` : ''}`;
  try {
    new Script(script);
  } catch {
    return undefined;
  }
  return script;
}

/** An export's or import's name as a property key. */
const key = (name) => (ts.isIdentifier(name) ? name.text : JSON.stringify(name.text));
