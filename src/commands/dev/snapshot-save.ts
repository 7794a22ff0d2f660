// svc dev snapshot save FILE: the whole store of svc dev as one SQLite file at FILE (relative to this
// command's working directory, not the service's), taken between two commits: consistent while the
// service runs. The same file `svc dev --import` and `svc dev snapshot load` take.
import type { Snapshot } from '../../api/schemas/dev-admin.js';
import { SvcError, EXIT } from '../../core/errors.js';
import type { Deps } from '../../deps.js';
import { about, type ArgsOf, Command, examples, type OptsOf } from '../define.js';
import { adminClient, resolveFile } from './admin.js';

export const command = () =>
  examples(
    new Command('save')
      .description(about('write the whole store of svc dev to FILE (an SQLite database)', 'saveSnapshot'))
      .argument('<file>', 'where to write it (relative to the current directory)'),
    ['svc dev snapshot save before-test.sqlite', 'svc dev snapshot load before-test.sqlite'],
  );

export async function run(deps: Deps, _opts: OptsOf<typeof command>, [file]: ArgsOf<typeof command>): Promise<void> {
  const path = resolveFile(deps, file);
  const api = await adminClient(deps, 'svc dev snapshot save');
  const res = await api.call<Snapshot>('saveSnapshot');
  if (!res) return;
  const bytes = process.getBuiltinModule('node:zlib').gunzipSync(Buffer.from(res.data.snapshot, 'base64'));
  const fs = process.getBuiltinModule('node:fs');
  const tmp = `${path}.${process.pid}.tmp`;
  try {
    // Whole or not at all, and private to its owner: it holds the environments' keys.
    fs.writeFileSync(tmp, bytes, { mode: 0o600 });
    fs.renameSync(tmp, path);
  } catch (e) {
    fs.rmSync(tmp, { force: true });
    throw new SvcError(`FILE: cannot write ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`, 'write_failed', EXIT.failure);
  }
  if (deps.format() === 'table') deps.io.stdout.write(`svc dev: saved the store to ${file} (${bytes.length} bytes, service time ${res.data.takenAt})\n`);
  else await deps.print({ file: path, bytes: bytes.length, schemaVersion: res.data.schemaVersion, takenAt: res.data.takenAt });
}
