import { loadServer } from './lib/server-bundle.mjs';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
const { createLocalService } = await loadServer(undefined, []);
const dir = mkdtempSync(join(tmpdir(), 'svc-micro-'));
for (const variant of ['svc', 'svc-fk-off', 'svc-no-runner']) {
const svc = createLocalService({ data: join(dir, variant + '.sqlite'), apiKey: 'sk_micro_0123456789abcdef' });
await svc.runner.stop();
if (variant === 'svc-fk-off') svc.store.db.pragma('foreign_keys = OFF');
const env = svc.environment;
const store = svc.store;
const wf = store.workflows.findByTrigger(env.id, 'otp');
const N = 30000;
let tn = 0n, tj = 0n;
const c0 = process.cpuUsage();
for (let i = 0; i < N; i += 10) {
  store.db.exec('BEGIN');
  for (let k = 0; k < 10; k++) store.tx(() => {
    const s = process.hrtime.bigint();
    const n = store.activity.createNotification({ envId: env.id, orgId: env.orgId, transactionId: 'tx-' + i + '-' + k, workflowId: wf._id, subscriberId: 'sub', channels: ['sms'], severity: 'high', doc: { payload: { code: '1' }, overrides: {}, tags: [], to: { subscriberId: 'ada' }, topics: [], critical: true, contextKeys: [] } });
    const m = process.hrtime.bigint();
    store.jobs.createJob({ envId: env.id, orgId: env.orgId, notificationId: n.id, subscriberId: 'sub', workflowId: wf._id, stepIndex: 0, type: 'sms', status: 'queued', runAt: Date.now(), providerId: 'svc', state: {}, step: wf.steps[0] }, { status: 'Pending', detail: 'Step queued', source: 'Internal' });
    const e = process.hrtime.bigint();
    tn += m - s; tj += e - m;
  });
  store.db.exec('COMMIT');
}
const u = process.cpuUsage(c0);
console.log(variant, 'cpu', ((u.user + u.system) / N).toFixed(1), 'µs/pair; notification', (Number(tn) / 1000 / N).toFixed(1), 'job', (Number(tj) / 1000 / N).toFixed(1));
await svc.close();
}
