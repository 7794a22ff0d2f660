// Reading a seed file: JSON or YAML by extension (YAML also reads JSON), validated, with errors that
// name the file and the bad field. Bad input is a usage error (exit 2).
import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import { UsageError } from '../../core/errors.js';
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
  try {
    data = /\.json$/i.test(file) ? JSON.parse(text) : parseYaml(text);
  } catch (e) {
    throw new UsageError(`the seed file ${file} is not valid ${/\.json$/i.test(file) ? 'JSON' : 'YAML'}: ${(e as Error).message}`);
  }
  return parseSeed(data, file);
}

export function parseSeed(data: unknown, source: string): SeedFile {
  const r = SeedFile.safeParse(data ?? {});
  if (r.success) return r.data;
  const problems = Object.entries(fieldErrors(r.error, data)).map(([field, e]) => `  ${field}: ${e.messages.join('; ')}`);
  throw new UsageError(`the seed file ${source} is invalid:\n${problems.join('\n')}`);
}
