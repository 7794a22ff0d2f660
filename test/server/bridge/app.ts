// A team's app as the framework serves it: real `@novu/framework` workflows behind node:http and the
// framework's generic request handler, on 127.0.0.1 and a free port. Every request it receives is
// recorded (action, workflow, step, signature headers, body) so tests can check what svc dev sent.
import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client, NovuRequestHandler } from '@novu/framework';

export interface Received {
  method: string;
  action: string;
  workflowId: string | null;
  stepId: string | null;
  signature: string | undefined;
  xSignature: string | undefined;
  body: any;
  /** What the framework answered. */
  status: number;
  answer: any;
}

export interface BridgeApp {
  url: string;
  received: Received[];
  /** Serves these workflows from now on, on the same socket (an app whose code changed, never down). */
  serve(workflows: Workflow[]): void;
  close(): Promise<void>;
}

/** A workflow of any payload type: what `workflow()` returns. */
type Workflow = { id: string };

export async function startBridgeApp(workflows: Workflow[], secretKey: string, path = '/api/novu', port = 0): Promise<BridgeApp> {
  const received: Received[] = [];
  // A client per set of workflows: a client keeps the workflows it was given.
  const handlerFor = (workflows: Workflow[]) =>
    new NovuRequestHandler({
      frameworkName: 'node-http',
      workflows: workflows as never,
      client: new Client({ secretKey, strictAuthentication: true }),
      handler: (req: http.IncomingMessage & { body?: unknown }, res: http.ServerResponse) => ({
        body: () => req.body,
        headers: (key: string) => {
          const v = req.headers[key.toLowerCase()];
          return Array.isArray(v) ? v[0] : v;
        },
        method: () => req.method ?? 'GET',
        url: () => new URL(req.url ?? '/', 'http://127.0.0.1'),
        transformResponse: ({ status, headers, body }) => {
          const url = new URL(req.url ?? '/', 'http://127.0.0.1');
          received.push({
            method: req.method ?? '',
            action: url.searchParams.get('action') ?? '',
            workflowId: url.searchParams.get('workflowId'),
            stepId: url.searchParams.get('stepId'),
            signature: req.headers['novu-signature'] as string | undefined,
            xSignature: req.headers['x-novu-signature'] as string | undefined,
            body: req.body,
            status,
            answer: JSON.parse(body),
          });
          res.writeHead(status, headers);
          res.end(body);
        },
      }),
    }).createHandler();
  let handle = handlerFor(workflows);
  const server = http.createServer(async (req, res) => {
    if (!req.url?.startsWith(path)) {
      res.writeHead(404, { 'content-type': 'text/html' });
      return res.end('<!doctype html><title>Not found</title>');
    }
    let text = '';
    for await (const chunk of req) text += chunk;
    (req as { body?: unknown }).body = text ? JSON.parse(text) : undefined;
    await handle(req, res);
  });
  await new Promise<void>((r) => server.listen(port, '127.0.0.1', r));
  const bound = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${bound}${path}`,
    received,
    serve: (next) => {
      handle = handlerFor(next);
    },
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/** Whether `header` signs `body` with `secret` as the framework checks it. */
export function validSignature(header: string | undefined, body: unknown, secret: string): boolean {
  const m = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(header ?? '');
  if (!m) return false;
  return (
    createHmac('sha256', secret)
      .update(`${m[1]}.${JSON.stringify(body)}`)
      .digest('hex') === m[2]
  );
}
