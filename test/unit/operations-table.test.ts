// The README's table of operations is what scripts/operations-table.mjs prints from openapi.json and
// the operation table: every operation of the spec listed once, and "yes" exactly where svc dev has a
// route of its own.
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
// @ts-expect-error: a script of the repository, plain JavaScript
import { END, operations, START, table } from '../../scripts/operations-table.mjs';

it('lists all the spec’s operations, as the operation table serves them, and the README shows that table', () => {
  const rows = operations() as { key: string; served: boolean }[];
  expect(rows).toHaveLength(135);
  expect(new Set(rows.map((r) => r.key)).size).toBe(135);
  expect(rows.find((r) => r.key === 'POST /v1/events/trigger')?.served).toBe(true);
  const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
  const shown = readme.slice(readme.indexOf(START) + START.length, readme.indexOf(END)).trim();
  expect(shown, 'run: node scripts/operations-table.mjs --write').toBe(table());
});
