// HEAD of a GET route answers as the GET would, without a body: the status and headers of the route
// (its access check included), over a real connection (the server routes a HEAD request as its GET).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TEST_KEY, testService, type TestService } from '../helpers/service.js';

let svc: TestService;
let base: string;
beforeEach(async () => {
  svc = testService();
  await svc.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(svc.app.server.address() as { port: number }).port}`;
});
afterEach(async () => {
  await svc.close();
});

describe('HEAD', () => {
  it("of an API route: the GET's status, type and length, and no body", async () => {
    const headers = { authorization: `ApiKey ${TEST_KEY}` };
    const get = await fetch(`${base}/v1/integrations/active`, { headers });
    const body = await get.text();
    const head = await fetch(`${base}/v1/integrations/active`, { method: 'HEAD', headers });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toBe(get.headers.get('content-type'));
    expect(Number(head.headers.get('content-length'))).toBe(Buffer.byteLength(body));
    expect(await head.text()).toBe('');
  });

  it('without the API key: 401 as for GET; of a path no route serves: 404', async () => {
    expect((await fetch(`${base}/v1/integrations/active`, { method: 'HEAD' })).status).toBe(401);
    expect((await fetch(`${base}/v1/no-such-thing`, { method: 'HEAD', headers: { authorization: `ApiKey ${TEST_KEY}` } })).status).toBe(404);
  });

  it("of the console's page: 200", async () => {
    expect((await fetch(`${base}/console/`, { method: 'HEAD' })).status).toBe(200);
  });
});
