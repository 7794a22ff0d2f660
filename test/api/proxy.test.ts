// HTTPS_PROXY / HTTP_PROXY / NO_PROXY are honoured by every request.
import { afterEach, beforeEach, expect, test } from 'vitest';
import { startStub, type Stub } from '../helpers/stub.js';
import { startProxy, type Proxy as HttpProxy } from '../helpers/proxy.js';
import { runSvc } from '../helpers/run.js';

let stub: Stub;
let proxy: HttpProxy;

beforeEach(async () => {
  stub = await startStub();
  stub.on('GET', '/v1/integrations/active', { body: { data: [] } });
  proxy = await startProxy();
});
afterEach(async () => {
  await stub.close();
  await proxy.close();
});

const env = () => ({ SVC_API_KEY: 'sk_test_0123456789abcdef', SVC_BASE_URL: stub.url });

test('requests go through HTTP_PROXY', async () => {
  const r = await runSvc(['integrations', 'active'], { env: { ...env(), HTTP_PROXY: proxy.url } });
  expect(r.code).toBe(0);
  expect(proxy.proxied.length).toBeGreaterThan(0);
  expect(proxy.proxied[0]).toContain(new URL(stub.url).port);
  expect(stub.requests).toHaveLength(1);
});

test('NO_PROXY bypasses the proxy', async () => {
  const r = await runSvc(['integrations', 'active'], { env: { ...env(), HTTP_PROXY: proxy.url, NO_PROXY: '127.0.0.1' } });
  expect(r.code).toBe(0);
  expect(proxy.proxied).toHaveLength(0);
  expect(stub.requests).toHaveLength(1);
});
