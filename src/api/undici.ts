// The parts of undici the HTTP core uses, loaded module by module. `import 'undici'` evaluates every
// part of the package at start-up (fetch, websockets, caches, mocks: ~60 ms here); the agent and the
// request API alone take ~20 ms. undici's own index does the same wiring as below: it assigns the API
// methods (request, stream, ...) to Dispatcher.prototype. The proxy agent loads only when a proxy is set.
import './wasm-flags.js';
import type { Dispatcher as DispatcherType } from 'undici';
import Agent from 'undici/lib/dispatcher/agent.js';
import Dispatcher from 'undici/lib/dispatcher/dispatcher.js';
import api from 'undici/lib/api/index.js';

Object.assign(Dispatcher.prototype, api);

export interface DispatcherOptions {
  headersTimeout: number;
  bodyTimeout: number;
  connectTimeout: number;
}

function proxyOf(env: NodeJS.ProcessEnv) {
  return {
    httpProxy: env.HTTP_PROXY ?? env.http_proxy,
    httpsProxy: env.HTTPS_PROXY ?? env.https_proxy,
    noProxy: env.NO_PROXY ?? env.no_proxy,
  };
}

/** Keep-alive agent, or undici's EnvHttpProxyAgent (HTTP_PROXY/HTTPS_PROXY/NO_PROXY) when a proxy is set. */
export async function createDispatcher(env: NodeJS.ProcessEnv, opts: DispatcherOptions): Promise<DispatcherType> {
  const proxy = proxyOf(env);
  if (proxy.httpProxy || proxy.httpsProxy) {
    const { default: EnvHttpProxyAgent } = await import('undici/lib/dispatcher/env-http-proxy-agent.js');
    return new EnvHttpProxyAgent({ ...opts, ...(proxy.httpProxy ? { httpProxy: proxy.httpProxy } : {}), ...(proxy.httpsProxy ? { httpsProxy: proxy.httpsProxy } : {}), ...(proxy.noProxy ? { noProxy: proxy.noProxy } : {}) });
  }
  return new Agent({ ...opts, keepAliveTimeout: 10_000 });
}
