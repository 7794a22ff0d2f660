// vitest global setup: creates the directory the secrets audit records into (test/helpers/audit.ts) and
// passes it to the test workers through the environment; the teardown searches every output the suite
// produced for every secret it used, and fails the run when one leaked.
// It also gives the run a temporary directory of its own (TMPDIR, which os.tmpdir() reads), removed
// at the end: the suite makes thousands of config directories, stores and files, and leaves none.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AUDIT_ENV, checkAudit } from './audit.js';

export default function setup(): () => void {
  const dir = mkdtempSync(join(tmpdir(), 'svc-audit-'));
  const scratch = mkdtempSync(join(tmpdir(), 'svc-suite-'));
  const previousTmp = process.env.TMPDIR;
  // Workers are started after the global setup and inherit this environment.
  process.env[AUDIT_ENV] = dir;
  process.env.TMPDIR = scratch;
  // A test that forgets SVC_CONFIG_DIR, or a `svc dev` without --data, writes into the run's folder:
  // never the user's profiles or store, and never one another test file shares with another run.
  const xdg = ['XDG_CONFIG_HOME', 'XDG_DATA_HOME', 'XDG_CACHE_HOME', 'XDG_STATE_HOME'] as const;
  const previousXdg = xdg.map((k) => process.env[k]);
  for (const k of xdg) process.env[k] = join(scratch, k.toLowerCase());
  return () => {
    if (previousTmp === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previousTmp;
    xdg.forEach((k, i) => {
      if (previousXdg[i] === undefined) delete process.env[k];
      else process.env[k] = previousXdg[i];
    });
    rmSync(scratch, { recursive: true, force: true, maxRetries: 3 });
    printFigures(dir);
    const report = checkAudit(dir);
    const summary =
      `secrets audit: ${report.outputs} outputs (${(report.bytes / 1024).toFixed(0)} KiB) searched for ${report.secrets} secrets, ` +
      `${report.allowedOutputs} outputs with --show-secrets skipped, ${report.leaks.length} leaks`;
    if (report.leaks.length === 0) {
      console.log(summary);
      rmSync(dir, { recursive: true, force: true });
      return;
    }
    const lines = report.leaks.slice(0, 20).map((l) => `  - ${l.source}: secret ${l.secret} (from ${l.secretFrom}) in …${l.context.replace(/\n/g, '⏎')}…`);
    // vitest only logs an error thrown by a teardown ("error during close") and keeps a passing run's
    // exit code 0; the exit code is what CI reads. The records stay on disk for whoever investigates.
    process.exitCode = 1;
    throw new Error(`${summary}\n${lines.join('\n')}\n(records kept in ${dir})`);
  };
}

/**
 * The figures the reliability tests recorded (test/reliability/util.ts), together, with the totals
 * the issue asks for: nothing lost, nothing twice, nothing crashed.
 */
function printFigures(dir: string): void {
  const rows: { title: string; values: Record<string, unknown> }[] = [];
  for (const f of readdirSync(dir).filter((x) => x.endsWith('.figures'))) {
    for (const line of readFileSync(join(dir, f), 'utf8').split('\n')) if (line) rows.push(JSON.parse(line));
  }
  if (rows.length === 0) return;
  const sum = (key: string) => rows.reduce((a, r) => a + (typeof r.values[key] === 'number' ? (r.values[key] as number) : 0), 0);
  const lines = rows
    .sort((a, b) => a.title.localeCompare(b.title))
    .map(
      (r) =>
        `  ${r.title}: ${Object.entries(r.values)
          .map(([k, v]) => `${k}=${typeof v === 'object' ? JSON.stringify(v) : v}`)
          .join(', ')}`,
    );
  console.log(`reliability figures:\n${lines.join('\n')}`);
  console.log(
    `reliability totals: faults injected ${sum('faultsInjected')}, notifications counted ${sum('notifications')}, duplicates ${sum('duplicates')}, ` +
      `lost ${sum('lost')}, bad inputs tried ${sum('runs')}, generated inputs ${sum('generatedInputs')}, fuzzed requests ${sum('fuzzedRequests')}, ` +
      `crashes ${sum('crashes')}, server errors ${sum('serverErrors')}, leaks ${sum('leaks')}`,
  );
}
