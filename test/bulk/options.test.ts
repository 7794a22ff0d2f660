// A bulk run never changes the options it is given (whether to send again is part of its plan, not
// written back into them): the types say so, and tsc (npm run build) checks this file.
import { expect, test } from 'vitest';
import type { runBulk } from '../../src/bulk/run.js';

type Options = Parameters<typeof runBulk>[1];

test('the options of a run are read-only to it', () => {
  const opts: Options = { workflow: 'welcome', file: 'users.csv', common: {}, chunkSize: 100 };
  const change = (o: Options) => {
    // @ts-expect-error a run reads its options and never writes them
    o.again = true;
  };
  expect(typeof change).toBe('function');
  expect(Object.isFrozen(opts)).toBe(false);
});
