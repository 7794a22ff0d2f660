import { createHmac } from 'node:crypto';
import { Client, NovuRequestHandler, workflow } from '@novu/framework';
const KEY='sk_x';
const twoStep = workflow('bench-bridge', async ({ step, payload, subscriber }) => {
    await step.inApp('inbox', async () => ({ subject: `Hi ${subscriber.firstName}`, body: `${payload.actor} commented on ${payload.post.title}: ${payload.comment.slice(0, 77)}...`, primaryAction: { label: 'Open', redirect: { url: `/posts/${payload.post.id}` } } }));
    await step.email('mail', async () => ({ subject: `${payload.actor} commented on ${payload.post.title}`, body: `<p>Hello ${subscriber.firstName},</p><p>${payload.comment}</p><p><a href="https://example.com/posts/${payload.post.id}">Open the post</a></p>` }));
  }, { payloadSchema: { type: 'object', properties: { actor: { type: 'string' }, comment: { type: 'string' }, post: { type: 'object', properties: { id: { type: 'number' }, title: { type: 'string' } }, required: ['id', 'title'] } }, required: ['actor', 'comment', 'post'] } });
const verbose = process.env.VERBOSE === '1';
const client = new Client({ secretKey: KEY, strictAuthentication: process.env.NOHMAC !== '1', verbose, logger: verbose ? console : undefined });
let out;
const handle = new NovuRequestHandler({ frameworkName: 'node-http', workflows: [twoStep], client, handler: (req) => ({
  body: () => req.body, headers: (k) => req.headers[k], method: () => req.method, url: () => new URL(req.url, 'http://localhost'),
  transformResponse: (r) => { out = r; } }) }).createHandler();
const payload = { actor: 'Ada', comment: 'Looks great, ship it! '.repeat(3), post: { id: 7, title: 'Release notes' } };
function req(stepId, state, i) {
  const body = { payload, controls: {}, subscriber: { subscriberId: `u-${i}`, firstName: `User ${i}`, email: `u${i}@example.com` }, state };
  const t = Date.now();
  const sig = `t=${t},v1=${createHmac('sha256', KEY).update(`${t}.${JSON.stringify(body)}`).digest('hex')}`;
  return { method: 'POST', url: `/api/novu?action=execute&workflowId=bench-bridge&stepId=${stepId}`, headers: { 'novu-signature': sig }, body };
}
const N = Number(process.env.N ?? 3000);
async function round(n) {
  const t0 = process.cpuUsage();
  for (let i = 0; i < n; i++) {
    await handle(req('inbox', [{ stepId: 'trigger', outputs: payload, state: { status: 'completed' } }], i));
    if (out.status !== 200) throw new Error(out.body);
    await handle(req('mail', [{ stepId: 'trigger', outputs: payload, state: { status: 'completed' } }, { stepId: 'inbox', outputs: { seen: false, read: false, lastSeenDate: null, lastReadDate: null }, state: { status: 'completed' } }], i));
    if (out.status !== 200) throw new Error(out.body);
  }
  const u = process.cpuUsage(t0);
  return (u.user + u.system) / n;
}
await round(500);
for (let r = 0; r < 3; r++) console.error(`µs per notification (2 steps): ${(await round(N)).toFixed(0)}`);
