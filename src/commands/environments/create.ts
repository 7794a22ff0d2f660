// svc environments create NAME [--color HEX] [--parent ID] → POST /v1/environments (svc dev only)
import { checkBody } from '../../api/check-body.js';
import { checkId } from '../../core/input.js';
import { flagLabels } from '../../core/validate.js';
import type { Deps } from '../../deps.js';
import { about, type ArgsOf, Command, examples, type OptsOf } from '../define.js';

/** The colour the service needs for an environment when none is given. */
const DEFAULT_COLOR = '#3a7f5c';

export const command = () =>
  examples(
    new Command('create')
      .description(
        about('create an environment with its own key, application identifier and integrations (svc dev only; exit 5 elsewhere)', 'createEnvironment'),
      )
      .argument('<name>', 'its name, unique in the organisation (not Development or Production)')
      .option('--color <hex>', `its colour, e.g. #b15353 (default ${DEFAULT_COLOR})`)
      .option('--parent <environmentId>', "the environment it is made from (default: the profile's own)"),
    [
      'svc environments create staging',
      'svc environments create "test-$RANDOM" --show-secrets -o json --query "{key: apiKeys[0].key, app: identifier}"   # a test file\'s own environment',
    ],
  );

export async function run(deps: Deps, opts: OptsOf<typeof command>, [name]: ArgsOf<typeof command>): Promise<void> {
  const body: Record<string, unknown> = { name: checkId('NAME', name), color: opts.color ?? DEFAULT_COLOR };
  if (opts.parent !== undefined) body.parentId = opts.parent;
  const labels = flagLabels({ name: 'NAME', color: '--color', parentId: '--parent' });
  const valid = await checkBody('createEnvironment', body, labels);
  const api = await deps.client();
  // A dry run sends nothing, so there is no service to ask.
  // Loaded on use, as the other commands that ask svc dev load it.
  if (!deps.globals.dryRun) await (await import('../../api/local-service.js')).requireLocalService(api, 'svc environments create');
  const res = await api.call('createEnvironment', { body: valid }, { bodyLabel: labels });
  if (!res) return;
  await deps.print(res.data);
  const made = res.data as { name?: string };
  deps.info(`created environment ${made.name ?? ''}${deps.globals.showSecrets ? '' : '; --show-secrets prints its key'}`);
}
