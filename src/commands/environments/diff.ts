// svc environments diff TARGET [--source ENV] → POST /v2/environments/{targetEnvironmentId}/diff
// On a terminal, one line per changed resource (`+` added, `~` modified, `-` deleted, coloured);
// otherwise the service's answer as JSON.
import type { Api } from '../../api/session.js';
import { OBJECT_ID_RE } from '../../api/enum-values.js';
import { checkId } from '../../core/input.js';
import { EXIT, SvcError } from '../../core/errors.js';
import { safeText } from '../../io/safe-text.js';
import type { Deps } from '../../deps.js';
import { about, type ArgsOf, Command, examples, type OptsOf } from '../define.js';

export const command = () =>
  examples(
    new Command('diff')
      .description(
        about("what publishing to TARGET would change: its workflows, layouts and translations against the profile's environment's", 'diffEnvironment'),
      )
      .argument('<target>', "the target environment's _id, or its name")
      .option('--source <environment>', "the environment compared from, _id or name (default: the profile's own)"),
    ['svc environments diff Production', 'svc environments diff staging --source feature-x', 'svc environments diff staging -o json --query "summary"'],
  );

interface Named {
  _id: string;
  name: string;
}
interface Change {
  resourceType: string;
  action: string;
  sourceResource?: { id?: string | null; name?: string | null; locale?: string } | null;
  targetResource?: { id?: string | null; name?: string | null; locale?: string } | null;
  diffs?: { new?: Record<string, unknown> | null } | undefined;
}
export interface DiffAnswer {
  sourceEnvironmentId: string;
  targetEnvironmentId: string;
  resources: (Change & { changes: Change[] })[];
  summary: { totalEntities: number; totalChanges: number; hasChanges: boolean };
}

/** The two ends by _id (a name is looked up among the organisation's environments), with names to show. */
export async function resolveEnds(deps: Deps, api: Api, target: string, source: string | undefined) {
  const t = checkId('TARGET', target);
  const s = source === undefined ? undefined : checkId('--source', source);
  const byId = (v: string) => OBJECT_ID_RE.test(v);
  let all: Named[] = [];
  if (!deps.globals.dryRun && (!byId(t) || (s !== undefined && !byId(s)) || deps.format() === 'table')) {
    all = (await api.call<Named[]>('listEnvironments'))?.data ?? [];
  }
  const idOf = (v: string) => {
    if (byId(v) || deps.globals.dryRun) return v;
    const found = all.find((e) => e.name === v) ?? all.find((e) => e.name.toLowerCase() === v.toLowerCase());
    if (!found) throw new SvcError(`no environment is named ${v} (svc environments list shows them)`, 'not_found', EXIT.notFound);
    return found._id;
  };
  const nameOf = (id: string) => all.find((e) => e._id === id)?.name ?? id;
  return { targetId: idOf(t), sourceId: s === undefined ? undefined : idOf(s), nameOf };
}

/** What changed in a modified workflow, in a few words: its fields, then its steps by action. */
function detail(r: DiffAnswer['resources'][number]): string {
  const parts: string[] = [];
  for (const c of r.changes) {
    if (c.resourceType === 'step') parts.push(`step ${c.sourceResource?.id ?? c.targetResource?.id ?? '?'} ${c.action}`);
    else if (c.action === 'modified') parts.push(...Object.keys(c.diffs?.new ?? {}));
  }
  return parts.join(', ');
}

/** How a resource is named on its line: `workflow welcome (Welcome)`, `layout welcome-frame`, `translation welcome de_DE`. */
function label(type: string, who: Change['sourceResource']): string {
  const id = who?.id ?? '?';
  if (type === 'localization_group') return `translation ${id}${who?.locale ? ` ${who.locale}` : ''}`;
  return `${type} ${id}${who?.name && who.name !== id ? ` (${who.name})` : ''}`;
}

/** One line per changed resource, fitted to `width` columns, sanitised, coloured when `color`. */
export async function diffLines(answer: DiffAnswer, nameOf: (id: string) => string, width: number | undefined, color: boolean): Promise<string[]> {
  const { takeWidth } = await import('../../io/fit.js');
  const chalk = new (await import('chalk')).Chalk({ level: color ? 1 : 0 });
  const fitted = (s: string) => (width === undefined ? s : takeWidth(s, width));
  const head = `${safeText(nameOf(answer.sourceEnvironmentId))} → ${safeText(nameOf(answer.targetEnvironmentId))}: `;
  if (!answer.summary.hasChanges) return [fitted(`${head}no changes`)];
  const out = [fitted(`${head}${answer.summary.totalChanges} change(s) in ${answer.resources.length} resource(s)`)];
  const mark = { added: chalk.green('+'), modified: chalk.yellow('~'), deleted: chalk.red('-') } as Record<string, string>;
  for (const r of answer.resources) {
    const action = !r.sourceResource ? 'deleted' : !r.targetResource ? 'added' : 'modified';
    const who = r.sourceResource ?? r.targetResource;
    const what = safeText(label(r.resourceType, who));
    const why = action === 'modified' ? safeText(detail(r)) : '';
    const text = fitted(`  ${action === 'added' ? '+' : action === 'deleted' ? '-' : '~'} ${what}${why ? `: ${why}` : ''}`);
    // The mark is coloured after fitting, so escapes are never cut.
    out.push(`  ${mark[action]}${text.slice(3)}`);
  }
  return out;
}

export async function run(deps: Deps, opts: OptsOf<typeof command>, [target]: ArgsOf<typeof command>): Promise<void> {
  const api = await deps.client();
  const { targetId, sourceId, nameOf } = await resolveEnds(deps, api, target, opts.source);
  const res = await api.call<DiffAnswer>('diffEnvironment', {
    params: { targetEnvironmentId: targetId },
    body: sourceId === undefined ? {} : { sourceEnvironmentId: sourceId },
  });
  if (!res) return;
  if (deps.format() !== 'table') {
    await deps.print(res.data);
    return;
  }
  const width = deps.io.stdout.isTTY && deps.io.stdout.columns ? deps.io.stdout.columns : undefined;
  for (const line of await diffLines(res.data, nameOf, width, deps.color())) deps.io.stdout.write(`${line}\n`);
}
