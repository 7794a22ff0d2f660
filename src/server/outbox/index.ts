// The captured outbox's own routes beside the API: the Mailpit-compatible read API at /mailpit, and
// the end of every message wait when the service stops (a held request would otherwise keep the
// app from closing until its hold ran out).
import type { FastifyInstance } from 'fastify';
import type { Service } from '../handlers/types.js';
import { registerMailpit } from '../mailpit/index.js';
import { closeMessageWaits } from './waiters.js';

export function registerOutbox(app: FastifyInstance, svc: Service): void {
  registerMailpit(app, svc);
  app.addHook('preClose', async () => closeMessageWaits(svc));
}
