// Email layouts against the built `svc dev`, through the official SDK (@novu/api validates every
// answer with its own schemas): the eight /v2/layouts operations, and a layout wrapping an email
// step's body in the delivered message and in the step's preview.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Novu } from '@novu/api';
import { api, startDev, type DevProcess } from '../helpers/dev.js';
import { novuClient, sdkFailure } from '../helpers/sdk.js';

let dev: DevProcess;
let novu: Novu;

beforeAll(async () => {
  dev = await startDev({ args: ['--no-save-profile', '--quiet'] });
  novu = novuClient(dev.baseUrl, dev.apiKey);
});
afterAll(async () => {
  await dev?.stop();
});

const FRAME = '<html><body><div class="frame">Hello {{subscriber.firstName}}<main>{{ content }}</main><footer>ACME Inc.</footer></div></body></html>';

describe('the layout operations through the SDK', () => {
  it('creates, reads by layoutId and by _id, lists with query/order/pagination, updates, duplicates, previews and deletes', async () => {
    const created = (await novu.layouts.create({ layoutId: 'brand', name: 'Brand frame' })).result;
    expect(created).toMatchObject({ layoutId: 'brand', name: 'Brand frame', isDefault: false, isTranslationEnabled: false, type: 'BRIDGE' });
    expect(created.id).toMatch(/^[0-9a-f]{24}$/);
    expect(created.slug).toMatch(/^brand-frame_ly_[0-9a-zA-Z]+$/);
    expect(created.controls.values.email?.editorType).toBe('block');

    // Every environment has its default layout, which the first call made.
    const all = (await novu.layouts.list({})).result;
    expect(all.totalCount).toBe(2);
    const def = all.layouts.find((l) => l.isDefault)!;
    expect(def.layoutId).toBe('default-layout');
    expect((await novu.layouts.retrieve(created.id)).result.layoutId).toBe('brand');
    expect((await novu.layouts.retrieve('brand')).result.id).toBe(created.id);

    const taken = await sdkFailure(novu.layouts.create({ layoutId: 'brand', name: 'Again' }));
    expect(taken.status).toBe(409);

    const updated = (await novu.layouts.update({ name: 'Brand', controlValues: { email: { body: FRAME, editorType: 'html' } } }, 'brand')).result;
    expect(updated.name).toBe('Brand');
    expect(updated.controls.values.email).toEqual({ body: FRAME, editorType: 'html' });
    const noContent = await sdkFailure(
      novu.layouts.update({ name: 'Brand', controlValues: { email: { body: '<html><body>no slot</body></html>', editorType: 'html' } } }, 'brand'),
    );
    expect(noContent).toMatchObject({ status: 400, body: { message: 'The layout body should contain the "content" variable' } });
    const notHtml = await sdkFailure(novu.layouts.update({ name: 'Brand', controlValues: { email: { body: '{{content}}', editorType: 'html' } } }, 'brand'));
    expect(notHtml.body.message).toBe('Content must be a valid HTML content');
    expect((await sdkFailure(novu.layouts.update({ name: 'X' }, 'nope'))).status).toBe(404);

    const copy = (await novu.layouts.duplicate({ name: 'Brand Copy' }, 'brand')).result;
    expect(copy).toMatchObject({ layoutId: 'brand-copy', name: 'Brand Copy', isDefault: false });
    expect(copy.controls.values.email).toEqual({ body: FRAME, editorType: 'html' });

    const found = (await novu.layouts.list({ query: 'brand', orderBy: 'name', orderDirection: 'ASC', limit: 1, offset: 1 })).result;
    expect(found.totalCount).toBe(2);
    expect(found.layouts.map((l) => l.layoutId)).toEqual(['brand-copy']);

    const preview = (await novu.layouts.generatePreview({ previewPayload: { subscriber: { firstName: 'Ada' } } }, 'brand')).result;
    expect(preview.result?.type).toBe('email');
    expect(preview.result?.preview?.body).toContain('Hello Ada');
    expect(preview.result?.preview?.body).toContain('<footer>ACME Inc.</footer>');
    expect(preview.previewPayloadExample.subscriber?.firstName).toBe('Ada');

    const refused = await sdkFailure(novu.layouts.delete(def.layoutId));
    expect(refused.status).toBe(409);
    await novu.layouts.delete('brand-copy');
    expect((await sdkFailure(novu.layouts.retrieve('brand-copy'))).status).toBe(404);
  });
});

describe('a layout wraps an email step', () => {
  it('in the delivered email and in the step preview; usage lists the workflow; null means no layout', async () => {
    await novu.layouts.create({ layoutId: 'news-frame', name: 'News frame' });
    await novu.layouts.update({ name: 'News frame', controlValues: { email: { body: FRAME, editorType: 'html' } } }, 'news-frame');
    await novu.workflows.create({
      workflowId: 'news',
      name: 'News',
      active: true,
      steps: [
        { name: 'Mail', type: 'email', controlValues: { subject: 'News', body: '<p>Issue {{payload.n}}</p>', editorType: 'html', layoutId: 'news-frame' } },
      ],
    });
    const usage = (await novu.layouts.usage('news-frame')).result;
    expect(usage.workflows).toEqual([{ name: 'News', workflowId: 'news' }]);

    const t = await novu.trigger({ workflowId: 'news', to: { subscriberId: 'lay-1', firstName: 'Grace', email: 'grace@example.com' }, payload: { n: 7 } });
    const waited = await api(
      dev,
      'GET',
      `/v1/svc-dev/messages/wait?transactionId=${t.result.transactionId}&channel=email&since=1970-01-01T00:00:00.000Z&holdMs=20000`,
    );
    expect(waited.status).toBe(200);
    const html = waited.body.data.content as string;
    expect(html).toMatch(/<div class="frame">Hello Grace<main><p>Issue 7<\/p><\/main><footer>ACME Inc.<\/footer><\/div>/);

    const wf = (await novu.workflows.get('news')).result;
    const preview = (
      await novu.workflows.steps.generatePreview({
        workflowId: 'news',
        stepId: wf.steps[0]!.stepId,
        generatePreviewRequestDto: { previewPayload: { payload: { n: 3 } } },
      })
    ).result;
    const body = (preview.result as { preview?: { body?: string } }).preview?.body ?? '';
    expect(body).toContain('<main><p>Issue 3</p></main><footer>ACME Inc.</footer>');

    const bare = (
      await novu.workflows.steps.generatePreview({
        workflowId: 'news',
        stepId: wf.steps[0]!.stepId,
        generatePreviewRequestDto: { controlValues: { subject: 'News', body: '<p>Bare</p>', editorType: 'html', layoutId: null } },
      })
    ).result;
    expect((bare.result as { preview?: { body?: string } }).preview?.body).toBe('<p>Bare</p>');
  });
});

describe("the environment's default layout", () => {
  it('wraps a block-editor email step that names no layout, as changed through the API', async () => {
    const DEFAULT = '<html><body><header>Default frame</header>{{content}}</body></html>';
    await novu.layouts.update({ name: 'Default Layout', controlValues: { email: { body: DEFAULT, editorType: 'html' } } }, 'default-layout');
    const doc = JSON.stringify({ type: 'doc', content: [{ type: 'paragraph', content: [{ type: 'text', text: 'Plain news' }] }] });
    await novu.workflows.create({
      workflowId: 'plain-news',
      name: 'Plain news',
      active: true,
      steps: [{ name: 'Mail', type: 'email', controlValues: { subject: 'News', body: doc } }],
    });
    const t = await novu.trigger({ workflowId: 'plain-news', to: { subscriberId: 'lay-2', email: 'lay2@example.com' } });
    const waited = await api(
      dev,
      'GET',
      `/v1/svc-dev/messages/wait?transactionId=${t.result.transactionId}&channel=email&since=1970-01-01T00:00:00.000Z&holdMs=20000`,
    );
    expect(waited.body.data.content).toMatch(/^<html><body><header>Default frame<\/header>.*Plain news.*<\/body><\/html>$/s);
    expect((await novu.layouts.usage('default-layout')).result.workflows).toEqual([]);
  });
});
