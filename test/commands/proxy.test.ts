// HTTPS_PROXY / HTTP_PROXY / NO_PROXY are honoured by every request.
import { afterEach, beforeEach, expect, test } from 'vitest';
import { createServer, request as httpRequest, type Server } from 'node:http';
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { startStub, type Stub } from '../helpers/stub.js';
import { runSvc } from '../helpers/run.js';

let stub: Stub;
let proxy: Server;
let proxyUrl: string;
let proxied: string[];

beforeEach(async () => {
  stub = await startStub();
  stub.on('GET', '/v1/integrations/active', { body: { data: [] } });
  proxied = [];
  // A forward proxy that understands both CONNECT tunnels and absolute-form requests.
  proxy = createServer((req, res) => {
    proxied.push(`${req.method} ${req.url}`);
    const target = new URL(req.url!);
    const up = httpRequest({ host: target.hostname, port: target.port, path: target.pathname + target.search, method: req.method, headers: req.headers }, (r) => {
      res.writeHead(r.statusCode!, r.headers);
      r.pipe(res);
    });
    req.pipe(up);
  });
  proxy.on('connect', (req, socket, head) => {
    proxied.push(`CONNECT ${req.url}`);
    const [host, port] = req.url!.split(':');
    const up = connect(Number(port), host!, () => {
      socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      up.write(head);
      up.pipe(socket);
      socket.pipe(up);
    });
    up.on('error', () => socket.destroy());
    socket.on('error', () => up.destroy());
  });
  await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
});
afterEach(async () => {
  await stub.close();
  proxy.closeAllConnections();
  await new Promise((r) => proxy.close(r));
});

const env = () => ({ SVC_API_KEY: 'sk_test_0123456789abcdef', SVC_BASE_URL: stub.url });

test('requests go through HTTP_PROXY', async () => {
  const r = await runSvc(['integrations', 'active'], { env: { ...env(), HTTP_PROXY: proxyUrl } });
  expect(r.code).toBe(0);
  expect(proxied.length).toBeGreaterThan(0);
  expect(proxied[0]).toContain(new URL(stub.url).port);
  expect(stub.requests).toHaveLength(1);
});

test('NO_PROXY bypasses the proxy', async () => {
  const r = await runSvc(['integrations', 'active'], { env: { ...env(), HTTP_PROXY: proxyUrl, NO_PROXY: '127.0.0.1' } });
  expect(r.code).toBe(0);
  expect(proxied).toHaveLength(0);
  expect(stub.requests).toHaveLength(1);
});
