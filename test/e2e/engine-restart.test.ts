// A restart in the middle of a delay: `svc dev` (file store, --time-scale 600) is killed with -9
// while the delay runs, started again on the same file, and the step after the delay is delivered
// exactly once.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { svcBin } from '../helpers/bin.js';
import { api, startDev, type DevProcess } from '../helpers/dev.js';

const args = ['--time-scale', '600', '--no-save-profile', '--quiet'];

async function svc(dev: DevProcess, cli: string[]) {
  const r = await svcBin([...cli, '-o', 'json'], { env: { SVC_BASE_URL: dev.baseUrl, SVC_API_KEY: dev.apiKey } });
  expect(r.exitCode, String(r.stderr)).toBe(0);
  return JSON.parse(String(r.stdout));
}

describe('svc dev restarted in the middle of a delay', () => {
  it('resumes the delay from the store and delivers once', { timeout: 60_000 }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-e2e-restart-'));
    const dataFile = join(dir, 'dev.sqlite');
    const apiKey = 'sk_e2e_restart_delay_key';
    const workflow = join(dir, 'wf.json');
    // 60 minutes of service time: 6 s of real time at --time-scale 600, long enough that the check before
    // the kill cannot come after the delay on a loaded machine.
    writeFileSync(
      workflow,
      JSON.stringify({
        name: 'Later',
        workflowId: 'later',
        active: true,
        steps: [
          { name: 'Wait', type: 'delay', controlValues: { amount: 60, unit: 'minutes' } },
          { name: 'Note', type: 'in_app', controlValues: { body: 'after the delay, {{ subscriber.firstName }}' } },
        ],
      }),
    );

    const first = await startDev({ dataFile, apiKey, args });
    try {
      await svc(first, ['workflow', 'create', '--data', `@${workflow}`]);
      // The trigger and the check go straight to the API: no CLI start-up inside the delay's window.
      const sent = await api(first, 'POST', '/v1/events/trigger', { name: 'later', to: 'ada', transactionId: 'restart-1' });
      expect(sent.status).toBe(201);
      await expect
        .poll(async () => (await api(first, 'GET', '/v1/notifications?transactionId=restart-1')).body.data[0]?.jobs.map((j: any) => j.status))
        .toEqual(['delayed', 'pending']);
    } finally {
      await first.kill9();
    }

    const second = await startDev({ dataFile, apiKey, args });
    try {
      const deadline = Date.now() + 20_000;
      let jobs: any[] = [];
      while (Date.now() < deadline) {
        jobs = (await svc(second, ['events', 'list', '--transaction-id', 'restart-1']))[0].jobs;
        if (jobs.every((j) => j.status === 'completed')) break;
        await new Promise((r) => setTimeout(r, 250));
      }
      expect(jobs.map((j) => j.status)).toEqual(['completed', 'completed']);
      const delayDetails = jobs[0].executionDetails.map((d: any) => d.detail);
      expect(delayDetails.filter((d: string) => d.startsWith('Step delayed until'))).toHaveLength(1);
      expect(delayDetails.filter((d: string) => d.startsWith('Delay finished'))).toHaveLength(1);
      // Nothing runs twice: a job the restart left to run again would be due before a trigger sent now,
      // which the runner takes oldest first; so once that trigger is delivered, restart-1 has one message.
      const now = { workflowId: 'now', name: 'Now', active: true, steps: [{ name: 'Note', type: 'in_app', controlValues: { body: 'now' } }] };
      expect((await api(second, 'POST', '/v2/workflows', now)).status).toBe(201);
      expect((await api(second, 'POST', '/v1/events/trigger', { name: 'now', to: 'ada', transactionId: 'restart-2' })).status).toBe(201);
      await expect
        .poll(async () => (await api(second, 'GET', '/v1/notifications?transactionId=restart-2')).body.data[0]?.jobs.map((j: any) => j.status))
        .toEqual(['completed']);
      const messages = await svc(second, ['messages', 'list', '--transaction-id', 'restart-1']);
      expect(messages.map((m: any) => m.content)).toEqual(['after the delay, Ada']);
    } finally {
      await second.stop();
    }
  });
});
