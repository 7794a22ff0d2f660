// Operations an app reaches through the official SDK (@novu/api) beyond the first set, against the
// built `svc dev`: the SDK validates every answer with its own schemas, so a shape it would refuse,
// or a route the service lacks ("Cannot …" 404), fails here.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Novu } from '@novu/api';
import { startDev, type DevProcess } from '../helpers/dev.js';
import { novuClient, sdkFailure } from '../helpers/sdk.js';

let dev: DevProcess;
let novu: Novu;

beforeAll(async () => {
  dev = await startDev({ args: ['--quiet'] });
  novu = novuClient(dev.baseUrl, dev.apiKey);
});
afterAll(async () => {
  await dev?.stop();
});

const failure = sdkFailure;

describe('contexts', () => {
  test('list, retrieve, update and delete through the SDK', async () => {
    await novu.contexts.create({ type: 'team', id: 'sdk-red', data: { colour: 'red' } });
    await novu.contexts.create({ type: 'team', id: 'sdk-blue' });

    const page = (await novu.contexts.list({ search: 'sdk-', limit: 1, orderDirection: 'ASC' })).result;
    expect(page.data.map((c) => c.id)).toEqual(['sdk-red']);
    expect(page.totalCount).toBe(2);
    const next = (await novu.contexts.list({ search: 'sdk-', limit: 1, orderDirection: 'ASC', after: page.next! })).result;
    expect(next.data.map((c) => c.id)).toEqual(['sdk-blue']);
    expect(next.next).toBeNull();

    expect((await novu.contexts.retrieve('sdk-red', 'team')).result).toMatchObject({ type: 'team', id: 'sdk-red', data: { colour: 'red' } });
    const updated = (await novu.contexts.update({ type: 'team', id: 'sdk-red', updateContextRequestDto: { data: { colour: 'crimson' } } })).result;
    expect(updated.data).toEqual({ colour: 'crimson' });

    await novu.contexts.delete('sdk-red', 'team');
    const gone = await failure(novu.contexts.retrieve('sdk-red', 'team'));
    expect(gone).toMatchObject({ status: 404, body: { message: "Context with type 'team' and id 'sdk-red' not found" } });
  });
});

describe('integrations', () => {
  test('list all, create and delete through the SDK', async () => {
    const created = (await novu.integrations.create({ providerId: 'mailgun', channel: 'email', credentials: { apiKey: 'k-1' } })).result;
    expect(created).toMatchObject({ name: 'Mailgun', providerId: 'mailgun', active: false, primary: false });
    expect(created.identifier).toMatch(/^mailgun-/);
    expect(created.credentials).toBeUndefined();

    const all = (await novu.integrations.list()).result;
    expect(all.map((i) => i.id)).toContain(created.id);
    // The active list leaves the inactive one out; the full list has it.
    expect((await novu.integrations.listActive()).result.map((i) => i.id)).not.toContain(created.id);

    const remaining = (await novu.integrations.delete(created.id!)).result;
    expect(remaining.length).toBeGreaterThan(0);
    expect(remaining.map((i) => i.id)).not.toContain(created.id);
    const again = await failure(novu.integrations.delete(created.id!));
    expect(again).toMatchObject({ status: 404, body: { message: `Entity with id ${created.id} not found` } });
  });
});

describe('messages', () => {
  test('delete one by id, then the rest of its transaction (one channel, then all), through the SDK', async () => {
    const transactionId = `sdk-del-${Date.now()}`;
    await novu.trigger({ workflowId: 'welcome', to: 'ada', transactionId });
    const listed = async () => (await novu.messages.retrieve({ transactionId: [transactionId], limit: 100 })).result.data;
    let msgs = await listed();
    for (const deadline = Date.now() + 20_000; msgs.length < 2 && Date.now() < deadline; ) {
      await new Promise((r) => setTimeout(r, 50));
      msgs = await listed();
    }
    expect(msgs.map((m) => m.channel).sort()).toEqual(['email', 'in_app']);

    const inApp = msgs.find((m) => m.channel === 'in_app')!;
    expect((await novu.messages.delete(inApp.id!)).result).toEqual({ acknowledged: true, status: 'deleted' });
    expect((await listed()).map((m) => m.channel)).toEqual(['email']);
    expect(await failure(novu.messages.delete(inApp.id!))).toMatchObject({ status: 404, body: { message: `Message with id ${inApp.id} not found` } });

    expect(await failure(novu.messages.deleteByTransactionId(transactionId, 'sms'))).toMatchObject({
      status: 404,
      body: { message: 'Invalid transactionId or channel' },
    });
    await novu.messages.deleteByTransactionId(transactionId, 'email');
    expect(await listed()).toEqual([]);
  });
});
