// `Authorization: ApiKey <secret>` (ground truth, "Errors", 401 messages). Session tokens (Bearer)
// belong to the hosted dashboard; the local service has none to accept.
import { HttpError } from './errors.js';
import type { Environment } from './store/index.js';

export function authenticate(header: string | undefined, find: (key: string) => Environment | undefined): Environment {
  if (header === undefined || header === '') throw new HttpError(401, 'Missing authorization header');
  const space = header.indexOf(' ');
  const scheme = space < 0 ? header : header.slice(0, space);
  const value = space < 0 ? '' : header.slice(space + 1).trim();
  if (scheme !== 'ApiKey' && scheme !== 'Bearer') throw new HttpError(401, `Invalid authentication scheme: "${scheme}"`);
  if (scheme === 'Bearer' || value === '') throw new HttpError(401, 'Unauthorized');
  const env = find(value);
  if (!env) throw new HttpError(401, 'API Key not found');
  return env;
}
