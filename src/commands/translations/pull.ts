// svc translations pull DIR [--locale L ...] → GET /v2/translations/master-json?locale=L, written as
// DIR/<locale>.json (the service's master JSON of that locale: {workflows: {...}, layouts: {...}}).
import type { Api } from '../../api/session.js';
import { collect } from '../../cli-args.js';
import { UsageError } from '../../core/errors.js';
import { quote } from '../../core/input.js';
import type { Deps } from '../../deps.js';
import { about, type ArgsOf, Command, examples, type OptsOf } from '../define.js';
import { checkLocale, masterSummary, type MasterJson } from './files.js';

export const command = () =>
  examples(
    new Command('pull')
      .description(
        about("write each locale's translations to DIR/<locale>.json, in the service's master JSON (every workflow's texts of that locale)", 'getMasterJson'),
      )
      .argument('<dir>', 'the folder to write to (made if missing); files of the same name are replaced')
      .option('--locale <locale>', 'only this locale, e.g. de_DE (repeatable; default: every locale of the workflows with translations)', collect),
    [
      'svc translations pull ./locales',
      'svc translations pull ./locales --locale de_DE --locale fr_FR',
      'svc translations pull ./locales --json   # what was written, for scripts',
    ],
  );

const PAGE = 100;

/** Every locale the environment's translated workflows have, by their groups. */
async function knownLocales(api: Api): Promise<string[]> {
  const locales = new Set<string>();
  for (let offset = 0; ; offset += PAGE) {
    const res = await api.call<{ workflows: { workflowId: string; isTranslationEnabled?: boolean }[]; totalCount: number }>('listWorkflows', {
      query: { limit: PAGE, offset },
    });
    if (!res) return [];
    for (const wf of res.data.workflows.filter((w) => w.isTranslationEnabled)) {
      const group = await api.call<{ locales: string[] }>('getTranslationGroup', { params: { resourceType: 'workflow', resourceId: wf.workflowId } });
      for (const l of group?.data.locales ?? []) locales.add(l);
    }
    if (res.data.workflows.length < PAGE || offset + PAGE >= res.data.totalCount) break;
  }
  return [...locales].sort();
}

export async function run(deps: Deps, opts: OptsOf<typeof command>, [dirArg]: ArgsOf<typeof command>): Promise<void> {
  if (!dirArg) throw new UsageError('DIR: give the folder to write the locale files to');
  const asked = (opts.locale ?? []).map((l) => checkLocale('--locale', l));
  const { resolve, join } = process.getBuiltinModule('node:path');
  const dir = resolve(deps.cwd, dirArg);
  const api = await deps.client();
  const locales = asked.length > 0 ? [...new Set(asked)] : await knownLocales(api);
  const pulled: { locale: string; workflows: number; layouts: number; master: MasterJson }[] = [];
  for (const locale of locales) {
    const res = await api.call<MasterJson>('getMasterJson', { query: { locale } });
    if (!res) return;
    pulled.push({ locale, ...masterSummary(res.data), master: res.data });
  }
  if (pulled.length === 0) {
    deps.info('no workflow has translations: nothing to pull (give --locale to pull a locale anyway)');
    await deps.print([]);
    return;
  }
  // Every answer is in before the first file is written: a failed pull leaves the folder as it was.
  const { mkdir, writeFile } = process.getBuiltinModule('node:fs/promises');
  try {
    await mkdir(dir, { recursive: true });
  } catch (e) {
    throw new UsageError(`DIR: cannot make the folder ${quote(dirArg)} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
  const written = [];
  for (const p of pulled) {
    const file = join(dir, `${p.locale}.json`);
    await writeFile(file, `${JSON.stringify(p.master, null, 2)}\n`);
    written.push({ locale: p.locale, file, workflows: p.workflows, layouts: p.layouts });
  }
  deps.info(`wrote ${written.length} locale file${written.length === 1 ? '' : 's'} to ${dirArg}`);
  await deps.print(written);
}
