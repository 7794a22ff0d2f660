// Where the runs of a recipients file were journaled. A run's journal lives beside its report when
// there is one, else beside the file, so a second run with another --report would not see the first
// one's journal and would send everyone again. The index (in the config folder, owner-only) remembers
// each run's journal by file and workflow; a new run looks at all of them. Bounded: the newest
// MAX_RUNS runs, and entries whose journal is gone are dropped.
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const MAX_RUNS = 200;
const FILE = 'bulk-runs.json';

interface Entry {
  file: string;
  workflow: string;
  /** The service sent to (profile or base URL): the same file sent to another service is another run. */
  service: string;
  journal: string;
  at: number;
}

function read(dir: string): Entry[] {
  try {
    const data = JSON.parse(readFileSync(join(dir, FILE), 'utf8')) as { runs?: unknown };
    return Array.isArray(data.runs)
      ? data.runs.filter(
          (e): e is Entry =>
            typeof e === 'object' && e !== null && typeof e.file === 'string' && typeof e.workflow === 'string' && typeof e.journal === 'string',
        )
      : [];
  } catch {
    return [];
  }
}

/** The journals of earlier runs of this file to this workflow of this service that still exist, newest first. */
export function journalsOf(dir: string, file: string, workflow: string, service: string): string[] {
  return read(dir)
    .filter((e) => e.file === file && e.workflow === workflow && e.service === service && existsSync(e.journal))
    .sort((a, b) => b.at - a.at)
    .map((e) => e.journal);
}

/** Records that a run of `file` to `workflow` is journaled at `journal`. Best effort. */
export function recordRun(dir: string, entry: Omit<Entry, 'at'>, now = Date.now()): void {
  try {
    const runs = [{ ...entry, at: now }, ...read(dir).filter((e) => e.journal !== entry.journal && existsSync(e.journal))].slice(0, MAX_RUNS);
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const path = join(dir, FILE);
    const tmp = `${path}.${process.pid}.tmp`;
    writeFileSync(tmp, `${JSON.stringify({ runs })}\n`, { mode: 0o600 });
    chmodSync(tmp, 0o600);
    renameSync(tmp, path);
  } catch {
    // The index only adds a check; a run goes on without it.
  }
}
