// svc dev's Mailpit-compatible API, through the real `mailpit-api` client (pinned): the calls a
// Mailpit test makes read svc dev's emails unchanged; IDs are svc message ids; `to:` matches part of
// the address in any case; a call not served answers 404 naming it.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { MailpitClient } from 'mailpit-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalService, type LocalService } from '../../src/server/index.js';

const KEY = 'sk_test_mailpit_0123456789';
let svc: LocalService;
let base: string;
let mailpit: MailpitClient;
let links: Server;
let linkBase: string;

async function api(method: string, path: string, body?: unknown) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { authorization: `ApiKey ${KEY}`, ...(body !== undefined && { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json().catch(() => undefined)) as any };
}

async function trigger(name: string, to: unknown, payload: Record<string, unknown> = {}) {
  const r = await api('POST', '/v1/events/trigger', { name, to, payload });
  expect(r.status).toBe(201);
  await svc.runner.idle();
  return r.body.data.transactionId as string;
}

beforeAll(async () => {
  svc = createLocalService({ data: ':memory:', apiKey: KEY });
  await svc.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(svc.app.server.address() as AddressInfo).port}`;
  mailpit = new MailpitClient(`${base}/mailpit`);
  // The app a link check reaches on this machine: /ok answers 200, anything else 404.
  links = createServer((req, res) => {
    res.statusCode = req.url === '/ok' ? 200 : 404;
    res.end(req.method === 'HEAD' ? undefined : 'body');
  });
  await new Promise<void>((r) => links.listen(0, '127.0.0.1', r));
  linkBase = `http://127.0.0.1:${(links.address() as AddressInfo).port}`;
  await api('POST', '/v2/workflows', {
    name: 'Links',
    workflowId: 'links',
    active: true,
    steps: [
      {
        name: 'Email',
        type: 'email',
        controlValues: {
          subject: 'Check these',
          editorType: 'html',
          body: `<p><a href="${linkBase}/ok">fine</a> <a href="${linkBase}/gone">gone</a> <a href="https://203.0.113.7/far">far</a></p>`,
        },
      },
    ],
  });
  await trigger('welcome', 'ada');
  await trigger('welcome', 'grace');
});

afterAll(async () => {
  await svc?.close();
  await new Promise((r) => links?.close(r));
});

describe('svc dev as Mailpit, through mailpit-api', () => {
  it('lists the emails, newest first, with svc message ids', async () => {
    const list = await mailpit.listMessages();
    const own = (await api('GET', '/v1/messages?channel=email')).body.data;
    expect(list.messages.map((m) => m.ID)).toEqual(own.map((m: { _id: string }) => m._id));
    expect(list).toMatchObject({ total: 2, messages_count: 2, start: 0, tags: [] });
    expect(list.messages[0]).toMatchObject({
      To: [{ Name: '', Address: 'grace@example.com' }],
      From: { Name: 'Acme', Address: 'hello@example.com' },
      Subject: 'Welcome aboard, Grace',
      Attachments: 0,
      Snippet: expect.stringContaining('Thanks for joining Acme.'),
    });
    expect((await mailpit.getInfo()).Messages).toBe(2);
  });

  it('searches with to: (part of the address, any case), from:, subject:, negation and words', async () => {
    const subjects = async (query: string) => (await mailpit.searchMessages({ query })).messages.map((m) => m.Subject);
    expect(await subjects('to:ADA@EXAMPLE')).toEqual(['Welcome aboard, Ada']);
    expect(await subjects('to:example.com')).toHaveLength(2);
    expect(await subjects('-to:ada')).toEqual(['Welcome aboard, Grace']);
    expect(await subjects('from:hello@example.com subject:"aboard, Grace"')).toEqual(['Welcome aboard, Grace']);
    expect(await subjects('"finish setting up" to:grace')).toEqual(['Welcome aboard, Grace']);
    expect(await subjects('subject:nothing-like-it')).toEqual([]);
    await expect(mailpit.searchMessages({ query: ' ' })).rejects.toThrow(/400.*no search query/);
  });

  it('a message summary: HTML, Text, From, To, Subject, Date; "latest"; it is marked read', async () => {
    const [grace] = (await mailpit.searchMessages({ query: 'to:grace' })).messages;
    expect(grace!.Read).toBe(false);
    const m = await mailpit.getMessageSummary(grace!.ID);
    expect(m).toMatchObject({
      ID: grace!.ID,
      Subject: 'Welcome aboard, Grace',
      From: { Address: 'hello@example.com' },
      To: [{ Address: 'grace@example.com' }],
    });
    expect(m.HTML).toContain('<a href="https://app.example.com/onboarding">Finish setting up</a>');
    expect(m.Text).toContain('Finish setting up (https://app.example.com/onboarding)');
    expect(Date.parse(m.Date)).not.toBeNaN();
    expect((await mailpit.getMessageSummary()).ID).toBe(grace!.ID);
    expect((await mailpit.searchMessages({ query: 'is:read' })).messages.map((x) => x.ID)).toEqual([grace!.ID]);
    await mailpit.setReadStatus({ Read: false });
    expect((await mailpit.searchMessages({ query: 'is:unread' })).messages_count).toBe(2);
  });

  it('headers as Mailpit gives them, and the raw RFC 5322 source', async () => {
    const h = await mailpit.getMessageHeaders();
    expect(Object.keys(h)).toEqual(['Content-Type', 'Date', 'From', 'Message-Id', 'Mime-Version', 'Subject', 'To']);
    expect(h.From).toEqual(['"Acme" <hello@example.com>']);
    expect(h.To).toEqual(['grace@example.com']);
    const raw = await mailpit.getMessageSource();
    const [head, ...rest] = raw.split('\r\n\r\n');
    expect(head).toMatch(/^From: "Acme" <hello@example\.com>\r\nTo: grace@example\.com\r\nSubject: Welcome aboard, Grace\r\nDate: .+ \+0000\r\n/);
    expect(rest.join('\r\n\r\n')).toMatch(/Content-Type: text\/html; charset=utf-8\r\nContent-Transfer-Encoding: quoted-printable/);
    expect(raw.split('\r\n').every((line) => line.length <= 998 && !line.includes('\n'))).toBe(true);
    expect(await mailpit.renderMessageText()).toContain('Thanks for joining Acme.');
    expect(await mailpit.renderMessageHTML()).toContain('<p>Thanks for joining Acme.</p>');
  });

  it('waitForMessage finds an email as it arrives', async () => {
    const waiting = mailpit.waitForMessage({ query: 'to:alan subject:Welcome' }, { timeout: 10_000, interval: 50 });
    await trigger('welcome', 'alan');
    expect((await waiting).To).toEqual([{ Name: '', Address: 'alan@example.com' }]);
  });

  it('link check: loopback links asked with HEAD, others not sent without --allow-remote-webhooks', async () => {
    await trigger('links', 'ada');
    const [m] = (await mailpit.searchMessages({ query: 'subject:"Check these"' })).messages;
    const check = await mailpit.linkCheck(m!.ID);
    expect(check.Errors).toBe(2);
    const byUrl = Object.fromEntries(check.Links.map((l) => [l.URL, l]));
    expect(byUrl[`${linkBase}/ok`]).toEqual({ URL: `${linkBase}/ok`, StatusCode: 200, Status: 'OK' });
    expect(byUrl[`${linkBase}/gone`]).toMatchObject({ StatusCode: 404, Status: 'Not Found' });
    expect(byUrl['https://203.0.113.7/far']).toMatchObject({ StatusCode: 0, Status: expect.stringContaining('--allow-remote-webhooks') });
  });

  it('deletes by search, by id and all; the service no longer has them', async () => {
    expect(await mailpit.deleteMessagesBySearch({ query: 'to:grace' })).toBe('ok');
    expect((await api('GET', '/v1/messages?subscriberId=grace&channel=email')).body.data).toEqual([]);
    const [latest] = (await mailpit.listMessages()).messages;
    await mailpit.deleteMessages({ IDs: [latest!.ID] });
    expect((await mailpit.listMessages()).messages.map((m) => m.ID)).not.toContain(latest!.ID);
    await mailpit.deleteMessages();
    expect((await mailpit.listMessages()).total).toBe(0);
    await expect(mailpit.getMessageSummary()).rejects.toThrow(/404/);
    // Other channels are not Mailpit's: the in-app messages stay.
    expect((await api('GET', '/v1/messages?channel=in_app')).body.data.length).toBeGreaterThan(0);
  });

  it('a call not served answers 404 naming it', async () => {
    await expect(mailpit.htmlCheck()).rejects.toThrow(/404 .*does not serve GET \/api\/v1\/message\/latest\/html-check \(mailpit-api: htmlCheck\)/);
    await expect(mailpit.sendMessage({ From: { Email: 'a@b.test' }, To: [{ Email: 'c@d.test' }], Subject: 'x' })).rejects.toThrow(
      /404 .*POST \/api\/v1\/send \(mailpit-api: sendMessage\)/,
    );
    await expect(mailpit.getConfiguration()).rejects.toThrow(/getConfiguration/);
  });

  it('basic auth with an API key shows that environment alone; a wrong key is refused', async () => {
    await trigger('welcome', 'ada');
    const own = new MailpitClient(`${base}/mailpit`, { auth: { username: 'svc', password: KEY } });
    expect((await own.listMessages()).total).toBe(1);
    const wrong = new MailpitClient(`${base}/mailpit`, { auth: { username: 'svc', password: 'sk_nope' } });
    await expect(wrong.listMessages()).rejects.toThrow(/401/);
  });
});
