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
