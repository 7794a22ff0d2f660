// svc integrations primary ID|IDENTIFIER → POST /v1/integrations/{id}/set-primary
// An identifier (e.g. `postmark`) is looked up among the active integrations first. The list is the
// organisation's, so one identifier may name integrations of several environments: the key's own
// environment is the one whose set-primary does not answer 404.
import { EXIT, SvcError } from '../../core/errors.js';
import { checkId } from '../../core/input.js';
import { OBJECT_ID_RE } from '../../core/object-id.js';
import type { Deps } from '../../deps.js';
import { about, type ArgsOf, Command, examples, type OptsOf } from '../define.js';

export const command = () =>
  examples(
    new Command('primary')
      .description(about('make an email or sms integration the primary one', 'setPrimaryIntegration'))
      .argument('<integration>', "the integration's _id, or the identifier of an active integration"),
    ['svc integrations primary postmark', 'svc integrations primary 6761f0c2a3b4c5d6e7f80912'],
  );

export async function run(deps: Deps, _opts: OptsOf<typeof command>, [given]: ArgsOf<typeof command>): Promise<void> {
  const arg = checkId('INTEGRATION', given);
  const api = await deps.client();
  let ids = [arg];
  if (!OBJECT_ID_RE.test(arg)) {
    const list = await api.call('listActiveIntegrations');
    if (!list) return; // --dry-run: the look-up was printed; the set-primary request depends on its answer
    const matches = (list.data as { _id?: string; identifier: string }[]).filter((i) => i.identifier === arg && i._id !== undefined);
    if (matches.length === 0) {
      throw new SvcError(
        `no active integration has the identifier '${arg}' (svc integrations active lists them; an inactive one is named by its _id)`,
        'not_found',
        EXIT.notFound,
      );
    }
    ids = matches.map((m) => m._id!);
  }
  const { ApiError } = await import('../../core/errors.js');
  for (const [i, integrationId] of ids.entries()) {
    try {
      const res = await api.call('setPrimaryIntegration', { params: { integrationId } });
      if (res) await deps.print(res.data);
      return;
    } catch (e) {
      // Another environment's integration of the same identifier: try the next one.
      if (e instanceof ApiError && e.status === 404 && i < ids.length - 1) continue;
      throw e;
    }
  }
}
