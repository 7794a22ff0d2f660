// svc environments delete ENVIRONMENT [--yes] → DELETE /v1/environments/{environmentId} (svc dev only)
import type { Api } from '../../api/session.js';
import { OBJECT_ID_RE } from '../../api/enum-values.js';
import { checkId } from '../../core/input.js';
import { EXIT, SvcError } from '../../core/errors.js';
import type { Deps } from '../../deps.js';
import { confirmed } from '../confirm.js';
import { about, type ArgsOf, Command, examples, type OptsOf } from '../define.js';

export const command = () =>
  examples(
    new Command('delete')
      .description(about('delete an environment and everything in it (svc dev only; exit 5 elsewhere; asks first on a terminal)', 'deleteEnvironment'))
      .argument('<environment>', "the environment's _id, or its name")
      .option('-y, --yes', 'do not ask; needed when there is no terminal'),
    ['svc environments delete staging', 'svc environments delete 6615a2e8f0c1d2b3a4c5d6e7 --yes   # in scripts and CI'],
  );

export async function run(deps: Deps, opts: OptsOf<typeof command>, [arg]: ArgsOf<typeof command>): Promise<void> {
  const given = checkId('ENVIRONMENT', arg);
  const what = `environment ${given} and everything in it`;
  // Without a terminal --yes is needed before anything is sent; a person is asked once svc dev answered.
  if (!deps.interactive()) await confirmed(deps, what, opts.yes);
  const api = await deps.client();
  // Loaded on use, as the other commands that ask svc dev load it.
  if (!deps.globals.dryRun) await (await import('../../api/local-service.js')).requireLocalService(api, 'svc environments delete');
  const environmentId = OBJECT_ID_RE.test(given) || deps.globals.dryRun ? given : await idOfName(api, given);
  if (deps.interactive() && !(await confirmed(deps, what, opts.yes))) return;
  const res = await api.call('deleteEnvironment', { params: { environmentId } });
  if (!res) return;
  deps.info(`deleted environment ${given}`);
}

/** An environment named so: its _id. */
async function idOfName(api: Api, name: string): Promise<string> {
  const res = await api.call<{ _id: string; name: string }[]>('listEnvironments');
  const found = res?.data.find((e) => e.name === name);
  if (!found) throw new SvcError(`no environment is named ${name} (svc environments list shows them)`, 'not_found', EXIT.notFound);
  return found._id;
}
