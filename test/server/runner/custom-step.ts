// A local service with one workflow `w` of one step of type `custom`, run by the handler a test gives,
// and the readings those runner tests share.
import { defaultRegistry, type StepHandler } from '../../../src/server/runner/index.js';
import { trigger } from '../../../src/server/trigger.js';
import { type TestService, testService } from '../../helpers/service.js';

export async function customStepService(handler: StepHandler, errors?: unknown[]): Promise<TestService> {
  const svc = testService({
    registry: defaultRegistry().register('custom', handler),
    onInternalError: (e: unknown) => errors?.push(e),
  });
  await svc.request('POST', '/v2/workflows', {
    body: { name: 'W', workflowId: 'w', active: true, steps: [{ name: 'C', type: 'custom', controlValues: {} }] },
  });
  return svc;
}

/** Triggers `w` once per name (payload `{name}`) in one group-commit batch, so the runner takes them in one batch. */
export async function triggerTogether(svc: TestService, names: string[]): Promise<void> {
  const deps = { store: svc.store, now: () => svc.clock.now(), kick: () => svc.runner.kick() };
  const { committed } = svc.store.grouped(() =>
    names.map((name) => trigger(deps, svc.environment, { name: 'w', to: 'ada', payload: { name } }, 'http://x', true)),
  );
  await committed;
}

export interface JobView {
  status: string;
  providerId?: string;
  executionDetails: { detail: string }[];
}

/** The events of `w` by the name in their payload: each with its id and its one job. */
export async function eventsByName(svc: TestService): Promise<Record<string, { _id: string; job: JobView }>> {
  const events = (await svc.request('GET', '/v1/notifications?limit=50')).body.data as { _id: string; payload: { name: string }; jobs: JobView[] }[];
  return Object.fromEntries(events.map((e) => [e.payload.name, { _id: e._id, job: e.jobs[0]! }]));
}

/** The step handler's name of the event it runs for (its payload's `name`). */
export const nameOf = (ctx: Parameters<StepHandler['run']>[0]): string => (ctx.notification.doc.payload as { name: string }).name;
