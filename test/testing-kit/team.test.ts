// `svc-cli/testing` tried as a team would: an app's test file starts svc dev in its own process,
// triggers through the official SDK (@novu/api), waits for the email, follows its link to the app,
// moves a one-hour delay in one call, checks a digest, resets, and runs again — twice, each round
// under 5 s.
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Novu } from '@novu/api';
import { HTTPClient } from '@novu/api/lib/http.js';
import { type LocalServiceHandle, MessageWaitTimeout, startLocalService } from 'svc-cli/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

describe('svc-cli/testing: a team’s notification test', () => {
  let svc: LocalServiceHandle;
  let app: Server;
  let appUrl: string;
  const verified: string[] = [];

  beforeAll(async () => {
    svc = await startLocalService();
    // The team's app: the link in the email lands here.
    app = createServer((req, res) => {
      verified.push(new URL(req.url ?? '/', 'http://app').searchParams.get('token') ?? '');
      res.end('verified');
    }).listen(0, '127.0.0.1');
    await once(app, 'listening');
    appUrl = `http://127.0.0.1:${(app.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    app.close();
    await svc?.stop();
  });

  async function round(novu: Novu): Promise<void> {
    await novu.workflows.create({
      workflowId: 'verify-email',
      name: 'Verify your email',
      active: true,
      steps: [
        {
          name: 'Mail',
          type: 'email',
          controlValues: {
            subject: 'Verify your email',
            body: '<p>Hi {{ subscriber.firstName }}, <a href="{{ payload.link }}">verify</a></p>',
            editorType: 'html',
          },
        },
      ],
    });
    await novu.workflows.create({
      workflowId: 'reminder',
      name: 'Reminder',
      active: true,
      steps: [
        { name: 'Wait', type: 'delay', controlValues: { amount: 1, unit: 'hours' } },
        { name: 'Note', type: 'in_app', controlValues: { body: 'Still there, {{ subscriber.firstName }}?' } },
      ],
    });
    const token = Math.random().toString(36).slice(2);
    await novu.trigger({
      workflowId: 'verify-email',
      to: { subscriberId: 'ada-kit', firstName: 'Ada', email: 'ada@example.com' },
      payload: { link: `${appUrl}/verify?token=${token}` },
    });
    const email = await svc.waitForMessage({ subscriberId: 'ada-kit', workflowId: 'verify-email', channel: 'email', timeout: 5_000 });
    const link = /href="([^"]+)"/.exec(String(email.content))?.[1];
    expect(link).toBe(`${appUrl}/verify?token=${token}`);
    expect(await (await fetch(link!)).text()).toBe('verified');
    expect(verified.at(-1)).toBe(token);

    // A one-hour delay passes in one call: the in-app note exists when advance returns.
    await novu.trigger({ workflowId: 'reminder', to: { subscriberId: 'ada-kit', firstName: 'Ada' } });
    await expect(svc.waitForMessage({ subscriberId: 'ada-kit', workflowId: 'reminder', timeout: 200 })).rejects.toBeInstanceOf(MessageWaitTimeout);
    const before = await svc.clock.now();
    const after = await svc.clock.advance('1h');
    expect(after.mode).toBe('manual');
    expect(after.now.getTime() - before.now.getTime()).toBe(3_600_000);
    const note = await svc.waitForMessage({ subscriberId: 'ada-kit', workflowId: 'reminder', timeout: 0 });
    expect(String(note.content)).toBe('Still there, Ada?');

    // The demo's digest: two comments within its 10-minute window are one in-app summary.
    for (const comment of ['First!', 'Nice post']) {
      await novu.trigger({ workflowId: 'comment-digest', to: 'ada', payload: { postId: 'p1', postTitle: 'Kits', author: 'Grace', comment } });
    }
    await svc.clock.advance('10m');
    const digest = await svc.waitForMessage({ subscriberId: 'ada', workflowId: 'comment-digest', channel: 'in_app', timeout: 0 });
    expect(digest.subject).toBe('2 new comments on Kits');
  }

  it('runs green twice in a row with a reset between, each round under 5 s', async () => {
    const novu = new Novu({ secretKey: svc.apiKey, serverURL: svc.url, httpClient: new HTTPClient({ fetcher: svc.sdkFetch }) });
    for (const n of [1, 2]) {
      const started = performance.now();
      await round(novu);
      await svc.reset();
      // Back to the demo data: the round's workflows and subscriber are gone.
      const res = await fetch(`${svc.url}/v2/workflows/verify-email`, { headers: { authorization: `ApiKey ${svc.apiKey}` } });
      expect(res.status, `round ${n}`).toBe(404);
      expect(performance.now() - started, `round ${n} took`).toBeLessThan(5_000);
    }
  });

  it('gives each test file an environment of its own, that sees nothing of another', async () => {
    const a = await svc.newEnvironment();
    const b = await svc.newEnvironment();
    expect(a.apiKey).not.toBe(b.apiKey);
    expect(a.applicationIdentifier).not.toBe(b.applicationIdentifier);
    const novuA = new Novu({ secretKey: a.apiKey, serverURL: svc.url, httpClient: new HTTPClient({ fetcher: svc.sdkFetch }) });
    await novuA.workflows.create({
      workflowId: 'only-a',
      name: 'Only A',
      active: true,
      steps: [{ name: 'Note', type: 'in_app', controlValues: { body: 'for A' } }],
    });
    await novuA.trigger({ workflowId: 'only-a', to: 'kit-sub' });
    const list = (key: string) => fetch(`${svc.url}/v1/messages?subscriberId=kit-sub`, { headers: { authorization: `ApiKey ${key}` } }).then((r) => r.json());
    // In A, once stored; in B, nothing: the wait in A is the positive event that comes first.
    const seen = await (
      await fetch(`${svc.url}/v1/svc-dev/messages/wait?subscriberId=kit-sub&holdMs=5000&since=2000-01-01T00:00:00Z`, {
        headers: { authorization: `ApiKey ${a.apiKey}` },
      })
    ).json();
    expect(seen.data.content).toBe('for A');
    expect((await list(a.apiKey)).data).toHaveLength(1);
    expect((await list(b.apiKey)).data).toHaveLength(0);
  });

  it('rejects a duration it cannot read, naming it', async () => {
    await expect(svc.clock.advance('soon')).rejects.toThrow(/clock\.advance: expected milliseconds or a duration such as '1h', got "soon"/);
  });
});
