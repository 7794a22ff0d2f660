// The parts of undici the HTTP core uses, loaded module by module. `import 'undici'` evaluates every
// part of the package at start-up (fetch, websockets, caches, mocks: ~60 ms here); the agent and the
// request API alone take ~20 ms. undici's own index does the same wiring as below: it assigns the API
// methods (request, stream, ...) to Dispatcher.prototype. Loaded by undici.ts only when needed.
import './wasm-flags.js';
import type { Dispatcher as DispatcherType } from 'undici';
import Agent from 'undici/lib/dispatcher/agent.js';
import Dispatcher from 'undici/lib/dispatcher/dispatcher.js';
import api from 'undici/lib/api/index.js';

Object.assign(Dispatcher.prototype, api);

export interface AgentOptions {
  headersTimeout: number;
  bodyTimeout: number;
  connectTimeout: number;
}

export interface ProxyOptions {
  httpProxy?: string;
  httpsProxy?: string;
  noProxy?: string;
}

export function createAgent(opts: AgentOptions): DispatcherType {
  return new Agent({ ...opts, keepAliveTimeout: 10_000 });
}

export async function createProxyAgent(opts: AgentOptions, proxy: ProxyOptions): Promise<DispatcherType> {
  const { default: EnvHttpProxyAgent } = await import('undici/lib/dispatcher/env-http-proxy-agent.js');
  return new EnvHttpProxyAgent({
    ...opts,
    ...(proxy.httpProxy ? { httpProxy: proxy.httpProxy } : {}),
    ...(proxy.httpsProxy ? { httpsProxy: proxy.httpsProxy } : {}),
    ...(proxy.noProxy ? { noProxy: proxy.noProxy } : {}),
  });
}
