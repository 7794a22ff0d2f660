// A team's app serving its code-first workflows at /api/novu: @novu/framework's generic handler on node:http.
import http from 'node:http';
import { NovuRequestHandler, workflow } from '@novu/framework';

export const welcome = workflow('welcome-code', async ({ step, payload }) => {
  const note = await step.inApp('hello', async () => ({ subject: 'Hello', body: `Hi ${payload.name}` }));
  await step.delay('pause', async () => ({ type: 'regular', amount: 1, unit: 'seconds' }));
  await step.email('mail', async () => ({ subject: 'Welcome aboard', body: `<p>Welcome, ${payload.name}. Read the note: ${note.read}</p>` }));
}, { payloadSchema: { type: 'object', properties: { name: { type: 'string', default: 'there' } }, additionalProperties: false } });

const handle = new NovuRequestHandler({ frameworkName: 'node-http', workflows: [welcome], handler: (req, res) => ({
  body: () => req.body, headers: (key) => req.headers[key.toLowerCase()], method: () => req.method,
  url: () => new URL(req.url, 'http://localhost'),
  transformResponse: ({ status, headers, body }) => res.writeHead(status, headers).end(body),
}) }).createHandler();

const server = http.createServer(async (req, res) => {
  let text = '';
  for await (const chunk of req) text += chunk;
  req.body = text ? JSON.parse(text) : undefined;
  await handle(req, res);
});
server.listen(Number(process.env.PORT ?? 4000), '127.0.0.1', () => console.log(`bridge http://127.0.0.1:${server.address().port}/api/novu`));
