// Reading a seed file: JSON or YAML by extension (YAML also reads JSON), validated, with errors that
// name the file and the bad field. Bad input is a usage error (exit 2).
import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import { UsageError } from '../../core/errors.js';
import { parseJsonText } from '../../core/input.js';
import { fieldErrors } from '../errors.js';
import { SeedFile } from './schema.js';

export function loadSeedFile(file: string): SeedFile {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new UsageError(`cannot read the seed file ${file}: ${(e as Error).message}`);
  }
  let data: unknown;
  if (/\.json$/i.test(file)) data = parseJsonText('--seed', text, file);
  else {
    try {
      data = parseYaml(text);
    } catch (e) {
      const pos = (e as { linePos?: { line: number; col: number }[] }).linePos?.[0];
      const at = pos ? ` at line ${pos.line}, column ${pos.col}` : '';
      throw new UsageError(`--seed: invalid YAML in ${file}${at}: ${(e as Error).message.split('\n')[0]}`);
    }
  }
  return parseSeed(data, file);
}

export function parseSeed(data: unknown, source: string): SeedFile {
  const r = SeedFile.safeParse(data ?? {});
  if (r.success) return r.data;
  const problems = Object.entries(fieldErrors(r.error, data)).map(([field, e]) => `${field}: ${e.messages.join('; ')}`);
  const shown = problems.slice(0, 3).join('; ') + (problems.length > 3 ? ` (and ${problems.length - 3} more)` : '');
  throw new UsageError(`--seed: ${source} is invalid: ${shown}`);
}
