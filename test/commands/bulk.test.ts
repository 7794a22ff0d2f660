// trigger --recipients-file against a stub that deduplicates transaction ids like the service.
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startStub, type Recorded, type Stub, type StubAnswer } from '../helpers/stub.js';
import { runSvc, tempConfigDir } from '../helpers/run.js';

const KEY = 'sk_test_0123456789abcdef';
let stub: Stub;
let env: Record<string, string>;
let dir: string;
let seen: Map<string, number>;

function recipientsOf(req: Recorded): string[] {
  const body = req.body as { to?: unknown[]; events?: { to: unknown[] }[] };
  const ids = (to: unknown[]) => to.map((r) => (typeof r === 'string' ? r : (r as { subscriberId: string }).subscriberId));
  return body.events ? body.events.flatMap((e) => ids(e.to)) : ids(body.to ?? []);
}

beforeEach(async () => {
  // Answers for both kinds of chunk, shared by every test: unexpected requests fail, unused stubs do not.
  stub = await startStub({ allowUnused: true });
  env = { SVC_API_KEY: KEY, SVC_BASE_URL: stub.url };
  dir = tempConfigDir();
  seen = new Map();
  const answer = (txn: string) => {
    seen.set(txn, (seen.get(txn) ?? 0) + 1);
    return { acknowledged: true, status: 'processed', transactionId: txn };
  };
  stub.on('POST', '/v1/events/trigger', (req) => ({ status: 201, body: { data: answer((req.body as { transactionId: string }).transactionId) } }));
  stub.on('POST', '/v1/events/trigger/bulk', (req) => ({
    status: 201,
    body: { data: (req.body as { events: { transactionId: string }[] }).events.map((e) => answer(e.transactionId)) },
  }));
});
afterEach(async () => stub.close());

function csv(rows: number, extra: (i: number) => string = () => ''): string {
  const lines = ['subscriberId,firstName,payload.plan'];
  for (let i = 0; i < rows; i++) lines.push(`user-${i},Name ${i},${extra(i)}`);
  return `${lines.join('\n')}\n`;
}

describe('--recipients-file', () => {
  test('CSV: shared-payload rows go 100 per trigger, own-payload rows through bulk; everyone once; report matches', async () => {
    writeFileSync(
      join(dir, 'users.csv'),
      csv(250, (i) => (i % 5 === 0 ? 'pro' : '')),
    );
    const r = await runSvc(['trigger', 'welcome', '--recipients-file', 'users.csv', '--report', 'report.ndjson', '--payload', '{"from":"svc"}'], {
      env,
      cwd: dir,
    });
    expect(r.stderr).toContain('250 recipients sent, 0 failed, 0 skipped');
    expect(r.code).toBe(0);
    const all = stub.requests.flatMap(recipientsOf);
    expect(all).toHaveLength(250);
    expect(new Set(all).size).toBe(250);
    const triggers = stub.requests.filter((q) => q.path === '/v1/events/trigger');
    expect(triggers.map((q) => recipientsOf(q).length)).toEqual([100, 100]);
    const bulk = stub.requests.filter((q) => q.path === '/v1/events/trigger/bulk');
    expect(bulk.map((q) => recipientsOf(q).length)).toEqual([50]);
    const ev = (bulk[0]!.body as { events: { payload: unknown; to: unknown[] }[] }).events[0]!;
    expect(ev.payload).toEqual({ from: 'svc', plan: 'pro' });
    expect(ev.to).toEqual([{ subscriberId: 'user-0', firstName: 'Name 0' }]);
    expect((triggers[0]!.body as { payload: unknown }).payload).toEqual({ from: 'svc' });
    const report = readFileSync(join(dir, 'report.ndjson'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(report).toHaveLength(250);
    expect(report.every((l) => l.status === 'sent' && l.transactionId && l.error === null)).toBe(true);
    expect(report.find((l) => l.subscriberId === 'user-1').row).toBe(3);
    const summary = JSON.parse(r.stdout);
    expect(summary.recipients).toEqual({ sent: 250, failed: 0, skipped: 0, alreadySent: 0 });
  });

  test('NDJSON with bad rows: each reported with its line, the rest sent, exit 1', async () => {
    const lines = [
      '{"subscriberId":"a"}',
      '{"subscriberId":',
      '{"firstName":"no id"}',
      '',
      '{"subscriberId":"b","payload":{"x":1}}',
      '{"subscriberId":"c","colour":"red"}',
      '[1]',
    ];
    writeFileSync(join(dir, 'r.ndjson'), lines.join('\n'));
    const r = await runSvc(['trigger', 'welcome', '--recipients-file', 'r.ndjson', '--report', 'rep.ndjson'], { env, cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('row 2: invalid JSON (skipped)');
    expect(r.stderr).toContain('row 3: missing subscriberId');
    expect(r.stderr).toContain('row 6: unknown field colour');
    expect(r.stderr).toContain('row 7: expected a JSON object');
    expect(r.stderr).toMatch(/^error: not every row was sent: 4 bad rows were skipped \(see rep\.ndjson\)$/m);
    expect(stub.requests.flatMap(recipientsOf).sort()).toEqual(['a', 'b']);
    const rep = readFileSync(join(dir, 'rep.ndjson'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(rep.filter((l) => l.status === 'skipped').map((l) => l.row)).toEqual([2, 3, 6, 7]);
  });

  test('--strict checks the whole file first: a bad row sends nothing (exit 2)', async () => {
    writeFileSync(join(dir, 'r.ndjson'), '{"subscriberId":"a"}\n{"subscriberId":"b"}\nnot json\n');
    const r = await runSvc(['trigger', 'welcome', '--recipients-file', 'r.ndjson', '--strict'], { env, cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('row 3: invalid JSON');
    expect(stub.requests).toHaveLength(0);
  });

  test.each([
    ['subscriberId,colour\nu1,red\n', 'unknown column "colour"'],
    ['firstName\nAda\n', 'no subscriberId column'],
  ])('a bad CSV header sends nothing (exit 2): %j', async (content, message) => {
    writeFileSync(join(dir, 'bad.csv'), content);
    const r = await runSvc(['trigger', 'welcome', '--recipients-file', 'bad.csv'], { env, cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(message);
    expect(stub.requests).toHaveLength(0);
  });

  test('a missing file, and flags that conflict, are usage errors', async () => {
    expect((await runSvc(['trigger', 'w', '--recipients-file', 'nope.csv'], { env, cwd: dir })).stderr).toContain('no such file');
    expect((await runSvc(['trigger', 'w', '--recipients-file', 'x.csv', '--to', 'u1'], { env, cwd: dir })).code).toBe(2);
    expect((await runSvc(['trigger', 'w', '--to', 'u1', '--resume'], { env, cwd: dir })).stderr).toContain('--resume only applies with --recipients-file');
    expect(stub.requests).toHaveLength(0);
  });

  test('a directory, an empty path or a missing file is refused before a journal is written beside it', async () => {
    mkdirSync(join(dir, 'inbox'));
    const cases: [string, string][] = [
      ['inbox', 'inbox: it is a directory'],
      ['', '--recipients-file: expected a file path'],
      ['.', 'it is a directory'],
      ['nope.csv', 'nope.csv: no such file'],
    ];
    for (const [file, message] of cases) {
      const r = await runSvc(['trigger', 'w', '--recipients-file', file], { env, cwd: dir });
      expect(r.code, file).toBe(2);
      expect(r.stderr, file).toContain(message);
    }
    const empty = await runSvc(['trigger', 'w', '--recipients-file', 'x.csv', '--report', ' '], { env, cwd: dir });
    expect(empty.stderr).toContain('--report: expected a file path');
    expect(readdirSync(dir).sort()).toEqual(['inbox']);
    expect(existsSync(`${dir}.svc-journal`)).toBe(false);
    expect(stub.requests).toHaveLength(0);
  });

  test('a failed chunk is reported, journaled as not done, and --resume sends only it with the same transaction id', async () => {
    writeFileSync(join(dir, 'users.csv'), csv(300));
    stub.on('POST', '/v1/events/trigger', (req) => {
      const txn = (req.body as { transactionId: string }).transactionId;
      if (txn.endsWith('-1')) return { status: 500, body: { statusCode: 500, message: 'boom', path: '/', timestamp: 'x' } };
      seen.set(txn, (seen.get(txn) ?? 0) + 1);
      return { status: 201, body: { data: { acknowledged: true, status: 'processed', transactionId: txn } } };
    });
    const first = await runSvc(['trigger', 'welcome', '--recipients-file', 'users.csv', '--report', 'rep.ndjson', '--retries', '0', '--concurrency', '1'], {
      env,
      cwd: dir,
    });
    expect(first.code).toBe(1);
    expect(first.stderr).toContain('200 recipients sent, 100 failed');
    const failedTxn = stub.requests.find((q) => (q.body as { transactionId: string }).transactionId.endsWith('-1'))!;
    const txn = (failedTxn.body as { transactionId: string }).transactionId;

    stub.on('POST', '/v1/events/trigger', (req) => {
      const t = (req.body as { transactionId: string }).transactionId;
      seen.set(t, (seen.get(t) ?? 0) + 1);
      return { status: 201, body: { data: { acknowledged: true, status: 'processed', transactionId: t } } };
    });
    const before = stub.requests.length;
    const again = await runSvc(['trigger', 'welcome', '--recipients-file', 'users.csv', '--report', 'rep.ndjson', '--resume'], { env, cwd: dir });
    expect(again.code).toBe(0);
    expect(again.stderr).toContain('100 recipients sent, 0 failed, 0 skipped, 200 already sent before');
    const resent = stub.requests.slice(before);
    expect(resent).toHaveLength(1);
    expect((resent[0]!.body as { transactionId: string }).transactionId).toBe(txn);
    expect([...seen.values()].every((n) => n === 1)).toBe(true);
    const rep = readFileSync(join(dir, 'rep.ndjson'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(rep).toHaveLength(300);
    expect(rep.every((l) => l.status === 'sent')).toBe(true);
    expect(new Set(rep.map((l) => l.subscriberId)).size).toBe(300);
  });

  test('a second run without --resume refuses while the journal holds an unfinished run', async () => {
    writeFileSync(join(dir, 'users.csv'), csv(10));
    stub.on('POST', '/v1/events/trigger', { status: 500, body: { statusCode: 500, message: 'boom', path: '/', timestamp: 'x' } });
    await runSvc(['trigger', 'welcome', '--recipients-file', 'users.csv', '--retries', '0'], { env, cwd: dir });
    const r = await runSvc(['trigger', 'welcome', '--recipients-file', 'users.csv'], { env, cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--resume');
  });

  test('adaptive concurrency keeps within RateLimit-Remaining: no 429 from a rate-limited service', async () => {
    // A token bucket of 10 requests per 500 ms window, answering 429 when it is empty.
    let tokens = 10;
    let windowEnds = Date.now() + 500;
    let refused = 0;
    stub.on('POST', '/v1/events/trigger', (req): StubAnswer => {
      const now = Date.now();
      if (now >= windowEnds) {
        tokens = 10;
        windowEnds = now + 500;
      }
      const reset = String(Math.max(0.05, (windowEnds - now) / 1000));
      if (tokens <= 0) {
        refused++;
        return {
          status: 429,
          headers: { 'retry-after': reset, 'ratelimit-limit': '10', 'ratelimit-remaining': '0', 'ratelimit-reset': reset },
          body: { statusCode: 429, message: 'API rate limit exceeded', path: '/', timestamp: 'x' },
        };
      }
      tokens--;
      const txn = (req.body as { transactionId: string }).transactionId;
      return {
        status: 201,
        delayMs: 5,
        headers: { 'ratelimit-limit': '10', 'ratelimit-remaining': String(tokens), 'ratelimit-reset': reset },
        body: { data: { acknowledged: true, status: 'processed', transactionId: txn } },
      };
    });
    writeFileSync(join(dir, 'users.csv'), csv(300));
    const r = await runSvc(['trigger', 'welcome', '--recipients-file', 'users.csv', '--chunk', '10'], { env, cwd: dir });
    expect(r.code).toBe(0);
    expect(stub.requests.flatMap(recipientsOf)).toHaveLength(300);
    expect(refused).toBe(0);
  });

  test('through the one client: a replayed answer is counted in the summary, not noted per chunk; a wrong shape is warned about', async () => {
    // The first trigger answer comes back as a replay (its key had reached the service before), and in the shape
    // of a refusal the service never sends for a trigger (no acknowledged): the session's rules apply to bulk too.
    let n = 0;
    stub.on('POST', '/v1/events/trigger', (req) => {
      n++;
      const txn = (req.body as { transactionId: string }).transactionId;
      return n === 1
        ? { status: 201, headers: { 'idempotency-replay': 'true' }, body: { data: { status: 'processed', transactionId: txn } } }
        : { status: 201, body: { data: { acknowledged: true, status: 'processed', transactionId: txn } } };
    });
    writeFileSync(join(dir, 'users.csv'), csv(150));
    const r = await runSvc(['trigger', 'welcome', '--recipients-file', 'users.csv', '-o', 'json'], { env, cwd: dir });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).requests).toEqual({ sent: 2, failed: 0, replayed: 1 });
    expect(r.stderr).not.toContain('replayed its earlier answer');
    expect(r.stderr).toMatch(/the answer to POST \/v1\/events\/trigger does not match the documented shape \(acknowledged: is required\)/);
  });
});

describe('--resume sends exactly what the file says; a finished run is not sent twice', () => {
  const failChunk1 = () =>
    stub.on('POST', '/v1/events/trigger', (req) => {
      const txn = (req.body as { transactionId: string }).transactionId;
      if (txn.endsWith('-1')) return { status: 500, body: { statusCode: 500, message: 'boom', path: '/', timestamp: 'x' } };
      seen.set(txn, (seen.get(txn) ?? 0) + 1);
      return { status: 201, body: { data: { acknowledged: true, status: 'processed', transactionId: txn } } };
    });
  const interrupted = async () => {
    writeFileSync(join(dir, 'users.csv'), csv(300));
    failChunk1();
    const first = await runSvc(['trigger', 'welcome', '--recipients-file', 'users.csv', '--retries', '0', '--concurrency', '1'], { env, cwd: dir });
    expect(first.code).toBe(1);
  };

  test('rows already sent, edited in place to the same byte count: --resume refuses in one line (exit 2), nothing sent', async () => {
    await interrupted();
    const path = join(dir, 'users.csv');
    const before = readFileSync(path, 'utf8');
    // user-5 becomes userX5: same size, another recipient the first run never notified.
    const edited = before.replace('user-5,Name 5', 'userX5,Name 5');
    expect(edited.length).toBe(before.length);
    writeFileSync(path, edited);
    const n = stub.requests.length;
    const r = await runSvc(['trigger', 'welcome', '--recipients-file', 'users.csv', '--resume'], { env, cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/changed since the run .*rows 2–101 \(chunk 0, already sent\) are not the rows that were sent; nothing was sent/);
    expect(stub.requests.length).toBe(n);
  });

  test('rows not sent yet may change: --resume sends them as the file says now', async () => {
    await interrupted();
    const path = join(dir, 'users.csv');
    writeFileSync(path, readFileSync(path, 'utf8').replace('user-150,', 'userX150,'));
    stub.on('POST', '/v1/events/trigger', (req) => ({
      status: 201,
      body: { data: { acknowledged: true, status: 'processed', transactionId: (req.body as { transactionId: string }).transactionId } },
    }));
    const n = stub.requests.length;
    // The size changed by nothing; a row of the failed chunk now names another recipient.
    const r = await runSvc(['trigger', 'welcome', '--recipients-file', 'users.csv', '--resume'], { env, cwd: dir });
    expect(r.stderr).toContain('100 recipients sent');
    expect(r.code).toBe(0);
    expect(stub.requests.slice(n).flatMap(recipientsOf)).toContain('userX150');
  });

  test('stdin cannot be checked against a journal: --resume from stdin is refused', async () => {
    const r = await runSvc(['trigger', 'welcome', '--recipients-file', '-', '--journal', 'j.ndjson', '--resume'], { env, cwd: dir, stdin: csv(3) });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--resume: rows read from stdin');
    expect(stub.requests).toHaveLength(0);
  });

  test('the same file and workflow again after a finished run: refused with the choice (exit 2); --again sends a new run and keeps the old journal', async () => {
    writeFileSync(join(dir, 'users.csv'), csv(150));
    const first = await runSvc(['trigger', 'welcome', '--recipients-file', 'users.csv', '--report', 'rep.ndjson'], { env, cwd: dir });
    expect(first.code).toBe(0);
    const n = stub.requests.length;
    const journalBefore = readFileSync(join(dir, 'rep.ndjson.journal'), 'utf8');
    const again = await runSvc(['trigger', 'welcome', '--recipients-file', 'users.csv', '--report', 'rep.ndjson'], { env, cwd: dir });
    expect(again.code).toBe(2);
    expect(again.stderr.trim().split('\n')).toHaveLength(1);
    expect(again.stderr).toMatch(/users\.csv was already sent to welcome .*--resume to finish it .*--again to send everyone again/);
    expect(stub.requests.length).toBe(n);
    expect(readFileSync(join(dir, 'rep.ndjson.journal'), 'utf8')).toBe(journalBefore);

    const resumed = await runSvc(['trigger', 'welcome', '--recipients-file', 'users.csv', '--report', 'rep.ndjson', '--resume'], { env, cwd: dir });
    expect(resumed.code).toBe(0);
    expect(resumed.stderr).toContain('150 already sent before');
    expect(stub.requests.length).toBe(n);

    const forced = await runSvc(['trigger', 'welcome', '--recipients-file', 'users.csv', '--report', 'rep.ndjson', '--again'], { env, cwd: dir });
    expect(forced.code).toBe(0);
    expect(forced.stderr).toContain('150 recipients sent');
    expect(stub.requests.length).toBe(n + 2);
    const runId = JSON.parse(journalBefore.split('\n')[0]!).runId as string;
    expect(readFileSync(join(dir, `rep.ndjson.journal.${runId}`), 'utf8')).toContain('"type":"end"');
    expect(existsSync(join(dir, `rep.ndjson.${runId}`))).toBe(true);
  });
  test("--again refused before sending (--strict, a bad row) leaves the finished run's journal and report, so the next run still refuses", async () => {
    writeFileSync(join(dir, 'users.csv'), csv(3));
    const first = await runSvc(['trigger', 'welcome', '--recipients-file', 'users.csv', '--report', 'rep.ndjson'], { env, cwd: dir });
    expect(first.code, first.stderr).toBe(0);
    const n = stub.requests.length;
    const journalBefore = readFileSync(join(dir, 'rep.ndjson.journal'), 'utf8');
    const reportBefore = readFileSync(join(dir, 'rep.ndjson'), 'utf8');
    writeFileSync(join(dir, 'users.csv'), `${csv(3)}\n,no-id@example.com\n`);
    const refused = await runSvc(['trigger', 'welcome', '--recipients-file', 'users.csv', '--report', 'rep.ndjson', '--again', '--strict'], { env, cwd: dir });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('nothing was sent');
    expect(refused.stderr).not.toContain('kept as');
    expect(stub.requests.length).toBe(n);
    expect(readFileSync(join(dir, 'rep.ndjson.journal'), 'utf8')).toBe(journalBefore);
    expect(readFileSync(join(dir, 'rep.ndjson'), 'utf8')).toBe(reportBefore);
    const plain = await runSvc(['trigger', 'welcome', '--recipients-file', 'users.csv', '--report', 'rep.ndjson'], { env, cwd: dir });
    expect(plain.code).toBe(2);
    expect(plain.stderr).toContain('already sent');
    expect(stub.requests.length).toBe(n);
  });
  test('a finished run beside another --report (or none) still counts: refused, not sent twice', async () => {
    writeFileSync(join(dir, 'users.csv'), csv(150));
    // One config folder for the runs, as one person's machine has.
    const mine = { ...env, SVC_CONFIG_DIR: join(dir, 'config') };
    const first = await runSvc(['trigger', 'welcome', '--recipients-file', 'users.csv', '--report', 'rep.ndjson'], { env: mine, cwd: dir });
    expect(first.code, first.stderr).toBe(0);
    const n = stub.requests.length;
    for (const report of [['--report', 'rep2.ndjson'], []]) {
      const r = await runSvc(['trigger', 'welcome', '--recipients-file', 'users.csv', ...report], { env: mine, cwd: dir });
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).toMatch(/users\.csv was already sent to welcome .*rep\.ndjson\.journal.*--again to send everyone again/);
      expect(stub.requests.length).toBe(n);
    }
    expect(existsSync(join(dir, 'rep2.ndjson'))).toBe(false);
    // Another workflow is another run.
    const other = await runSvc(['trigger', 'digest', '--recipients-file', 'users.csv', '--report', 'rep3.ndjson'], { env: mine, cwd: dir });
    expect(other.code, other.stderr).toBe(0);
    const forced = await runSvc(['trigger', 'welcome', '--recipients-file', 'users.csv', '--report', 'rep2.ndjson', '--again'], { env: mine, cwd: dir });
    expect(forced.code, forced.stderr).toBe(0);
    expect(forced.stderr).toContain('150 recipients sent');
  });
  test('interrupted part-way: the summary counts every row not sent yet, the rows never read included', async () => {
    writeFileSync(join(dir, 'users.csv'), csv(3000));
    let answered = 0;
    const ctl = new AbortController();
    stub.on('POST', '/v1/events/trigger', (req) => {
      if (++answered === 20) ctl.abort();
      return {
        status: 201,
        delayMs: 5,
        body: { data: { acknowledged: true, status: 'processed', transactionId: (req.body as { transactionId: string }).transactionId } },
      };
    });
    const r = await runSvc(['trigger', 'welcome', '--recipients-file', 'users.csv', '--chunk', '1', '--concurrency', '1'], {
      env,
      cwd: dir,
      signal: ctl.signal,
    });
    expect(r.code, r.stderr).toBe(130);
    const m = /(\d+) recipients sent, 0 failed, 0 skipped, (\d+) not sent yet/.exec(r.stderr);
    expect(m, r.stderr).not.toBeNull();
    expect(Number(m![1]) + Number(m![2])).toBe(3000);
  });
});
