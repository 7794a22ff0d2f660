// The build's steps that turn chunks (ES modules) into scripts that src/script-cache.ts runs with code
// caches made after a command ran (it says why scripts): the hot path's chunk, and every chunk that
// imports nothing but the hot path. Apart from scripts/build.mjs so that what they refuse is tested on
// its own.
import { Script } from 'node:vm';
import ts from 'typescript';

/**
 * The hot path's chunk as a script (see chunkScript), whose exports are returned as values: dist/main.js
 * re-exports them, and the chunks that are scripts take them, once the hot path has run. Returns the
 * script and the exported names, in order. What cannot be a script stops the build, not the first run.
 */
export function hotPathScript(moduleText, banner) {
  const converted = scriptBody(moduleText, banner);
  if (converted.refused) throw new Error(`the hot path cannot be a script: ${converted.refused}`);
  const { body, exported, map } = converted;
  // Values once the script has run, not live bindings: an export that a function assigns later (a module
  // esbuild initialises lazily, say) would be read too early.
  const late = assignedInFunctions(body, new Set(exported.map((e) => e.local)));
  if (late.length > 0)
    throw new Error(`the hot path exports bindings a function assigns (dist/main.js would re-export them too early): ${[...new Set(late)].join(', ')}`);
  const script = wrap(body, `return{${exported.map((e) => `${e.key}:${e.local}`).join(',')}};`, map);
  // A syntax error here (a top-level await, say) stops the build.
  new Script(script, { filename: 'dist/hot-path.js' });
  return { script, exported: exported.map((e) => e.name) };
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
 * undefined when it is not one that can be (scriptBody says which). The script is a function expression
 * on the chunk's first line, called with the chunk's import.meta, the hot path's exports and a function
 * that imports a chunk (its path relative to dist/chunks/), and returning the exports as getters, which
 * read the bindings as an ES module's exports do (live).
 */
export function chunkScript(moduleText, banner) {
  const converted = scriptBody(moduleText, banner);
  if (converted.refused) return undefined;
  const { body, exported, map } = converted;
  const script = wrap(body, `return{${exported.map((e) => `get ${e.key}(){return ${e.local}}`).join(',')}};`, map);
  try {
    new Script(script);
  } catch {
    return undefined;
  }
  return script;
}

/** The script around a body: its function's head on the body's first line, the return after its last. */
const wrap = (body, ret, map) => `(function (__svcMeta__, __svcHot, __svcI) { 'use strict'; ${body}\n${ret}\n})\n${map ? `${map}\n` : ''}`;

/**
 * The body of a chunk's script: the chunk with its module syntax turned into script code, its exports
 * (local binding, exported name, the name as a property key) and its source map comment; or `refused`,
 * saying why it cannot be one. Each edit keeps the lines and columns of what follows it, so the chunk's
 * source map holds for the script as it is:
 * - the first line, `banner` (the chunks' `require`), will follow the function's head;
 * - the hot path's import, `import{a,b as c}from"../main.js";`, becomes `const{a,b:c}=__svcHot;` and
 *   spaces;
 * - `import.meta` becomes `__svcMeta__` and `import("./x.js")` becomes `__svcI("./x.js")`;
 * - the export list, last, goes (the script returns the exports).
 * Refused: any other import or export, an import() of anything but a chunk, import.meta's other fields, a
 * name of the chunk's own that is one of the script's.
 */
function scriptBody(moduleText, banner) {
  if (!moduleText.startsWith(`${banner}\n`)) return { refused: "it does not start with the chunks' first line" };
  const own = /\b(__svcMeta__|__svcHot|__svcI)\b/.exec(moduleText);
  if (own) return { refused: `it has a name of the script's own, ${own[1]}` };
  const source = ts.createSourceFile('/chunk.js', moduleText, ts.ScriptTarget.Latest, true, ts.ScriptKind.JS);
  const edits = [];
  const refused = [];
  const text = (node) => moduleText.slice(node.getStart(), node.end).slice(0, 80);
  let exported = [];
  for (const [i, statement] of source.statements.entries()) {
    if (ts.isImportDeclaration(statement)) {
      const clause = statement.importClause;
      const bindings = clause?.namedBindings;
      const names = (bindings && ts.isNamedImports(bindings) ? bindings.elements : []).map((e) =>
        e.propertyName ? `${key(e.propertyName)}:${e.name.text}` : e.name.text,
      );
      const destructuring = names.length > 0 ? `const{${names.join(',')}}=__svcHot;` : '';
      const length = statement.end - statement.getStart();
      // Never longer than the import (`a as b` is `a:b`, `import{` and `from"../main.js"` are longer).
      if (statement.moduleSpecifier.text !== '../main.js' || clause?.name || (bindings && !ts.isNamedImports(bindings)) || destructuring.length > length)
        refused.push(text(statement));
      else edits.push({ at: statement.getStart(), end: statement.end, text: destructuring.padEnd(length) });
    } else if (ts.isExportDeclaration(statement)) {
      if (i !== source.statements.length - 1 || statement.moduleSpecifier || !statement.exportClause || !ts.isNamedExports(statement.exportClause))
        refused.push(text(statement));
      else {
        exported = statement.exportClause.elements.map((e) => ({ local: (e.propertyName ?? e.name).text, name: e.name.text, key: key(e.name) }));
        edits.push({ at: statement.getStart(), end: statement.end, text: '' });
      }
    } else if (
      ts.isExportAssignment(statement) ||
      ts.isImportEqualsDeclaration(statement) ||
      (ts.canHaveModifiers(statement) && ts.getModifiers(statement)?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword))
    )
      refused.push(text(statement));
  }
  const visit = (node) => {
    if (ts.isMetaProperty(node) && node.keywordToken === ts.SyntaxKind.ImportKeyword) {
      const field = ts.isPropertyAccessExpression(node.parent) ? node.parent.name.text : undefined;
      if (!['url', 'filename', 'dirname'].includes(field) || text(node) !== 'import.meta') refused.push(text(node.parent));
      else edits.push({ at: node.getStart(), end: node.end, text: '__svcMeta__' });
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [arg] = node.arguments;
      if (node.arguments.length !== 1 || !ts.isStringLiteral(arg) || !/^\.\/[^/]+\.js$/.test(arg.text)) refused.push(text(node));
      else edits.push({ at: node.expression.getStart(), end: node.expression.end, text: '__svcI' });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  if (refused.length > 0) return { refused: `module syntax it does not turn into script code: ${refused.join('; ')}` };
  let body = moduleText;
  for (const edit of edits.sort((a, b) => b.at - a.at)) body = body.slice(0, edit.at) + edit.text + body.slice(edit.end);
  const map = /\n(\/\/# sourceMappingURL=[^\n]*)\n?$/.exec(body);
  if (map) body = body.slice(0, map.index);
  return { body: body.trimEnd(), exported, map: map?.[1] };
}

/** An export's or import's name as a property key. */
const key = (name) => (ts.isIdentifier(name) ? name.text : JSON.stringify(name.text));
