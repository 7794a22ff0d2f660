// The transport under the HTTP core (client.ts): a dispatcher, as undici calls it, that carries the first
// request on Node's own HTTP client (node-transport.ts) and every later one on an undici keep-alive pool.
//
// Why: most commands send one request, and for them undici costs more than the request itself: ~20 ms to
// load, ~45 MB of peak memory, and its parser is WebAssembly that V8 recompiles in the background after
// the answer, which holds the process ~90 ms before it can exit. A command that sends more (--all,
// bulk, watch, retries) switches to undici at its second request, where the pool pays off; the first
// request's cost is one connection. Proxies (HTTP_PROXY/HTTPS_PROXY/NO_PROXY) always go through
// undici's EnvHttpProxyAgent, from the first request on.
import type { Dispatcher as DispatcherType } from 'undici';
import type { AgentOptions } from './undici-agent.js';
import { NodeTransport } from './node-transport.js';

export type DispatcherOptions = AgentOptions;

function proxyOf(env: NodeJS.ProcessEnv) {
  return {
    httpProxy: env.HTTP_PROXY ?? env.http_proxy,
    httpsProxy: env.HTTPS_PROXY ?? env.https_proxy,
    noProxy: env.NO_PROXY ?? env.no_proxy,
  };
}

/** First request on node:http, the rest on undici (see above). */
export class FirstRequestDispatcher {
  private readonly first = new NodeTransport();
  private used = false;
  private pool?: Promise<DispatcherType>;

  constructor(private readonly opts: DispatcherOptions) {}

  /** Which client the next request goes to (for tests and --debug). */
  get next(): 'node:http' | 'undici' {
    return this.used ? 'undici' : 'node:http';
  }

  request(o: DispatcherType.RequestOptions): Promise<DispatcherType.ResponseData> {
    if (!this.used) {
      this.used = true;
      return this.first.request({
        origin: String(o.origin),
        path: o.path,
        method: o.method,
        ...(o.headers ? { headers: o.headers as Record<string, string> } : {}),
        ...(typeof o.body === 'string' ? { body: o.body } : {}),
        ...(o.signal ? { signal: o.signal as AbortSignal } : {}),
      }) as unknown as Promise<DispatcherType.ResponseData>;
    }
    this.pool ??= import('./undici-agent.js').then((m) => m.createAgent(this.opts));
    return this.pool.then((d) => d.request(o));
  }

  async close(): Promise<void> {
    await this.first.close();
    if (this.pool) await (await this.pool).close();
  }
}

/** The dispatcher for a client: undici's EnvHttpProxyAgent when a proxy is set, else FirstRequestDispatcher. */
export async function createDispatcher(env: NodeJS.ProcessEnv, opts: DispatcherOptions): Promise<DispatcherType> {
  const proxy = proxyOf(env);
  if (proxy.httpProxy || proxy.httpsProxy) {
    const { createProxyAgent } = await import('./undici-agent.js');
    return createProxyAgent(opts, proxy);
  }
  return new FirstRequestDispatcher(opts) as unknown as DispatcherType;
}
