// Reading a seed file: JSON or YAML by extension (YAML also reads JSON), validated, with errors that
// name the file and the bad field, as a ServiceInputError (svc dev reports it as exit 2).
import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import { parseJsonText, yamlUsageError } from '../../core/input.js';
import { MAX_JSON_DEPTH, yamlNestsDeeperThan } from '../../core/json-depth.js';
import { ServiceInputError } from '../errors.js';
import { parseSeed, type SeedFile } from './schema.js';

export function loadSeedFile(file: string): SeedFile {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new ServiceInputError(`--seed: cannot read ${file}: ${(e as Error).message}`);
  }
  let data: unknown;
  if (/\.json$/i.test(file)) {
    try {
      data = parseJsonText('--seed', text, file);
    } catch (e) {
      // The shared JSON reader words the line and column; the service passes its words on.
      throw new ServiceInputError((e as Error).message);
    }
  } else {
    if (yamlNestsDeeperThan(text)) throw new ServiceInputError(`--seed: the value in ${file} nests more than ${MAX_JSON_DEPTH} levels deep`);
    try {
      data = parseYaml(text);
    } catch (e) {
      throw new ServiceInputError(yamlUsageError('--seed', file, e).message);
    }
  }
  return parseSeed(data, file);
}

export { parseSeed };
