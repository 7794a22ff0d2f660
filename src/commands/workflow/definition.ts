// The --data of `svc workflow create` and `svc workflow update`: the spec writes it `--data FILE`, so a
// plain path to an existing file is read like `@FILE` (JSON, or YAML by extension); inline JSON and `-`
// (stdin) work as for every JSON flag.
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Deps } from '../../deps.js';

export const DATA_HELP = 'the workflow as JSON or YAML: a file (FILE or @FILE), inline JSON, or - for stdin';

export function readDefinition(deps: Deps, value: string): Promise<Record<string, unknown>> {
  return deps.input.jsonObject('--data', isFilePath(deps.cwd, value) ? `@${value}` : value);
}

function isFilePath(cwd: string, value: string): boolean {
  if (value === '-' || value.startsWith('@') || /^\s*[[{"]/.test(value)) return false;
  // A name with a definition's extension is a file even when missing: "cannot read x.yaml: no such file".
  if (/\.(json|ya?ml)$/i.test(value)) return true;
  try {
    return statSync(resolve(cwd, value)).isFile();
  } catch {
    return false;
  }
}
