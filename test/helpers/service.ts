// An in-process local service for handler tests: in-memory store, manual clock, no socket.
import { ManualClock } from '../../src/server/clock.js';
import { createLocalService, type LocalService, type LocalServiceOptions } from '../../src/server/index.js';

export const TEST_KEY = 'sk_test_0123456789abcdef';

export interface TestService extends LocalService {
  clock: ManualClock;
  request(
    method: string,
    url: string,
    opts?: { body?: unknown; headers?: Record<string, string>; key?: string | null },
  ): Promise<{
    status: number;
    headers: Record<string, string | string[] | number | undefined>;
    body: any;
  }>;
}

export function testService(opts: Partial<LocalServiceOptions> = {}): TestService {
  const clock = new ManualClock();
  const svc = createLocalService({ data: ':memory:', apiKey: TEST_KEY, clock, ...opts });
  const request: TestService['request'] = async (method, url, o = {}) => {
    const headers: Record<string, string> = { ...o.headers };
    if (o.key !== null) headers.authorization ??= `ApiKey ${o.key ?? TEST_KEY}`;
    const res = await svc.app.inject({
      method: method as 'GET',
      url,
      headers,
      ...(o.body !== undefined && { payload: JSON.stringify(o.body), headers: { ...headers, 'content-type': 'application/json' } }),
    });
    let body: unknown = res.body;
    try {
      body = res.body ? JSON.parse(res.body) : undefined;
    } catch {
      /* not JSON: keep the text */
    }
    return { status: res.statusCode, headers: res.headers, body };
  };
  return Object.assign(svc, { clock, request });
}
