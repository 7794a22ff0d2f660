// The app side of bench/bridge-throughput.mjs: the same two steps as the workflow defined in svc dev
// (in-app with subject, body and a primary action; email with subject and body), written with
// @novu/framework and served on 127.0.0.1 by node:http and the framework's generic handler, signatures
// checked (NOVU_SECRET_KEY). Prints its URL on stdout.
import http from 'node:http';
import { Client, NovuRequestHandler, workflow } from '@novu/framework';

const twoStep = workflow(
  'bench-bridge',
  async ({ step, payload, subscriber }) => {
    await step.inApp('inbox', async () => ({
      subject: `Hi ${subscriber.firstName}`,
      body: `${payload.actor} commented on ${payload.post.title}: ${payload.comment.slice(0, 77)}...`,
      primaryAction: { label: 'Open', redirect: { url: `/posts/${payload.post.id}` } },
    }));
    await step.email('mail', async () => ({
      subject: `${payload.actor} commented on ${payload.post.title}`,
      body: `<p>Hello ${subscriber.firstName},</p><p>${payload.comment}</p><p><a href="https://example.com/posts/${payload.post.id}">Open the post</a></p>`,
    }));
  },
  {
    payloadSchema: {
      type: 'object',
      properties: {
        actor: { type: 'string' },
        comment: { type: 'string' },
        post: { type: 'object', properties: { id: { type: 'number' }, title: { type: 'string' } }, required: ['id', 'title'] },
      },
      required: ['actor', 'comment', 'post'],
    },
  },
);

const client = new Client({ secretKey: process.env.NOVU_SECRET_KEY, strictAuthentication: true });
const handle = new NovuRequestHandler({
  frameworkName: 'node-http',
  workflows: [twoStep],
  client,
  handler: (req, res) => ({
    body: () => req.body,
    headers: (key) => req.headers[key.toLowerCase()],
    method: () => req.method,
    url: () => new URL(req.url, 'http://localhost'),
    transformResponse: ({ status, headers, body }) => res.writeHead(status, headers).end(body),
  }),
}).createHandler();

const server = http.createServer(async (req, res) => {
  let text = '';
  for await (const chunk of req) text += chunk;
  req.body = text ? JSON.parse(text) : undefined;
  await handle(req, res);
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${server.address().port}/api/novu` })}\n`));
