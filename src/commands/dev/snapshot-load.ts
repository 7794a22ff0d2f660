// svc dev snapshot load FILE: svc dev replaces its whole store with the snapshot at FILE (one written
// by `snapshot save` or `--export-on-exit`), as a reset does: consistent, the runner's old jobs gone,
// Inboxes told. A file that is not a snapshot is refused here, naming it, before anything is sent.
import { EXIT, SvcError, UsageError } from '../../core/errors.js';
import type { Deps } from '../../deps.js';
import { about, type ArgsOf, Command, examples, type OptsOf } from '../define.js';
import { adminClient, resolveFile, SNAPSHOT_ENCODING } from './admin.js';

const SQLITE_HEADER = 'SQLite format 3\0';

export const command = () =>
  examples(
    new Command('load')
      .description(about('replace the whole store of svc dev with the snapshot in FILE', 'loadSnapshot'))
      .argument('<file>', 'a snapshot written by `svc dev snapshot save` or `svc dev --export-on-exit`'),
    ['svc dev snapshot load before-test.sqlite'],
  );

interface Summary {
  environments: number;
  events: number;
  ms: number;
  keyKept: boolean;
}

/** The snapshot's bytes, or a usage error naming FILE (missing, unreadable, not an SQLite file). */
export function readSnapshotFile(path: string, shown: string, flag = 'FILE'): Buffer {
  let bytes: Buffer;
  try {
    bytes = process.getBuiltinModule('node:fs').readFileSync(path);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new UsageError(`${flag}: cannot read ${shown}${code === 'ENOENT' ? ': no such file' : code ? ` (${code})` : ''}`);
  }
  if (bytes.length < SQLITE_HEADER.length || bytes.subarray(0, SQLITE_HEADER.length).toString('latin1') !== SQLITE_HEADER)
    throw new UsageError(`${flag}: ${shown} is not an svc snapshot (not an SQLite database file)`, 'write one with `svc dev snapshot save FILE`');
  return bytes;
}

export async function run(deps: Deps, _opts: OptsOf<typeof command>, [file]: ArgsOf<typeof command>): Promise<void> {
  const bytes = readSnapshotFile(resolveFile(deps, file), file);
  const snapshot = process.getBuiltinModule('node:zlib').gzipSync(bytes).toString('base64');
  const api = await adminClient(deps, 'svc dev snapshot load');
  let res: Awaited<ReturnType<typeof api.call<Summary>>>;
  try {
    res = await api.call<Summary>('loadSnapshot', { body: { encoding: SNAPSHOT_ENCODING, snapshot } });
  } catch (e) {
    // The service checked it whole (a damaged file, another program's database, a newer svc's).
    if (e instanceof SvcError && e.exitCode === EXIT.rejected) throw new UsageError(`FILE: ${file}: ${e.message.replace(/^snapshot: /, '')}`);
    throw e;
  }
  if (!res) return;
  const s = res.data;
  if (!s.keyKept) deps.warn("the API key of this profile is not a key of the loaded store: use the snapshot's (svc --api-key …)");
  if (deps.format() === 'table')
    deps.io.stdout.write(`svc dev: loaded ${file} (${s.environments} environment${s.environments === 1 ? '' : 's'}, ${s.events} events) in ${s.ms} ms\n`);
  else await deps.print(s);
}
