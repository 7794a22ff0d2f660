// How deeply a JSON value nests. Every reader of JSON in svc (zod schemas, masking, printing) walks
// values recursively, and a document nested some thousands of levels deep overflows the stack. Input
// that deep is never a real payload, so it is refused where it enters: flags and files of the CLI,
// request bodies of the local service, answers the CLI receives.

/** Deeper than any real payload, far below what overflows the stack. */
export const MAX_JSON_DEPTH = 100;

/** Whether `value` nests arrays and objects more than `max` levels deep (iterative: never overflows). */
export function nestedDeeperThan(value: unknown, max: number = MAX_JSON_DEPTH): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length) {
    const [v, depth] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (depth + 1 > max) return true;
    for (const child of Array.isArray(v) ? v : Object.values(v as Record<string, unknown>)) {
      if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
    }
  }
  return false;
}

/**
 * Whether YAML text would nest more than `max` levels deep, judged from the text before it is parsed:
 * the yaml parser recurses once per level, and a few hundred levels overflow its stack, which can
 * bring the whole process down (V8 aborts when it next compiles a regular expression). Counts flow
 * brackets outside quoted scalars and comments, plus block nesting (the columns nodes start at:
 * indentation, and after compact `- ` / `? ` / `: ` indicators). It may overcount text that merely looks nested, never
 * undercount real nesting; either way it only refuses far beyond any real document.
 */
export function yamlNestsDeeperThan(text: string, max: number = MAX_JSON_DEPTH): boolean {
  let flow = 0;
  let quote: string | undefined;
  const indents: number[] = [];
  for (const line of text.split(/\r?\n/)) {
    let i = 0;
    if (flow === 0 && quote === undefined) {
      // Block context: every node that starts on this line starts at a column (the indentation, and
      // after each compact indicator, as in `- key:`); deeper columns are deeper levels.
      const indent = /^ */.exec(line)![0].length;
      const rest = line.slice(indent);
      if (rest !== '' && !rest.startsWith('#')) {
        while (indents.length && indents[indents.length - 1]! >= indent) indents.pop();
        indents.push(indent);
        const indicator = /[-?:](?: +|$)/y;
        indicator.lastIndex = i = indent;
        while (indicator.exec(line)) {
          i = indicator.lastIndex;
          if (i < line.length) indents.push(i);
          if (indents.length > max) return true;
        }
        if (indents.length > max) return true;
      }
    }
    let previous = ''; // the last character before this one that is not a space, on this line
    for (; i < line.length; previous = line[i] === ' ' || line[i] === '\t' ? previous : line[i]!, i++) {
      const c = line[i]!;
      if (quote !== undefined) {
        if (quote === '"' && c === '\\') i++;
        else if (c === quote) {
          if (quote === "'" && line[i + 1] === "'") i++;
          else quote = undefined;
        }
        continue;
      }
      if (c === '#' && (i === 0 || line[i - 1] === ' ' || line[i - 1] === '\t')) break;
      if (c === '"' || c === "'") {
        // A quote opens a quoted scalar only where a scalar starts (not inside "it's").
        if (previous === '' || '[{,:?-'.includes(previous)) quote = c;
      } else if (c === '[' || c === '{') {
        flow++;
        if (flow + indents.length > max) return true;
      } else if ((c === ']' || c === '}') && flow > 0) flow--;
    }
  }
  return false;
}
