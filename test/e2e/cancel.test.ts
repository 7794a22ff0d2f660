// Cancel through the service's official SDK (@novu/api) against the built `svc dev`: `novu.cancel()`
// parses the answer with its own schema (a boolean, once its hook has removed the `{data}` envelope),
// the timeline shows the canceled steps, and `svc api DELETE ...` reaches the same operation.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Novu } from '@novu/api';
import { svcBin } from '../helpers/bin.js';
import { startDev, type DevProcess } from '../helpers/dev.js';

let dev: DevProcess;
let novu: Novu;
beforeAll(async () => {
  dev = await startDev({ args: ['--quiet', '--no-save-profile'] });
  novu = new Novu({ serverURL: dev.baseUrl, secretKey: dev.apiKey, retryConfig: { strategy: 'none' } });
});
afterAll(async () => {
  await dev?.stop();
});

async function svc(args: string[]) {
  const r = await svcBin(args, { env: { SVC_BASE_URL: dev.baseUrl, SVC_API_KEY: dev.apiKey } });
  return { code: r.exitCode, stdout: String(r.stdout), stderr: String(r.stderr) };
}

describe('cancel a triggered event', () => {
  it('novu.cancel(transactionId) cancels a digest still collecting; the timeline shows it canceled', async () => {
    // The demo's comment digest collects for ten minutes: its first step is still delayed.
    const t = await novu.trigger({ workflowId: 'comment-digest', to: 'ada', payload: { postId: 'p-cancel', comment: 'first' } });
    const transactionId = t.result.transactionId!;
    expect(transactionId).toBeTruthy();
    expect(await novu.cancel(transactionId)).toMatchObject({ result: true });

    const timeline = await svc(['events', 'get', transactionId, '-o', 'table']);
    expect(timeline.code, timeline.stderr).toBe(0);
    expect(timeline.stdout).toContain('canceled');
    expect(timeline.stdout).toContain('Step canceled: the event was canceled through the API');

    // Nothing left to cancel, and an unknown transaction: false, as the service answers (not 404).
    expect((await novu.cancel(transactionId)).result).toBe(false);
    expect((await novu.cancel('no-such-transaction')).result).toBe(false);
  });

  it('svc api DELETE /v1/events/trigger/ID answers the boolean (the envelope removed, as for every operation)', async () => {
    const t = await novu.trigger({ workflowId: 'comment-digest', to: 'grace', payload: { postId: 'p-api', comment: 'x' } });
    const r = await svc(['api', 'DELETE', `/v1/events/trigger/${t.result.transactionId}`, '-o', 'json']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toBe(true);
    const again = await svc(['api', 'DELETE', `/v1/events/trigger/${t.result.transactionId}`, '-o', 'json']);
    expect(JSON.parse(again.stdout)).toBe(false);
  });
});
