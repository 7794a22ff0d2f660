// The --data of `svc workflow create` and `svc workflow update`: the spec writes it `--data FILE`, so a
// plain path to an existing file is read like `@FILE` (JSON, or YAML by extension); inline JSON and `-`
// (stdin) work as for every JSON flag.
import type { Deps } from '../../deps.js';

export const DATA_HELP = 'the workflow as JSON or YAML: a file (FILE or @FILE), inline JSON, or - for stdin';

export function readDefinition(deps: Deps, value: string): Promise<Record<string, unknown>> {
  return deps.input.jsonObject('--data', isFilePath(deps.cwd, value) ? `@${value}` : value);
}

function isFilePath(_cwd: string, value: string): boolean {
  // A definition is an object: inline it starts with `{` (or is some other JSON, refused as not an
  // object). Anything else names a file, so a missing one or a folder is said so ("cannot read
  // welcome: no such file") rather than "invalid JSON … unexpected 'w'".
  return !(value === '-' || value.startsWith('@') || /^\s*[[{"]/.test(value));
}
