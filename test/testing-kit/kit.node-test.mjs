// `svc-cli/testing` from a plain `node:test` file, as a team without vitest writes it: the package's
// own entry (dist/testing.js, through package.json's "exports"), the official SDK, and nothing left
// running after stop(): the process ends by itself when the tests are done.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { Novu } from '@novu/api';
import { HTTPClient } from '@novu/api/lib/http.js';
import { startLocalService } from 'svc-cli/testing';

let svc;
before(async () => {
  svc = await startLocalService();
});
after(() => svc.stop());

test('an OTP by SMS, read from the message as a test would', async () => {
  const novu = new Novu({ serverURL: svc.url, secretKey: svc.apiKey, httpClient: new HTTPClient({ fetcher: svc.sdkFetch }) });
  await novu.workflows.create({
    workflowId: 'login-code',
    name: 'Login code',
    active: true,
    steps: [{ name: 'Code', type: 'sms', controlValues: { body: 'Your code is {{ payload.code }}' } }],
  });
  await novu.trigger({ workflowId: 'login-code', to: { subscriberId: 'kit-user', phone: '+15005550006' }, payload: { code: '482913' } });
  const sms = await svc.waitForMessage({ subscriberId: 'kit-user', channel: 'sms', timeout: 5000 });
  assert.match(String(sms.content), /Your code is (\d{6})/);
  assert.equal(/(\d{6})/.exec(String(sms.content))?.[1], '482913');
});

test("reset({ empty: true }) leaves no workflows; reset() brings the demo back without the test's own", async () => {
  const ids = async () =>
    (await (await fetch(`${svc.url}/v2/workflows?limit=100`, { headers: { authorization: `ApiKey ${svc.apiKey}` } })).json()).data.workflows.map(
      (w) => w.workflowId,
    );
  assert.ok((await ids()).includes('login-code'));
  await svc.reset({ empty: true });
  assert.deepEqual(await ids(), []);
  await svc.reset();
  const demo = await ids();
  assert.ok(demo.includes('welcome') && !demo.includes('login-code'), demo.join(','));
});
