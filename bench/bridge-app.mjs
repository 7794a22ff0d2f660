// The app side of bench/bridge-throughput.mjs: the same two steps as the workflow defined in svc dev
// (in-app with subject, body and a primary action; email with subject and body), written with
// @novu/framework and served on 127.0.0.1 by node:http and the framework's generic handler, as
// examples/bridge/app.mjs does. Run as a program it listens and sends its URL (and, when asked, how many
// connections it accepted) to its parent over IPC; imported, it gives the handler for in-process use.
//
// BRIDGE_APP_MODE picks the framework's settings:
// - `strict`: as with NODE_ENV=production: signatures checked (NOVU_SECRET_KEY), no per-step log.
// - `dev`: the framework's defaults when NODE_ENV is unset (what examples/bridge/app.mjs runs with):
//   signatures not checked, and the framework logs every step it executes (to stdout).
import http from 'node:http';
import { Client, NovuRequestHandler, workflow } from '@novu/framework';

export const twoStep = workflow(
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

/**
 * The framework's handler for the mode. `io(req, res)` is what the generic handler reads a request
 * from and answers through: node:http's request and response here, plain objects in-process.
 */
export function bridgeHandler(mode, secretKey, io) {
  const strict = mode === 'strict';
  const client = new Client({ secretKey, strictAuthentication: strict, verbose: !strict });
  return new NovuRequestHandler({ frameworkName: 'node-http', workflows: [twoStep], client, handler: io }).createHandler();
}

const nodeHttp = (req, res) => ({
  body: () => req.body,
  headers: (key) => req.headers[key.toLowerCase()],
  method: () => req.method,
  url: () => new URL(req.url, 'http://localhost'),
  transformResponse: ({ status, headers, body }) => res.writeHead(status, headers).end(body),
});

if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) {
  const handle = bridgeHandler(process.env.BRIDGE_APP_MODE ?? 'strict', process.env.NOVU_SECRET_KEY, nodeHttp);
  let connections = 0;
  const server = http.createServer(async (req, res) => {
    let text = '';
    for await (const chunk of req) text += chunk;
    req.body = text ? JSON.parse(text) : undefined;
    await handle(req, res);
  });
  server.on('connection', () => connections++);
  server.keepAliveTimeout = 60_000;
  process.on('message', (m) => m === 'connections' && process.send({ connections }));
  server.listen(0, '127.0.0.1', () => {
    const url = `http://127.0.0.1:${server.address().port}/api/novu`;
    if (process.send) process.send({ url });
    else console.log(url);
  });
}
