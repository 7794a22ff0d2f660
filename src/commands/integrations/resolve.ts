// An integration named by its _id or by the identifier of an active one (e.g. `postmark`), for the
// commands that take INTEGRATION_ID. The active list is the organisation's, so one identifier may name
// integrations of several environments: the key's own is the one whose request does not answer 404.
import { ApiError, EXIT, SvcError } from '../../core/errors.js';
import { OBJECT_ID_RE } from '../../core/object-id.js';
import type { Deps } from '../../deps.js';

type Api = Awaited<ReturnType<Deps['client']>>;

/**
 * The _ids the argument may name. Under --dry-run nothing is sent, the look-up neither: the request
 * printed names the integration `INTEGRATION_ID`, and a line on stderr says where that _id comes from.
 */
export async function integrationIds(deps: Deps, api: Api, arg: string, among: 'active' | 'all' = 'active'): Promise<string[]> {
  if (OBJECT_ID_RE.test(arg)) return [arg];
  const active = among === 'active';
  if (deps.globals.dryRun) {
    const from = active ? 'GET /v1/integrations/active' : 'GET /v1/integrations';
    deps.info(`--dry-run: INTEGRATION_ID below is the _id of the ${active ? 'active ' : ''}integration '${arg}', looked up first with ${from}`);
    return ['INTEGRATION_ID'];
  }
  const list = await api.call(active ? 'listActiveIntegrations' : 'listIntegrations');
  if (!list) return [];
  const matches = (list.data as { _id?: string; identifier: string }[]).filter((i) => i.identifier === arg && i._id !== undefined);
  if (matches.length === 0) {
    throw new SvcError(
      active
        ? `no active integration has the identifier '${arg}' (svc integrations active lists them; an inactive one is named by its _id)`
        : `no integration has the identifier '${arg}' (svc integrations list shows them)`,
      'not_found',
      EXIT.notFound,
    );
  }
  return matches.map((m) => m._id!);
}

/** Runs `send` for each candidate until one is not a 404 (another environment's integration). */
export async function firstFound<T>(ids: string[], send: (id: string) => Promise<T>): Promise<T> {
  for (const [i, id] of ids.entries()) {
    try {
      return await send(id);
    } catch (e) {
      if (e instanceof ApiError && e.status === 404 && i < ids.length - 1) continue;
      throw e;
    }
  }
  throw new Error('no integration to send to');
}
