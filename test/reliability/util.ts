// Shared by the reliability tests: bounded concurrency, reading the local service's activity feed
// directly (never through a fault proxy), and counting what arrived.
import { appendFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { AUDIT_ENV } from '../helpers/audit.js';
import { api } from '../helpers/dev.js';

/** Runs fn(0..n-1) with at most `concurrency` in flight; results in index order. */
export async function pool<T>(n: number, concurrency: number, fn: (i: number) => Promise<T>): Promise<T[]> {
  const out = new Array<T>(n);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < n; i = next++) out[i] = await fn(i);
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, n) }, worker));
  return out;
}

export function tryJson(text: string): any {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

export interface Service {
  baseUrl: string;
  apiKey: string;
}

/** Every notification of the environment, page by page (the feed's largest page is 50). */
export async function allNotifications(svc: Service, query = ''): Promise<any[]> {
  const out: any[] = [];
  for (let page = 0; ; page++) {
    const r = await api(svc, 'GET', `/v1/notifications?limit=50&page=${page}${query}`);
    if (r.status !== 200) throw new Error(`GET /v1/notifications → ${r.status} ${JSON.stringify(r.body)}`);
    out.push(...r.body.data);
    if (!r.body.hasMore) return out;
  }
}

/** How many times each key occurs. */
export function tally<T>(items: T[], key: (t: T) => string): Map<string, number> {
  const m = new Map<string, number>();
  for (const t of items) m.set(key(t), (m.get(key(t)) ?? 0) + 1);
  return m;
}

/** Against the expected keys: how many arrived exactly once, twice or more, or never. */
export function exactlyOnce(expected: string[], seen: Map<string, number>): { found: number; duplicates: number; lost: number; unexpected: number } {
  const want = new Set(expected);
  let found = 0;
  let duplicates = 0;
  let lost = 0;
  for (const k of want) {
    const c = seen.get(k) ?? 0;
    if (c === 0) lost++;
    else found++;
    if (c > 1) duplicates += c - 1;
  }
  let unexpected = 0;
  for (const [k, c] of seen) if (!want.has(k)) unexpected += c;
  return { found, duplicates, lost, unexpected };
}

/** Waits until `check` holds, polling; fails with `what` after `ms`. */
export async function eventually(what: string, check: () => Promise<boolean>, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  for (;;) {
    if (await check()) return;
    if (Date.now() > deadline) throw new Error(`still not true after ${ms} ms: ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * One line the test prints so that its figures can be quoted (and grepped from a CI log); also kept
 * for the global teardown, which prints them all together at the end of the run.
 */
export function figures(title: string, values: Record<string, unknown>): void {
  console.log(
    `[figures] ${title}: ${Object.entries(values)
      .map(([k, v]) => `${k}=${typeof v === 'object' ? JSON.stringify(v) : v}`)
      .join(', ')}`,
  );
  const dir = process.env[AUDIT_ENV];
  if (dir && existsSync(dir)) appendFileSync(join(dir, `${process.pid}.figures`), `${JSON.stringify({ title, values })}\n`);
}
