// The bridge client against scripted loopback servers: signature headers, the timeout, which answers
// are retried (408, 429, 5xx, connection errors) and which are not, and discover answers that break
// the schema refused with the path of the bad field.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { bridgeSignature, callBridge, discover, executeStep, healthCheck, MAX_ANSWER_BYTES } from '../../../src/server/bridge/client.js';
import { validSignature } from './app.js';

interface Hit {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

let server: http.Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((r) => (server ? server.close(r) : r(undefined)));
  server = undefined;
});

/** A server answering each request with the next scripted answer (the last one repeats). */
async function scripted(answers: { status: number; body: unknown; delayMs?: number }[]): Promise<{ url: string; hits: Hit[] }> {
  const hits: Hit[] = [];
  server = http.createServer(async (req, res) => {
    let body = '';
    for await (const c of req) body += c;
    hits.push({ method: req.method!, url: req.url!, headers: req.headers, body });
    const a = answers[Math.min(hits.length - 1, answers.length - 1)]!;
    if (a.delayMs) await new Promise((r) => setTimeout(r, a.delayMs));
    if (res.destroyed) return;
    res.writeHead(a.status, { 'content-type': 'application/json' });
    res.end(typeof a.body === 'string' ? a.body : JSON.stringify(a.body));
  });
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/novu`, hits };
}

const fast = { secret: 'sk_secret', allowRemote: false, backoffMs: () => 1 };
const event = { payload: { a: 1 }, controls: {}, subscriber: { subscriberId: 's' }, state: [] };

describe('bridge client', () => {
  it('signs execute over its JSON body in both headers, with t in ms; the health check is not signed', async () => {
    const s = await scripted([{ status: 200, body: { outputs: { body: 'x' }, providers: {}, options: { skip: false } } }]);
    const before = Date.now();
    const r = await executeStep(s.url, 'execute', 'wf', 'step-1', event, fast);
    expect(r.value?.outputs).toEqual({ body: 'x' });
    const hit = s.hits[0]!;
    expect(hit.method).toBe('POST');
    expect(new URL(hit.url, 'http://x').searchParams.toString()).toBe('action=execute&workflowId=wf&stepId=step-1');
    const sig = hit.headers['novu-signature'] as string;
    expect(hit.headers['x-novu-signature']).toBe(sig);
    expect(validSignature(sig, JSON.parse(hit.body), 'sk_secret')).toBe(true);
    expect(Number(/^t=(\d+)/.exec(sig)![1])).toBeGreaterThanOrEqual(before);
    expect(bridgeSignature('k', {}, 5)).toMatch(/^t=5,v1=[0-9a-f]{64}$/);
    await healthCheck(s.url, fast);
    expect(s.hits[1]!.headers['novu-signature']).toBeUndefined();
  });

  it('discover is a GET signed over {}', async () => {
    const s = await scripted([{ status: 200, body: { workflows: [] } }]);
    const r = await discover(s.url, fast);
    expect(r.value).toEqual({ workflows: [] });
    expect(s.hits[0]!.method).toBe('GET');
    expect(validSignature(s.hits[0]!.headers['novu-signature'] as string, {}, 'sk_secret')).toBe(true);
  });

  it('retries 408, 429 and 5xx (3 times), then gives the last answer', async () => {
    const s = await scripted([
      { status: 503, body: { message: 'down' } },
      { status: 429, body: {} },
      { status: 408, body: {} },
      { status: 200, body: { outputs: {} } },
    ]);
    const ok = await executeStep(s.url, 'execute', 'w', 's', event, fast);
    expect(ok.answer).toMatchObject({ ok: true, attempts: 4 });
    const s2 = await scripted([{ status: 502, body: { code: 'StepExecutionFailedError', message: 'Failed to execute Step with id: s' } }]);
    const bad = await executeStep(s2.url, 'execute', 'w', 's', event, fast);
    expect(s2.hits).toHaveLength(4);
    expect(bad.answer).toMatchObject({ ok: false, status: 502, attempts: 4 });
    expect(bad.answer.error).toBe('HTTP 502: StepExecutionFailedError: Failed to execute Step with id: s');
  });

  it('does not retry other 4xx', async () => {
    const s = await scripted([{ status: 400, body: { code: 'ExecutionStateResultInvalidError', message: 'bad state' } }]);
    const r = await executeStep(s.url, 'execute', 'w', 's', event, fast);
    expect(s.hits).toHaveLength(1);
    expect(r.answer).toMatchObject({ ok: false, status: 400, attempts: 1 });
  });

  it('times out an attempt that does not answer, and retries it', async () => {
    const s = await scripted([{ status: 200, body: { outputs: {} }, delayMs: 400 }]);
    const r = await callBridge(s.url, 'execute', { ...fast, body: event, timeoutMs: 100, retries: 1 });
    expect(s.hits).toHaveLength(2);
    expect(r).toMatchObject({ ok: false, attempts: 2, error: 'no answer within 100 ms' });
  });

  it('cuts off an answer larger than it will hold, as a failed attempt', async () => {
    const s = await scripted([{ status: 200, body: `{"outputs":{"body":"${'x'.repeat(MAX_ANSWER_BYTES)}"}}` }]);
    const r = await callBridge(s.url, 'execute', { ...fast, body: event, retries: 0 });
    expect(r).toMatchObject({ ok: false, attempts: 1, error: `answer larger than ${MAX_ANSWER_BYTES} bytes` });
  });

  it('retries connection errors', async () => {
    const s = await scripted([{ status: 200, body: {} }]);
    server!.closeAllConnections();
    await new Promise((r) => server!.close(r));
    server = undefined;
    const r = await callBridge(s.url, 'health-check', { ...fast, retries: 2 });
    expect(r).toMatchObject({ ok: false, attempts: 3, error: 'ECONNREFUSED' });
  });

  it('refuses a discover answer that breaks the schema, naming the bad field', async () => {
    const s = await scripted([
      {
        status: 200,
        body: {
          workflows: [
            {
              workflowId: 'w',
              payload: { schema: {} },
              steps: [{ stepId: 'a', type: 'carrier_pigeon', controls: { schema: {} }, outputs: { schema: {} }, results: { schema: {} } }],
            },
          ],
        },
      },
    ]);
    const r = await discover(s.url, fast);
    expect(r.value).toBeUndefined();
    expect(r.answer.ok).toBe(false);
    expect(r.answer.error).toMatch(/^unexpected answer: workflows\.0\.steps\.0\.type: /);
  });
});
