// svc environments publish TARGET [--source ENV] [--yes] → POST /v2/environments/{targetEnvironmentId}/publish
// Shows what would change (the diff), asks on a terminal, and publishes: the source's workflows
// created or updated in TARGET, and TARGET's active workflows the source no longer has deleted.
// Without a terminal --yes is needed, and nothing is sent without it (exit 2).
import { InterruptedError, UsageError } from '../../core/errors.js';
import { safeText } from '../../io/safe-text.js';
import type { Deps } from '../../deps.js';
import { about, type ArgsOf, Command, examples, type OptsOf } from '../define.js';
import { type DiffAnswer, diffLines, resolveEnds } from './diff.js';

export const command = () =>
  examples(
    new Command('publish')
      .description(
        about(
          "copy the profile's environment's workflows, layouts and translations to TARGET (shows the diff and asks first on a terminal; --yes without one)",
          'publishEnvironment',
        ),
      )
      .argument('<target>', "the target environment's _id, or its name")
      .option('--source <environment>', "the environment published from, _id or name (default: the profile's own)")
      .option('-y, --yes', 'do not ask; needed when there is no terminal'),
    ['svc environments publish Production', 'svc environments publish staging --yes -o json   # in scripts and CI'],
  );

interface Entry {
  resourceType: string;
  resourceId: string;
  resourceName: string;
  action?: string;
  reason?: string;
  error?: string;
}
interface PublishAnswer {
  results: { successful: Entry[]; failed: Entry[]; skipped: Entry[] }[];
  summary: { resources: number; successful: number; failed: number; skipped: number };
}

async function ask(deps: Deps, question: string): Promise<boolean> {
  const { askConfirm } = await import('../../io/prompt.js');
  try {
    return await askConfirm(deps, question);
  } catch (e) {
    if (!(e instanceof InterruptedError)) throw e;
    const stop = new InterruptedError('cancelled: nothing published');
    (stop as { notAnError?: boolean }).notAnError = true;
    throw stop;
  }
}

export async function run(deps: Deps, opts: OptsOf<typeof command>, [target]: ArgsOf<typeof command>): Promise<void> {
  const person = deps.interactive();
  if (!person && opts.yes !== true && !deps.globals.dryRun) {
    throw new UsageError(`${deps.commandPath}: publishing to ${target} needs --yes when there is no terminal to confirm on`);
  }
  const api = await deps.client();
  const { targetId, sourceId, nameOf } = await resolveEnds(deps, api, target, opts.source);
  const source = sourceId === undefined ? {} : { sourceEnvironmentId: sourceId };
  const lines = deps.format() === 'table';
  const width = deps.io.stdout.isTTY && deps.io.stdout.columns ? deps.io.stdout.columns : undefined;
  if (person && opts.yes !== true && !deps.globals.dryRun) {
    const diff = await api.call<DiffAnswer>('diffEnvironment', { params: { targetEnvironmentId: targetId }, body: source });
    if (!diff) return;
    for (const line of await diffLines(diff.data, nameOf, width, deps.color())) deps.io.stderr.write(`${line}\n`);
    if (!diff.data.summary.hasChanges) {
      deps.info('nothing to publish');
      return;
    }
    if (!(await ask(deps, `Publish ${diff.data.summary.totalChanges} change(s) to ${nameOf(targetId)}?`))) {
      deps.info('nothing published');
      return;
    }
  }
  const res = await api.call<PublishAnswer>('publishEnvironment', { params: { targetEnvironmentId: targetId }, body: source });
  if (!res) return;
  if (!lines) {
    await deps.print(res.data);
    return;
  }
  // The service's sync type of a translation group reads as "translation" on a line.
  const kind = (e: Entry) => (e.resourceType === 'localization_group' ? 'translation' : e.resourceType);
  for (const r of res.data.results) {
    for (const e of r.successful) deps.io.stdout.write(`${e.action} ${safeText(`${kind(e)} ${e.resourceId}`)}\n`);
    for (const e of r.failed) deps.io.stdout.write(`failed ${safeText(`${kind(e)} ${e.resourceId}: ${e.error ?? ''}`)}\n`);
  }
  const s = res.data.summary;
  deps.info(`published to ${nameOf(targetId)}: ${s.successful} changed, ${s.skipped} unchanged, ${s.failed} failed`);
}
