// The runner under a steady stream of triggers: it delivers while they keep coming, not only once
// the stream pauses, and never takes a job whose trigger's group-commit batch is still open.
import { describe, expect, it } from 'vitest';
import { txKey } from '../../src/server/store/repo.js';
import { trigger } from '../../src/server/trigger.js';
import { testService } from '../helpers/service.js';

describe('runner under load', () => {
  it('jobs of committed triggers are delivered while new batches keep opening, never from an open batch', async () => {
    const svc = testService();
    const env = svc.environment;
    const deps = { store: svc.store, now: () => svc.clock.now(), kick: () => svc.runner.kick() };
    const openJobs = () => svc.store.db.prepare("SELECT count(*) AS n FROM jobs WHERE status IN ('queued', 'pending', 'running')").get() as { n: number };
    const firstIds: string[] = [];
    let deliveredDuringLoad = false;
    // The runner loads the engine with the first job due: one trigger run to its end first, so that the
    // stream below measures the runner at work, not that load.
    await svc.store.grouped(() => trigger(deps, env, { name: 'otp', to: 'ada', payload: { code: '0' } }, 'http://x', true)).committed;
    await svc.runner.idle();
    // Each round: 5 triggers in one batch, then the next round as soon as they are committed (as
    // HTTP clients with their replies do): the event loop never has a turn without an open batch.
    for (let round = 0; round < 30; round++) {
      const waits: Promise<void>[] = [];
      for (let i = 0; i < 5; i++) {
        const { value, committed } = svc.store.grouped(() => trigger(deps, env, { name: 'otp', to: 'ada', payload: { code: '1' } }, 'http://x', true));
        if (round === 0 && value.status === 'processed') firstIds.push(value.transactionId!);
        // No job of this still-open batch has been run.
        const tx = value.transactionId!;
        // (The store keeps a UUID transactionId as its 16 bytes: txKey.)
        const ran = svc.store.db
          .prepare(
            "SELECT count(*) AS n, sum(j.status != 'queued') AS ran FROM jobs j JOIN notifications n ON n.id = j.notification_id WHERE n.transaction_id = ?",
          )
          .get(txKey(tx)) as { n: number; ran: number };
        expect(ran).toEqual({ n: 1, ran: 0 });
        waits.push(committed);
      }
      await Promise.all(waits);
      const done = svc.store.db
        .prepare(
          "SELECT count(*) AS n FROM jobs j JOIN notifications n ON n.id = j.notification_id WHERE n.transaction_id = ? AND j.status NOT IN ('queued', 'pending', 'running')",
        )
        .get(txKey(firstIds[0]!)) as { n: number };
      if (round > 0 && done.n > 0) deliveredDuringLoad = true;
    }
    expect(firstIds).toHaveLength(5);
    expect(deliveredDuringLoad).toBe(true);
    await svc.runner.idle();
    expect(openJobs().n).toBe(0);
    await svc.close();
  });
});
