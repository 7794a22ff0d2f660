// The transport under the HTTP core (client.ts): Node's own HTTP client with a keep-alive agent, shaped
// like the part of undici's `Dispatcher.request()` the core uses (status, headers, `body.text()`, an
// abort signal, `close()`). Node's client is part of Node and its parser is native: a command loads no
// transport of its own, where undici is a large package to load and its WebAssembly parser, compiled
// again in the background, holds the process after the answer and grows its peak memory (figures in
// bench/RESULTS-history.md). Proxies (HTTP_PROXY/HTTPS_PROXY/NO_PROXY), which Node's client does not
// read on every supported line, go through undici's EnvHttpProxyAgent, loaded only then.
//
// Failures carry the codes undici gives the same events (a connection closed before an answer or during
// the body is UND_ERR_SOCKET), so that the HTTP core describes them in the same words whichever client
// carried the request. Timeouts come from the caller's signal (the HTTP core sets one per attempt).
import type { Agent as HttpAgent, ClientRequest, IncomingMessage, RequestOptions } from 'node:http';
import type { Dispatcher } from 'undici';
import { loadUndici } from '../core/lazy.js';

interface NodeRequestOptions {
  origin: string;
  path: string;
  method: string;
  headers?: Record<string, string>;
  body?: string;
  signal?: AbortSignal;
}

interface NodeResponse {
  statusCode: number;
  headers: IncomingMessage['headers'];
  body: { text(): Promise<string>; bytes(): Promise<Uint8Array>; json(): Promise<unknown>; dump(): Promise<void> };
}

type Proto = typeof import('node:http');

/**
 * Frees a buffer's memory now rather than at the next garbage collection, when it is a whole
 * ArrayBuffer of its own (never a slice of a shared pool); it reads empty afterwards.
 */
export function releaseBuffer(b: Uint8Array): void {
  const whole = b.buffer as ArrayBuffer & { transfer?: (length: number) => ArrayBuffer };
  if (b.byteOffset === 0 && whole.byteLength === b.byteLength && b.byteLength > 0 && typeof whole.transfer === 'function') whole.transfer(0);
}

/** An error with the code undici uses for the same event. */
function socketClosed(message: string): Error {
  return Object.assign(new Error(message), { code: 'UND_ERR_SOCKET' });
}

export class NodeTransport {
  private readonly agents = new Map<string, HttpAgent>();
  private closed = false;

  constructor(private readonly opts: { keepAliveTimeout?: number } = {}) {}

  private agentFor(protocol: string): { mod: Proto; agent: HttpAgent } {
    // Not import('node:http'): as an ES module, node:http's exports are all read, and its WebSocket getter
    // loads Node's own copy of undici.
    const mod: Proto = process.getBuiltinModule(protocol === 'https:' ? 'node:https' : 'node:http') as Proto;
    let agent = this.agents.get(protocol);
    if (!agent) {
      // Keep-alive, so that a later request can reuse the connection; a free socket does not hold the
      // process open (Node unrefs it), and close() ends it.
      agent = new mod.Agent({ keepAlive: true, ...(this.opts.keepAliveTimeout ? { timeout: this.opts.keepAliveTimeout } : {}) });
      this.agents.set(protocol, agent);
    }
    return { mod, agent };
  }

  async request(o: NodeRequestOptions): Promise<NodeResponse> {
    if (this.closed) throw Object.assign(new Error('The client is closed'), { code: 'UND_ERR_CLOSED' });
    const signal = o.signal;
    if (signal?.aborted) throw signal.reason;
    const url = new URL(o.path, o.origin);
    const { mod, agent } = this.agentFor(url.protocol);
    const headers: Record<string, string> = { ...o.headers };
    if (o.body !== undefined) headers['content-length'] = String(Buffer.byteLength(o.body));
    const options: RequestOptions = {
      agent,
      method: o.method,
      hostname: url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname,
      port: url.port || undefined,
      path: url.pathname + url.search,
      headers,
    };

    return new Promise<NodeResponse>((resolve, reject) => {
      let req: ClientRequest;
      // Where a failure goes: the pending request, then (once there is an answer) its pending body.
      const outcome: { settled: boolean; fail: (err: unknown) => void } = {
        settled: false,
        fail: (err) => {
          if (outcome.settled) return;
          outcome.settled = true;
          reject(err);
        },
      };
      const onAbort = () => {
        outcome.fail(signal!.reason);
        req.destroy();
      };
      const done = () => signal?.removeEventListener('abort', onAbort);
      try {
        req = mod.request(options);
      } catch (err) {
        reject(err);
        return;
      }
      signal?.addEventListener('abort', onAbort, { once: true });
      const bodyBuffers = new WeakSet<ArrayBufferLike>();
      freeReads(req, bodyBuffers);
      req.on('error', (err: NodeJS.ErrnoException) => {
        done();
        // Node's "socket hang up" (before an answer) and "aborted" (during one): the service closed the
        // connection. A reset (RST) keeps its own code, as with undici.
        if (err.code === 'ECONNRESET' && (err.message === 'socket hang up' || err.message === 'aborted')) outcome.fail(socketClosed('other side closed'));
        else outcome.fail(err);
      });
      req.on('response', (r: IncomingMessage) => {
        if (outcome.settled) {
          r.resume();
          return;
        }
        outcome.settled = true;
        resolve(answer(r, signal, bodyBuffers, done, (fail) => (outcome.fail = fail)));
      });
      if (o.body !== undefined) req.end(o.body);
      else req.end();
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const agent of this.agents.values()) agent.destroy();
    this.agents.clear();
  }
}

/**
 * What the socket read is garbage once Node's HTTP parser, another listener of the same 'data' event,
 * has read it: the body it passes on is a copy. So each read is freed after the event (a microtask:
 * whatever the order of the listeners) instead of at the next garbage collection, which a long export
 * that allocates little on the heap has rarely: the reads waiting for one held megabytes. The listener
 * goes at 'close', before a kept-alive socket serves another request. A guard in case a Node handed on
 * the socket's own buffer as the body (`bodyBuffers`): then it is not freed.
 */
function freeReads(req: ClientRequest, bodyBuffers: WeakSet<ArrayBufferLike>): void {
  const onData = (d: Buffer) => queueMicrotask(() => bodyBuffers.has(d.buffer) || releaseBuffer(d));
  req.on('socket', (socket) => {
    socket.on('data', onData);
    req.once('close', () => socket.off('data', onData));
  });
}

/**
 * The answer, its body read as it arrives: `text()`, `bytes()` and `json()` wait for its end.
 * `failWith` receives where a failure of the request goes from now on: the body's end.
 */
function answer(
  r: IncomingMessage,
  signal: AbortSignal | undefined,
  bodyBuffers: WeakSet<ArrayBufferLike>,
  done: () => void,
  failWith: (fail: (err: unknown) => void) => void,
): NodeResponse {
  const chunks: Buffer[] = [];
  let bodyDone = false;
  let bodyError: unknown;
  let waiting: { resolve: (b: Buffer) => void; reject: (e: unknown) => void } | undefined;
  // The body in one buffer. The chunks (the parser's copies) are freed at once when they are whole
  // buffers of their own, instead of at the next garbage collection, which an export rarely has.
  const joined = () => {
    if (chunks.length < 2) return chunks[0] ?? Buffer.alloc(0);
    const all = Buffer.concat(chunks);
    for (const c of chunks.splice(0)) releaseBuffer(c);
    chunks.push(all);
    return all;
  };
  const finish = (err?: unknown) => {
    if (bodyDone) return;
    bodyDone = true;
    bodyError = err;
    done();
    if (!waiting) return;
    if (err !== undefined) waiting.reject(err);
    else waiting.resolve(joined());
  };
  failWith((err) => finish(err));
  r.on('data', (c: Buffer) => {
    bodyBuffers.add(c.buffer);
    chunks.push(c);
  });
  r.on('end', () => finish());
  // The connection ended before the body did (Node says "aborted").
  r.on('error', (err: NodeJS.ErrnoException) =>
    finish(signal?.aborted ? signal.reason : err.code === 'ECONNRESET' && err.message === 'aborted' ? socketClosed('other side closed') : err),
  );
  r.on('aborted', () => finish(signal?.aborted ? signal.reason : socketClosed('other side closed')));
  const bytes = () =>
    new Promise<Buffer>((res, rej) => {
      if (!bodyDone) waiting = { resolve: res, reject: rej };
      else if (bodyError !== undefined) rej(bodyError);
      else res(joined());
    });
  const text = async () => (await bytes()).toString('utf8');
  return {
    statusCode: r.statusCode ?? 0,
    headers: r.headers,
    body: {
      text,
      bytes,
      json: async () => JSON.parse(await text()),
      dump: async () => {
        await text().catch(() => undefined);
      },
    },
  };
}

interface DispatcherOptions {
  headersTimeout: number;
  bodyTimeout: number;
  connectTimeout: number;
}

/** The dispatcher for a client: undici's EnvHttpProxyAgent when a proxy is set, else Node's own client. */
export async function createDispatcher(env: NodeJS.ProcessEnv, opts: DispatcherOptions): Promise<Dispatcher> {
  const httpProxy = env.HTTP_PROXY ?? env.http_proxy;
  const httpsProxy = env.HTTPS_PROXY ?? env.https_proxy;
  const noProxy = env.NO_PROXY ?? env.no_proxy;
  if (!httpProxy && !httpsProxy) return new NodeTransport() as unknown as Dispatcher;
  const { EnvHttpProxyAgent } = await loadUndici();
  return new EnvHttpProxyAgent({
    ...opts,
    keepAliveTimeout: 10_000,
    ...(httpProxy ? { httpProxy } : {}),
    ...(httpsProxy ? { httpsProxy } : {}),
    ...(noProxy ? { noProxy } : {}),
  });
}
