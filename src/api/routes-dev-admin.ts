// svc dev's admin routes (GET /v1/svc-dev names them: `clock`, `reset`, `snapshot`), in the table of
// routes.ts: service time, starting the store over, the store as one file. The hosted service has none.
import { type Route, route } from './route.js';

export const devAdminRoutes = {
  getClock: route({ name: 'getClock', method: 'GET', path: '/v1/svc-dev/clock', summary: 'Service time (svc dev only)', status: 200, category: 'global' }),
  advanceClock: route({
    name: 'advanceClock',
    method: 'POST',
    path: '/v1/svc-dev/clock/advance',
    summary: 'Move service time forward, running what comes due (svc dev only)',
    status: 200,
    category: 'global',
  }),
  resetStore: route({
    name: 'resetStore',
    method: 'POST',
    path: '/v1/svc-dev/reset',
    summary: 'Put the whole store back to its start state (svc dev only)',
    status: 200,
    category: 'global',
  }),
  saveSnapshot: route({
    name: 'saveSnapshot',
    method: 'GET',
    path: '/v1/svc-dev/snapshot',
    summary: 'The whole store as one SQLite file (svc dev only)',
    status: 200,
    category: 'global',
  }),
  loadSnapshot: route({
    name: 'loadSnapshot',
    method: 'POST',
    path: '/v1/svc-dev/snapshot/load',
    summary: 'Replace the whole store with a snapshot (svc dev only)',
    status: 200,
    category: 'global',
  }),
} as const satisfies Record<string, Route>;
