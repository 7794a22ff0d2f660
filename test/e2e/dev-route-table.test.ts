// svc dev's route table is built without compiling code from strings: the router it bundles
// (find-my-way) would compile a function with `new Function` for every static path segment and two for
// every route, 824 per start that no compile cache keeps (scripts/build.mjs gives it closures of
// the same meaning). Counted in the built binary with a preload that wraps the Function constructor;
// the routes still answer, with their path parameters.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, expect, test } from 'vitest';
import { type DevProcess, startDev } from '../helpers/dev.js';

const COUNTER = fileURLToPath(new URL('../helpers/count-eval.cjs', import.meta.url));
let dev: DevProcess | undefined;
afterEach(async () => {
  await dev?.stop();
  dev = undefined;
});

test('svc dev starts and answers its first requests with a handful of functions compiled from strings, not one per route', async () => {
  const file = join(mkdtempSync(join(tmpdir(), 'svc-route-table-')), 'count');
  dev = await startDev({ args: ['--no-save-profile'], env: { NODE_OPTIONS: `--require ${COUNTER}`, SVC_COUNT_EVAL: file } });
  const headers = { authorization: `ApiKey ${dev!.apiKey}` };
  const get = (path: string) => fetch(`${dev!.baseUrl}${path}`, { headers });
  expect((await get('/v1/integrations/active')).status).toBe(200);
  const ada = await get('/v2/subscribers/ada');
  expect(ada.status).toBe(200);
  expect(((await ada.json()) as { data: { subscriberId: string } }).data.subscriberId).toBe('ada');
  // Two parameters: each value under its own name (the parameters object is filled by position).
  const created = await fetch(`${dev!.baseUrl}/v2/contexts`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify({ type: 'team', id: 'route-table' }),
  });
  expect(created.status).toBe(201);
  const context = await get('/v2/contexts/team/route-table');
  expect(context.status).toBe(200);
  expect(((await context.json()) as { data: { type: string; id: string } }).data).toMatchObject({ type: 'team', id: 'route-table' });
  expect((await get('/v2/contexts/route-table/team')).status).toBe(404);
  expect((await get('/v1/no-such-route')).status).toBe(404);
  const compiled = Number(readFileSync(file, 'utf8'));
  // The router's lookup, compiled once at the first request, and a few of fastify's: 824 with the
  // router as published.
  expect(compiled).toBeLessThan(50);
});
