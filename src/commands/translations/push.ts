// svc translations push DIR → POST /v2/translations/master-json for each DIR/<locale>.json (the
// service's master JSON of that locale). Every file is read and checked first: a file whose name is
// not a locale, or that is not a master JSON, is named (exit 2) and nothing is sent.
import { EXIT, SvcError, UsageError } from '../../core/errors.js';
import { quote } from '../../core/input.js';
import { safeText } from '../../io/safe-text.js';
import type { Deps } from '../../deps.js';
import { about, type ArgsOf, Command, examples, type OptsOf } from '../define.js';
import { localeOfFileName, type MasterJson, masterSummary, parseMasterFile } from './files.js';

export const command = () =>
  examples(
    new Command('push')
      .description(
        about(
          "import DIR/<locale>.json files (the service's master JSON, as `svc translations pull` writes them): each locale's texts replace the workflows' texts of that locale",
          'importMasterJson',
        ),
      )
      .argument('<dir>', 'the folder of <locale>.json files (other files are left alone)'),
    [
      'svc translations push ./locales',
      'svc translations push ./locales --dry-run   # the requests it would send',
      'svc translations push ./locales --json      # per locale: what was imported, what failed',
    ],
  );

async function readLocaleFiles(dirArg: string, dir: string): Promise<{ locale: string; name: string; master: MasterJson }[]> {
  const { readdir, readFile } = process.getBuiltinModule('node:fs/promises');
  const { join } = process.getBuiltinModule('node:path');
  let names: string[];
  try {
    names = (await readdir(dir, { withFileTypes: true })).filter((e) => e.isFile() && e.name.toLowerCase().endsWith('.json')).map((e) => e.name);
  } catch (e) {
    throw new UsageError(`DIR: cannot read the folder ${quote(dirArg)} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
  if (names.length === 0) throw new UsageError(`DIR: ${quote(dirArg)} has no <locale>.json files (svc translations pull writes them)`);
  names.sort();
  const files = [];
  for (const name of names) {
    const locale = localeOfFileName(name);
    files.push({ locale, name, master: parseMasterFile(name, await readFile(join(dir, name), 'utf8')) });
  }
  return files;
}

export async function run(deps: Deps, _opts: OptsOf<typeof command>, [dirArg]: ArgsOf<typeof command>): Promise<void> {
  if (!dirArg) throw new UsageError('DIR: give the folder of <locale>.json files');
  const { resolve } = process.getBuiltinModule('node:path');
  const files = await readLocaleFiles(dirArg, resolve(deps.cwd, dirArg));
  const api = await deps.client();
  const rows = [];
  for (const f of files) {
    const res = await api.call<{ success: boolean; message: string; successful?: string[]; failed?: string[] }>('importMasterJson', {
      body: { locale: f.locale, masterJson: { workflows: f.master.workflows ?? {}, layouts: f.master.layouts ?? {} } },
    });
    if (!res) continue;
    const sent = masterSummary(f.master);
    rows.push({ locale: f.locale, file: f.name, resources: sent.workflows + sent.layouts, imported: res.data.successful ?? [], failed: res.data.failed ?? [] });
  }
  if (rows.length === 0) return;
  await deps.print(rows);
  const failed = rows.flatMap((r) => r.failed.map((id) => `${r.locale}:${safeText(id)}`));
  if (failed.length > 0) {
    throw new SvcError(
      `${failed.length} resource${failed.length === 1 ? '' : 's'} not imported (no such workflow or layout): ${failed.slice(0, 5).join(', ')}${failed.length > 5 ? ', …' : ''}`,
      'partially_imported',
      EXIT.rejected,
    );
  }
}
