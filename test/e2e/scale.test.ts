// Work at scale against the real local service, through the built binary: bulk triggers from a file
// (exactly once, also across kill -9 and --resume, with a matching report), exports across many
// pages, and trigger --wait's exit codes.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { execa } from 'execa';
import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { api, startDev, type DevProcess } from '../helpers/dev.js';
import { BIN, svcBin } from '../helpers/bin.js';
import { tempConfigDir } from '../helpers/run.js';

let dev: DevProcess;
let env: Record<string, string>;
let dir: string;

beforeAll(async () => {
  dev = await startDev({ args: ['--quiet'] });
  env = { SVC_BASE_URL: dev.baseUrl, SVC_API_KEY: dev.apiKey, PATH: process.env.PATH ?? '' };
  dir = tempConfigDir();
  // One cheap in-app step keeps the service's work per recipient small.
  writeFileSync(
    join(dir, 'wf.json'),
    JSON.stringify({
      name: 'Bulk note',
      workflowId: 'bulk-note',
      active: true,
      steps: [{ name: 'Note', type: 'in_app', controlValues: { body: 'Hello {{ subscriber.firstName }}' } }],
    }),
  );
  const r = await svcBin(['workflow', 'create', '--data', `@${join(dir, 'wf.json')}`], { env });
  expect(r.exitCode, String(r.stderr)).toBe(0);
}, 60_000);
afterAll(async () => {
  await dev?.stop();
});

/** Every notification of the environment, through the CLI's own --all export. */
async function allEvents(extra: string[] = []): Promise<{ _id: string; transactionId: string; subscriber?: { subscriberId: string } }[]> {
  const r = await svcBin(['events', 'list', '--all', '-o', 'ndjson', ...extra], { env });
  expect(r.exitCode, String(r.stderr)).toBe(0);
  return String(r.stdout)
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));
}

function writeCsv(name: string, prefix: string, n: number): string {
  const lines = ['subscriberId,firstName'];
  for (let i = 0; i < n; i++) lines.push(`${prefix}-${i},Name ${i}`);
  const path = join(dir, name);
  writeFileSync(path, `${lines.join('\n')}\n`);
  return path;
}

function countBySubscriber(events: { subscriber?: { subscriberId: string } }[], prefix: string): Map<string, number> {
  const m = new Map<string, number>();
  for (const e of events) {
    const id = e.subscriber?.subscriberId;
    if (id?.startsWith(`${prefix}-`)) m.set(id, (m.get(id) ?? 0) + 1);
  }
  return m;
}

describe('bulk trigger against svc dev', () => {
  test('1,000 recipients from a CSV: each gets exactly one notification, and the report matches', async () => {
    const file = writeCsv('bulk.csv', 'bulk', 1000);
    const report = join(dir, 'bulk-report.ndjson');
    const r = await svcBin(['trigger', 'bulk-note', '--recipients-file', file, '--report', report], { env });
    expect(r.exitCode, String(r.stderr)).toBe(0);
    const summary = JSON.parse(String(r.stdout));
    expect(summary.recipients).toEqual({ sent: 1000, failed: 0, skipped: 0, alreadySent: 0 });
    const counts = countBySubscriber(await allEvents(['--workflow', 'bulk-note']), 'bulk');
    expect(counts.size).toBe(1000);
    expect([...counts.values()].every((n) => n === 1)).toBe(true);
    const lines = readFileSync(report, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines).toHaveLength(1000);
    expect(new Set(lines.map((l) => l.subscriberId)).size).toBe(1000);
    expect(lines.every((l) => l.status === 'sent' && typeof l.transactionId === 'string')).toBe(true);
  }, 120_000);

  test('killed with -9 part-way and resumed: every recipient exactly once', async () => {
    const file = writeCsv('crash.csv', 'crash', 3000);
    const report = join(dir, 'crash-report.ndjson');
    const journal = `${report}.journal`;
    const run = execa(process.execPath, [BIN, 'trigger', 'bulk-note', '--recipients-file', file, '--report', report, '--concurrency', '2', '--chunk', '20'], {
      env: { ...env, SVC_CONFIG_DIR: tempConfigDir(), NO_COLOR: '1' },
      extendEnv: false,
      reject: false,
    });
    // Kill it once some chunks are journaled but well before the end.
    for (let i = 0; i < 400; i++) {
      const done = existsSync(journal)
        ? readFileSync(journal, 'utf8')
            .split('\n')
            .filter((l) => l.includes('"chunk"')).length
        : 0;
      if (done >= 10) break;
      await new Promise((r) => setTimeout(r, 25));
    }
    run.kill('SIGKILL');
    const killed = await run;
    expect(killed.signal).toBe('SIGKILL');
    const partial = readFileSync(journal, 'utf8')
      .split('\n')
      .filter((l) => l.includes('"chunk"')).length;
    expect(partial).toBeGreaterThanOrEqual(10);
    expect(partial).toBeLessThan(150);

    const resumed = await svcBin(['trigger', 'bulk-note', '--recipients-file', file, '--report', report, '--chunk', '20', '--resume'], { env });
    expect(resumed.exitCode, String(resumed.stderr)).toBe(0);
    const summary = JSON.parse(String(resumed.stdout));
    expect(summary.recipients.alreadySent).toBeGreaterThanOrEqual(partial * 20);
    expect(summary.recipients.sent + summary.recipients.alreadySent).toBe(3000);

    const counts = countBySubscriber(await allEvents(['--workflow', 'bulk-note']), 'crash');
    expect(counts.size).toBe(3000);
    const dupes = [...counts.entries()].filter(([, n]) => n !== 1);
    expect(dupes).toEqual([]);
    const lines = readFileSync(report, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines).toHaveLength(3000);
    expect(new Set(lines.map((l) => l.subscriberId)).size).toBe(3000);
  }, 180_000);
});

describe('exports', () => {
  test('events list --all returns every record once, in the order of the pages', async () => {
    const byPage: string[] = [];
    for (let page = 0; ; page++) {
      const r = await api(dev, 'GET', `/v1/notifications?limit=50&page=${page}`);
      const records = r.body.data as { _id: string }[];
      byPage.push(...records.map((x) => x._id));
      if (!r.body.hasMore) break;
    }
    const all = (await allEvents()).map((e) => e._id);
    expect(all.length).toBeGreaterThan(1000);
    expect(new Set(all).size).toBe(all.length);
    expect(all).toEqual(byPage);
  }, 120_000);
});

describe('trigger --wait', () => {
  test('delivered: exit 0', async () => {
    const r = await svcBin(['trigger', 'bulk-note', '--to', 'waiter-1', '--wait', '--wait-timeout', '20s'], { env });
    expect(r.exitCode, String(r.stderr)).toBe(0);
    expect(JSON.parse(String(r.stdout)).outcome).toBe('delivered');
  });

  test('failed: exit 9 with the reason', async () => {
    // The demo's otp workflow sends an SMS: a subscriber without a phone number cannot get it.
    const r = await svcBin(['trigger', 'otp', '--to', 'no-phone-subscriber', '--set', 'code=123456', '--wait', '--wait-timeout', '20s'], { env });
    expect(r.exitCode, String(r.stderr)).toBe(9);
    expect(String(r.stderr)).toMatch(/sms/);
    expect(JSON.parse(String(r.stdout)).outcome).toBe('failed');
  });

  test('still pending at the timeout: exit 8', async () => {
    writeFileSync(
      join(dir, 'slow.json'),
      JSON.stringify({
        name: 'Slow',
        workflowId: 'slow-note',
        active: true,
        steps: [
          { name: 'Wait an hour', type: 'delay', controlValues: { type: 'regular', amount: 1, unit: 'hours' } },
          { name: 'Note', type: 'in_app', controlValues: { body: 'Later' } },
        ],
      }),
    );
    expect((await svcBin(['workflow', 'create', '--data', `@${join(dir, 'slow.json')}`], { env })).exitCode).toBe(0);
    const r = await svcBin(['trigger', 'slow-note', '--to', 'waiter-2', '--wait', '--wait-timeout', '1500ms'], { env });
    expect(r.exitCode, String(r.stderr)).toBe(8);
    expect(JSON.parse(String(r.stdout)).outcome).toBe('pending');
  });
});
