// The Inbox's routes are rows of the operation table (inboxRoutes, beside the operator API's routes),
// registered by app.ts's one loop: every /v1 and /v2 route the app serves is a row of the table and
// every row is served, and the Inbox's folder registers no route of its own (no second router).
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, test } from 'vitest';
import { inboxRoutes } from '../../../src/api/inbox-routes.js';
import { routes } from '../../../src/api/routes.js';
import { testService } from '../../helpers/service.js';

/** Every route of the app as `METHOD /path`, read from fastify's route tree (HEAD routes left out). */
function servedRoutes(tree: string): string[] {
  const prefixes: string[] = [];
  const out: string[] = [];
  for (const line of tree.split('\n')) {
    const m = /^((?:[│ ] {3})*)[├└]── (.*?)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (!m) continue;
    const level = m[1]!.length / 4;
    const path = (prefixes[level - 1] ?? '') + m[2]!;
    prefixes[level] = path;
    prefixes.length = level + 1;
    for (const method of m[3]?.split(', ') ?? []) if (method !== 'HEAD') out.push(`${method} ${path}`);
  }
  return out;
}

const asServed = (r: { method: string; path: string }) => `${r.method} ${r.path.replace(/\{(\w+)\}/g, ':$1')}`;

describe('the operation table', () => {
  const svc = testService();
  afterAll(() => svc.close());

  test('has every /v1/inbox route the app serves, each with a subscriber session or the session itself', () => {
    const inbox = Object.values(inboxRoutes);
    expect(inbox.length).toBeGreaterThan(20);
    for (const r of inbox) {
      expect(r.path.startsWith('/v1/inbox/'), r.name).toBe(true);
      expect(r.auth, r.name).toBe(r.name === 'inboxSession' ? 'session' : 'subscriber');
    }
    expect(Object.values(routes).filter((r) => 'auth' in r)).toEqual([]);
  });

  test('is every API route the app registers, and the app registers each of its rows', async () => {
    await svc.app.ready();
    const served = servedRoutes(svc.app.printRoutes({ commonPrefix: false }));
    expect(served).toContain('GET /v1/integrations/active');
    const api = served.filter((r) => / \/v[12]\//.test(r));
    // The Inbox's CORS preflight answers any path under /v1/inbox/: a rule of the door, not a route.
    const table = [...Object.values(routes), ...Object.values(inboxRoutes)].map(asServed);
    // Routes whose paths share a prefix up to a parameter named differently are printed with the names
    // together (`:environmentId|:targetEnvironmentId`): each route has its own name there.
    const readings = (r: string) => {
      const m = /:(\w+(?:\|:\w+)+)/.exec(r);
      return m ? m[1]!.split('|:').map((name) => r.replace(m[0], `:${name}`)) : [r];
    };
    expect(api.filter((r) => r !== 'OPTIONS /v1/inbox/*' && !readings(r).some((x) => table.includes(x)))).toEqual([]);
    const servedReadings = api.flatMap(readings);
    expect(table.filter((r) => !servedReadings.includes(r))).toEqual([]);
    expect(api.filter((r) => r.startsWith('GET /v1/inbox/') || r.startsWith('POST /v1/inbox/')).length).toBeGreaterThan(5);
  });

  test('the Inbox registers no route of its own', () => {
    const dir = fileURLToPath(new URL('../../../src/server/inbox/', import.meta.url));
    for (const file of readdirSync(dir).filter((f) => f.endsWith('.ts'))) {
      const text = readFileSync(`${dir}${file}`, 'utf8');
      expect(/^import (?!type )[^;]*from 'fastify'/m.test(text), `${file} imports fastify`).toBe(false);
      expect(/\.(route|get|post|patch|delete|options|all)\(\s*['"`]\//.test(text), `${file} registers a route`).toBe(false);
    }
  });
});
