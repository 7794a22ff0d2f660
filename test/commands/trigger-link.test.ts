// svc trigger's "activity" link at a terminal is a page a browser can open: against svc dev, the local
// console's page of that transaction (the service's own link is a raw API URL that answers 401 without
// the key). -o json keeps the service's answer as it was; a link that is already a page is kept.
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { AddressInfo } from 'node:net';
import { createLocalService, type LocalService } from '../../src/server/index.js';
import { browserActivityLink } from '../../src/core/activity.js';
import { runSvc } from '../helpers/run.js';

const KEY = 'sk_test_link_0123456789';
let svc: LocalService;
let base: string;

beforeAll(async () => {
  svc = createLocalService({ data: ':memory:', apiKey: KEY });
  await svc.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(svc.app.server.address() as AddressInfo).port}`;
});
afterAll(async () => svc?.close());

test('against svc dev: the console page of the transaction, which the local service serves', async () => {
  const env = { SVC_API_KEY: KEY, SVC_BASE_URL: base };
  const r = await runSvc(['trigger', 'welcome', '--to', 'ada', '-o', 'table', '--transaction-id', 'txn-link-1'], { env, tty: true });
  expect(r.code, r.stderr).toBe(0);
  expect(r.stdout).toContain(`activity: ${base}/console/#/activity?transaction=txn-link-1`);
  expect(r.stdout).not.toContain('/v1/notifications');
  const page = await fetch(`${base}/console/`);
  expect(page.status).toBe(200);
  expect(page.headers.get('content-type')).toContain('text/html');
  // What it replaces: the API URL, refused to a browser (no key).
  expect((await fetch(`${base}/v1/notifications?transactionId=txn-link-1`)).status).toBe(401);

  const j = await runSvc(['trigger', 'welcome', '--to', 'ada', '-o', 'json', '--transaction-id', 'txn-link-2'], { env });
  expect(JSON.parse(j.stdout).activityFeedLink).toBe(`${base}/v1/notifications?transactionId=txn-link-2`);
});

test('a link that is already a page (a hosted dashboard) is kept', () => {
  const dash = 'https://dashboard.example.com/activities?transactionId=t1';
  expect(browserActivityLink(dash, 't1')).toBe(dash);
  expect(browserActivityLink('not a url', 't1')).toBe('not a url');
});
