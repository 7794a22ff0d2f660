// The plan of a bulk run, made before anything is sent: which file, where its report and journal go,
// whether it is a new run or the rest of a journaled one, and whether sending the file again is what
// the person wants. Every refusal here happens before a row is sent.
import { randomBytes } from 'node:crypto';
import { createReadStream, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { localState } from '../config/local-state.js';
import { UsageError } from '../core/errors.js';
import type { Deps } from '../deps.js';
import { Chunker, type Chunk } from './chunks.js';
import { changedRows, checkResumable, readJournal, type JournalState, type RunRecord } from './journal.js';
import { checkRecipientsFile, openRecipients } from './rows.js';

export interface BulkOptions {
  workflow: string;
  file: string;
  /** Fields every trigger of the run carries (payload, overrides, actor, tenant, context). */
  common: Record<string, unknown>;
  chunkSize: number;
  concurrency?: number;
  resume?: boolean;
  /** Send the file again as a new run although a journal says it was sent (the old journal and report are kept aside). */
  again?: boolean;
  report?: string;
  journal?: string;
  strict?: boolean;
  /** Bound on the whole run (ms): when it runs out waiting for the rate limit, exit 7 and --resume. */
  maxTimeMs?: number;
}

export interface RunPlan {
  /** The recipients file, resolved, or '-' for stdin. */
  file: string;
  reportPath: string | undefined;
  journalPath: string | undefined;
  /** What the journal held before this run. */
  state: JournalState | undefined;
  run: RunRecord;
  /** A new run of a file already sent (--again, or yes to the question). */
  again: boolean;
  /** Chunks the journaled run finished, and how many events of a chunk it sent one at a time. */
  done: Set<number>;
  partial: Map<number, number>;
}

export async function planRun(deps: Deps, opts: Readonly<BulkOptions>, started: number): Promise<RunPlan> {
  const file = opts.file === '-' ? '-' : resolve(deps.cwd, opts.file);
  const reportPath = opts.report === undefined ? undefined : resolve(deps.cwd, opts.report);
  // Checked before anything is written beside it (the journal).
  const size = file === '-' ? undefined : await checkRecipientsFile(file);
  // A journal beside the file only for a regular file: beside a pipe or a device (/dev/null, a
  // process substitution's /dev/fd/N) it would be written into /dev, and those rows cannot be read
  // again to resume anyway (as stdin: --report or --journal gives one).
  const journalPath =
    opts.journal !== undefined
      ? resolve(deps.cwd, opts.journal)
      : reportPath
        ? `${reportPath}.journal`
        : isRegularFile(file)
          ? `${file}.svc-journal`
          : undefined;
  const state = journalPath ? readJournal(journalPath) : undefined;
  if (opts.resume && opts.again) throw new UsageError('--resume and --again: choose one (finish the journaled run, or send a new one)');
  const plan = { file, reportPath, journalPath, state };
  const planned = opts.resume ? await resumed(deps, opts, plan, size) : await fresh(deps, opts, plan, size, started);
  if (opts.strict && file !== '-') await validateWholeFile(deps, file);
  return planned;
}

type Located = Pick<RunPlan, 'file' | 'reportPath' | 'journalPath' | 'state'>;

/** --resume: the journaled run, once the file is checked to hold the rows it sent. */
async function resumed(deps: Deps, opts: Readonly<BulkOptions>, plan: Located, size: number | undefined): Promise<RunPlan> {
  const { file, journalPath, state } = plan;
  if (file === '-') {
    throw new UsageError('--resume: rows read from stdin cannot be checked against the run that was journaled; give the file with --recipients-file FILE');
  }
  if (!journalPath || !state) throw new UsageError('--resume needs a journal: give --report or --journal (stdin has no file to keep one beside)');
  const run = checkResumable(state, journalPath, { workflow: opts.workflow, file, ...(size !== undefined ? { size } : {}), chunkSize: opts.chunkSize });
  // Before anything is sent: the rows the run would skip must be the rows that were sent.
  await checkUnchanged(deps, file, state, opts.chunkSize, journalPath);
  return { ...plan, run, again: false, done: state.done, partial: state.partial };
}

/** A new run; a file this workflow was sent already is sent again only when the person says so. */
async function fresh(deps: Deps, opts: Readonly<BulkOptions>, plan: Located, size: number | undefined, started: number): Promise<RunPlan> {
  const { file, journalPath, state } = plan;
  let again = opts.again === true;
  const sameRun = state?.run !== undefined && state.run.workflow === opts.workflow && state.run.file === file;
  if (state?.run && !again) {
    if (!state.finished) {
      throw new UsageError(
        `an unfinished run of this file is journaled in ${journalPath}: continue it with --resume, or send everyone again as a new run with --again`,
      );
    }
    if (sameRun) {
      const when = state.endedAt ? ` on ${state.endedAt}` : '';
      again = await askAgain(deps, `${opts.file} was already sent to ${opts.workflow}${when} (journal ${journalPath})`);
    }
  }
  // Runs of this file journaled elsewhere (beside another --report) count as much as the one here.
  const runs = file !== '-' ? runsScope(deps) : undefined;
  if (runs && !again && !sameRun) again = await sentElsewhere(deps, opts, file, journalPath, runs);
  const run: RunRecord = {
    type: 'run',
    version: 1,
    runId: randomBytes(6).toString('hex'),
    workflow: opts.workflow,
    file,
    ...(size !== undefined ? { size } : {}),
    chunkSize: opts.chunkSize,
    startedAt: new Date(started).toISOString(),
  };
  return { ...plan, run, again, done: new Set(), partial: new Map() };
}

/** Whether a run of this file and workflow journaled beside another report stops this one (or the person sends again). */
async function sentElsewhere(deps: Deps, opts: Readonly<BulkOptions>, file: string, journalPath: string | undefined, runs: RunsScope): Promise<boolean> {
  const { journalsOf } = await import('./runs-index.js');
  for (const other of journalsOf(runs.dir, file, opts.workflow, runs.service)) {
    if (other === journalPath) continue;
    const earlier = readJournal(other);
    if (!earlier.run || earlier.run.workflow !== opts.workflow || earlier.run.file !== file) continue;
    if (!earlier.finished) {
      throw new UsageError(
        `an unfinished run of this file is journaled in ${other}: continue it with ${resumeFlags(file, other)}, or send everyone again as a new run with --again`,
      );
    }
    const when = earlier.endedAt ? ` on ${earlier.endedAt}` : '';
    return askAgain(deps, `${opts.file} was already sent to ${opts.workflow}${when} (journal ${other})`, resumeFlags(file, other));
  }
  return false;
}

/** The flags that continue the run journaled at `journal`: its report's, or the journal's own path. */
function resumeFlags(file: string, journal: string): string {
  if (journal === `${file}.svc-journal`) return '--resume';
  if (journal.endsWith('.journal')) return `--resume --report ${journal.slice(0, -'.journal'.length)}`;
  return `--resume --journal ${journal}`;
}

interface RunsScope {
  dir: string;
  service: string;
}

/** Where the index of runs lives (the config folder) and the service a run goes to; none without settings. */
export function runsScope(deps: Deps): RunsScope | undefined {
  const state = localState(() => deps.settings());
  return state && { dir: state.dir, service: state.profile };
}

/**
 * A finished run of the same file and workflow is journaled: sending again would reach everyone twice.
 * A person is asked; otherwise the choice is refused in one line. Returns true to send a new run.
 */
async function askAgain(deps: Deps, line: string, resume = '--resume'): Promise<true> {
  const choice = `${resume} to finish it (nothing is left to send), or --again to send everyone again as a new run with a new journal`;
  if (deps.interactive()) {
    const { askConfirm } = await import('../io/prompt.js');
    if (await askConfirm(deps, `${line}. Send everyone again as a new run?`, false)) return true;
    throw new UsageError(`not sent again: ${line}`);
  }
  throw new UsageError(`${line}: ${choice}`);
}

/** --resume: the file is read once before anything is sent; rows the journal says were sent must not have changed. */
async function checkUnchanged(deps: Deps, file: string, state: JournalState, chunkSize: number, journalPath: string): Promise<void> {
  const opened = await openRecipients(file, deps.io.stdin, async (p) => statSync(p).size);
  const chunker = new Chunker(chunkSize);
  let chunks = 0;
  const check = (chunk: Chunk) => {
    chunks = chunk.index + 1;
    const why = changedRows(state, chunk);
    if (why) {
      throw new UsageError(`--resume: ${file} changed since the run in ${journalPath}: ${why}; nothing was sent (send the file as it is now with --again)`);
    }
  };
  for await (const row of opened.rows) {
    if (row.kind === 'bad') continue;
    for (const chunk of chunker.add(row)) check(chunk);
  }
  for (const chunk of chunker.flush()) check(chunk);
  const gone = [...state.done, ...state.partial.keys()].filter((i) => i >= chunks);
  if (gone.length) {
    throw new UsageError(
      `--resume: ${file} changed since the run in ${journalPath}: it no longer holds chunk ${Math.min(...gone)}, which was sent; nothing was sent (send the file as it is now with --again)`,
    );
  }
}

/** --strict on a file: every row is checked before anything is sent, so a bad file sends nothing. */
async function validateWholeFile(deps: Deps, file: string): Promise<void> {
  const opened = await openRecipients(file, deps.io.stdin, async (p) => statSync(p).size);
  for await (const row of opened.rows) {
    if (row.kind === 'bad') throw new UsageError(`--recipients-file row ${row.row}: ${row.error} (--strict: nothing was sent)`);
  }
}

export function isRegularFile(file: string): boolean {
  try {
    return file !== '-' && statSync(file).isFile();
  } catch {
    return false;
  }
}

/** Lines of a file less the CSV header, for the progress bar's total (blank lines counted too). */
export async function countRows(path: string, skipBlank = false): Promise<number | undefined> {
  let lines = 0;
  let blank = 0;
  let last = 10;
  // Whether the line being read has anything but spaces, tabs and CRs so far.
  let filled = false;
  let first: number | undefined;
  try {
    for await (const buf of createReadStream(path) as AsyncIterable<Buffer>) {
      first ??= buf
        .toString('utf8', 0, 64)
        .replace(/^\uFEFF/, '')
        .trimStart()
        .charCodeAt(0);
      if (skipBlank) {
        for (const b of buf) {
          if (b === 10) {
            lines++;
            if (!filled) blank++;
            filled = false;
          } else if (b !== 32 && b !== 9 && b !== 13) filled = true;
        }
      } else for (let i = buf.indexOf(10); i !== -1; i = buf.indexOf(10, i + 1)) lines++;
      if (buf.length) last = buf[buf.length - 1]!;
    }
  } catch {
    return undefined;
  }
  if (last !== 10) {
    lines++;
    if (skipBlank && !filled) blank++;
  }
  const rows = lines - blank;
  return first === 123 /* { */ ? rows : Math.max(0, rows - 1);
}
