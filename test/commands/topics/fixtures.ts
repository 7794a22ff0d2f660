// Topics and topic subscriptions as GET /v2/topics and GET /v2/topics/{key}/subscriptions answer them.
import type { Recorded } from '../../helpers/stub.js';

const AT = '2026-11-22T10:00:00.000Z';

export const topic = (i: number) => ({ _id: `6761f0c2a3b4c5d6e7f8a00${i}`, key: `topic-${i}`, name: `Topic ${i}`, createdAt: AT, updatedAt: AT });

export const subscription = (i: number) => ({
  _id: `6761f0c2a3b4c5d6e7f8b00${i}`,
  identifier: `tk=ops:si=user-${i}`,
  topic: { _id: '6761f0c2a3b4c5d6e7f8a001', key: 'ops', name: 'Ops' },
  subscriber: { _id: `6761f0c2a3b4c5d6e7f8c00${i}`, subscriberId: `user-${i}`, firstName: 'User', lastName: `N${i}`, email: `user${i}@example.com` },
  createdAt: AT,
  updatedAt: AT,
});

/** Three records over two pages: the first answers `next: c2`, the page after c2 ends the list. */
export function twoPages<T>(make: (i: number) => T) {
  return (req: Recorded) =>
    req.query.get('after') === 'c2'
      ? { body: { data: [make(3)], next: null, previous: 'c2', totalCount: 3, totalCountCapped: false } }
      : { body: { data: [make(1), make(2)], next: 'c2', previous: null, totalCount: 3, totalCountCapped: false } };
}
