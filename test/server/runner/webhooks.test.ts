// Real webhook delivery: the webhook providers and the http_request step POST to a receiver in the
// test, signed; failures, retries, the loopback rule, outputs and continueOnFailure.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SIGNATURE_HEADER } from '../../../src/server/runner/webhook.js';
import { verifySignature } from '../../helpers/signature.js';
import { parseSeed } from '../../../src/server/seed/load.js';
import { TEST_KEY, testService, type TestService } from '../../helpers/service.js';
import { createWorkflow, details, event, messages, statuses, trigger } from './helpers.js';

interface Received {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  raw: string;
}

let server: Server;
let base: string;
const received: Received[] = [];
/** What the receiver answers next (status and body), one per request; 200 `{"ok":true}` when empty. */
const answers: { status: number; body: string }[] = [];

let svc: TestService;
beforeAll(async () => {
  server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString()));
    req.on('end', () => {
      received.push({ method: req.method!, url: req.url!, headers: req.headers, raw });
      const a = answers.shift() ?? { status: 200, body: '{"ok":true,"greeting":"hello from the receiver"}' };
      res.writeHead(a.status, { 'content-type': 'application/json' }).end(a.body);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  svc = testService({
    empty: true,
    seed: parseSeed(
      {
        integrations: [
          { identifier: 'hooks-chat', providerId: 'chat-webhook', channel: 'chat', credentials: { secretKey: 'whsec_chat' } },
          { identifier: 'hooks-mail', providerId: 'email-webhook', channel: 'email', primary: true, credentials: { webhookUrl: `${base}/mail/secret-path` } },
          { identifier: 'hooks-push', providerId: 'push-webhook', channel: 'push', credentials: { webhookUrl: `${base}/push`, secretKey: 'whsec_push' } },
        ],
        subscribers: [
          {
            subscriberId: 'kim',
            firstName: 'Kim',
            email: 'kim@example.com',
            channels: [
              { providerId: 'chat-webhook', credentials: { webhookUrl: `${base}/chat/kim` } },
              { providerId: 'push-webhook', credentials: { deviceTokens: ['tok-1', 'tok-2'] } },
            ],
          },
        ],
      },
      'test',
    ),
  });
});
afterAll(async () => {
  await svc?.close();
  await new Promise((r) => server.close(r));
});
beforeEach(() => {
  received.length = 0;
  answers.length = 0;
});

const json = (r: Received) => JSON.parse(r.raw);

describe('webhook providers', () => {
  it("chat-webhook POSTs the rendered message to the subscriber's URL, signed with the integration's secretKey", async () => {
    await createWorkflow(svc, 'chat', [{ stepId: 'chat', name: 'Chat', type: 'chat', controlValues: { body: '{{ payload.service }} is down' } }]);
    const tx = await trigger(svc, 'chat', 'kim', { service: 'api' });
    expect(received).toHaveLength(1);
    const [r] = received;
    expect(r!.url).toBe('/chat/kim');
    expect(json(r!)).toMatchObject({
      channel: 'chat',
      content: 'api is down',
      transactionId: tx,
      workflowId: 'chat',
      stepId: 'chat',
      subscriber: { subscriberId: 'kim' },
      payload: { service: 'api' },
    });
    expect(verifySignature('whsec_chat', r!.headers[SIGNATURE_HEADER] as string, r!.raw, { now: Date.now() })).toMatchObject({ ok: true });
    const n = await event(svc, tx);
    expect(details(n.jobs[0])).toEqual(['Step queued', 'Step running', 'Message created', `Message sent: chat-webhook webhook ${base}/… answered 200`]);
    const sent = n.jobs[0].executionDetails.at(-1);
    expect(sent).toMatchObject({ status: 'Success', source: 'Webhook', providerId: 'chat-webhook' });
    expect(JSON.parse(sent.raw)).toMatchObject({ ok: true, status: 200, body: expect.stringContaining('hello from the receiver'), attempts: 1 });
    const [m] = await messages(svc, `transactionId=${tx}`);
    expect(m).toMatchObject({ status: 'sent', content: 'api is down', directWebhookUrl: `${base}/chat/kim`, providerId: 'chat-webhook' });
  });

  it("email-webhook: to the integration's URL, signed with the environment's key when it has no secretKey; the URL stays out of the details", async () => {
    await createWorkflow(svc, 'mail', [
      { name: 'Mail', type: 'email', controlValues: { subject: 'Hi {{ subscriber.firstName }}', body: '<p>b</p>', layoutId: null } },
    ]);
    const tx = await trigger(svc, 'mail', 'kim');
    const [r] = received;
    expect(r!.url).toBe('/mail/secret-path');
    expect(json(r!)).toMatchObject({ channel: 'email', to: 'kim@example.com', subject: 'Hi Kim', content: '<p>b</p>' });
    expect(verifySignature(TEST_KEY, r!.headers[SIGNATURE_HEADER] as string, r!.raw, { now: Date.now() }).ok).toBe(true);
    const n = await event(svc, tx);
    expect(JSON.stringify(n.jobs[0].executionDetails)).not.toContain('secret-path');
  });

  it("push-webhook sends the subscriber's device tokens", async () => {
    await createWorkflow(svc, 'push', [{ name: 'Push', type: 'push', controlValues: { subject: 'S', body: 'B {{ payload.n }}' } }]);
    await trigger(svc, 'push', 'kim', { n: 2 });
    expect(json(received[0]!)).toMatchObject({ channel: 'push', to: ['tok-1', 'tok-2'], title: 'S', content: 'B 2' });
    expect(verifySignature('whsec_push', received[0]!.headers[SIGNATURE_HEADER] as string, received[0]!.raw, { now: Date.now() }).ok).toBe(true);
  });

  it('a receiver failing with 500 is retried, then the job fails with the answer as raw; the message is an error', async () => {
    answers.push({ status: 500, body: 'boom' }, { status: 500, body: 'boom' }, { status: 503, body: 'still down' });
    const tx = await trigger(svc, 'chat', 'kim', { service: 'db' });
    expect(received).toHaveLength(3);
    const n = await event(svc, tx);
    expect(n.jobs[0].status).toBe('failed');
    const last = n.jobs[0].executionDetails.at(-1);
    expect(last).toMatchObject({
      status: 'Failed',
      source: 'Webhook',
      detail: `Message not delivered: chat-webhook webhook ${base}/… answered HTTP 503 after 3 attempts`,
    });
    expect(JSON.parse(last.raw)).toMatchObject({ status: 503, body: 'still down', attempts: 3 });
    expect((await messages(svc, `transactionId=${tx}`))[0]).toMatchObject({ status: 'error', errorText: 'HTTP 503' });
  });
});

describe('http_request step', () => {
  const call = (controls: Record<string, unknown>) => ({
    stepId: 'call',
    name: 'Call',
    type: 'http_request',
    controlValues: { method: 'POST', url: `${base}/hook`, ...controls },
  });
  const after = { name: 'After', type: 'in_app', controlValues: { body: 'status {{ steps.call.status }}: {{ steps.call.body.greeting }}' } };

  it("POSTs the rendered JSON body signed with the environment's key; the answer is steps.<id> and the detail's raw", async () => {
    await createWorkflow(svc, 'http', [
      call({ headers: [{ key: 'x-tenant', value: '{{ payload.tenant }}' }], body: '{"user": "{{ subscriber.firstName }}", "note": "{{ payload.note }}"}' }),
      after,
    ]);
    const tx = await trigger(svc, 'http', 'kim', { tenant: 'acme', note: 'says "hi"' });
    const [r] = received;
    expect(r!.method).toBe('POST');
    expect(r!.headers['x-tenant']).toBe('acme');
    expect(json(r!)).toEqual({ user: 'Kim', note: 'says "hi"' });
    expect(verifySignature(TEST_KEY, r!.headers[SIGNATURE_HEADER] as string, r!.raw, { now: Date.now() }).ok).toBe(true);
    const n = await event(svc, tx);
    expect(statuses(n)).toEqual(['completed', 'completed']);
    const done = n.jobs[0].executionDetails.at(-1);
    expect(done.detail).toMatch(new RegExp(`^HTTP request POST ${base}/hook answered 200 in \\d+ ms$`));
    expect(JSON.parse(done.raw)).toMatchObject({ status: 200, body: expect.stringContaining('greeting') });
    expect((await messages(svc, `transactionId=${tx}`))[0].content).toBe('status 200: hello from the receiver');
  });

  it('a failure stops the workflow unless continueOnFailure', async () => {
    await createWorkflow(svc, 'http-stop', [call({}), after]);
    await createWorkflow(svc, 'http-go-on', [call({ continueOnFailure: true }), after]);
    answers.push({ status: 404, body: '{"error":"nope"}' });
    const stopped = await event(svc, await trigger(svc, 'http-stop', 'kim'));
    expect(received).toHaveLength(1); // a 404 is not retried
    expect(statuses(stopped)).toEqual(['failed', 'canceled']);
    expect(details(stopped.jobs[0]).at(-1)).toBe(`HTTP request POST ${base}/hook answered HTTP 404 after 1 attempt`);
    expect(details(stopped.jobs[1])).toEqual(["Step canceled: step 'call' failed, and its failure stops the workflow"]);
    answers.push({ status: 404, body: '{"error":"nope","greeting":"-"}' });
    const goOn = await event(svc, await trigger(svc, 'http-go-on', 'kim'));
    expect(statuses(goOn)).toEqual(['failed', 'completed']);
    expect(details(goOn.jobs[0]).at(-1)).toContain('(continueOnFailure is set: the workflow goes on)');
  });

  it('enforceSchemaValidation checks the answer against responseBodySchema', async () => {
    await createWorkflow(svc, 'http-schema', [
      call({ enforceSchemaValidation: true, responseBodySchema: { type: 'object', required: ['id'], properties: { id: { type: 'string' } } } }),
    ]);
    const n = await event(svc, await trigger(svc, 'http-schema', 'kim'));
    expect(details(n.jobs[0]).at(-1)).toBe(
      `HTTP request POST ${base}/hook: the response body does not match responseBodySchema: id must have required property 'id'`,
    );
  });

  it('only loopback targets unless --allow-remote-webhooks', async () => {
    await createWorkflow(svc, 'http-far', [call({ url: 'http://10.255.255.1/hook' })]);
    const n = await event(svc, await trigger(svc, 'http-far', 'kim'));
    expect(received).toHaveLength(0);
    expect(details(n.jobs[0]).at(-1)).toBe(
      'HTTP request POST http://10.255.255.1/hook failed: refusing to connect to 10.255.255.1: only loopback targets (127.0.0.0/8, ::1, localhost) are allowed; start svc dev with --allow-remote-webhooks to allow others',
    );
  });
});
