// The demo data a new store starts with is written as the seed schema gives it back (defaults written
// out), so that svc dev's start checks nothing: it must stay exactly what the schema makes of it.
import { expect, test } from 'vitest';
import { demoSeed } from '../../src/server/seed/demo.js';
import { parseSeed } from '../../src/server/seed/schema.js';

test('the demo data is what the seed schema makes of it', () => {
  const demo = demoSeed();
  expect(parseSeed(demo, 'demo data')).toEqual(demo);
  expect(demo.integrations.length).toBeGreaterThan(3);
});
