// Translations against the built `svc dev`, through the official SDK (@novu/api validates every answer
// with its own schemas): one locale of a workflow, its group, the master JSON and the file uploads;
// and what they change in a delivery: an email whose templates read `{{t.key}}` arrives in each
// subscriber's language, falling back to its language's other locale and then to en_US, in the
// captured message and in the step's preview alike.
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

const mailStep = (controlValues: Record<string, unknown>) => ({ name: 'Mail', type: 'email' as const, controlValues });
const file = (fileName: string, json: unknown) => ({ fileName, content: new TextEncoder().encode(JSON.stringify(json)) });

describe('translations through the SDK', () => {
  it('creates, reads, replaces and deletes one locale; the group lists the locales and turns the workflow on', async () => {
    await novu.workflows.create({ workflowId: 'tr-crud', name: 'Translated CRUD', steps: [mailStep({ subject: '{{t.subject}}', body: 'x' })] });
    expect((await novu.workflows.get('tr-crud')).result.isTranslationEnabled).toBe(false);

    const created = await novu.translations.create({ resourceId: 'tr-crud', resourceType: 'workflow', locale: 'en_US', content: { subject: 'Hello' } });
    expect(created).toMatchObject({ resourceId: 'tr-crud', resourceType: 'workflow', locale: 'en_US', content: { subject: 'Hello' } });
    expect((await novu.workflows.get('tr-crud')).result.isTranslationEnabled).toBe(true);

    const replaced = await novu.translations.create({ resourceId: 'tr-crud', resourceType: 'workflow', locale: 'en_US', content: { subject: 'Hi' } });
    expect(replaced.createdAt).toBe(created.createdAt);
    await novu.translations.create({ resourceId: 'tr-crud', resourceType: 'workflow', locale: 'fr_FR', content: { subject: 'Salut' } });
    const one = await novu.translations.retrieve({ resourceType: 'workflow', resourceId: 'tr-crud', locale: 'en_US' });
    expect(one.content).toEqual({ subject: 'Hi' });

    const group = await novu.translations.groups.retrieve('workflow', 'tr-crud');
    expect(group).toMatchObject({ resourceId: 'tr-crud', resourceType: 'workflow', resourceName: 'Translated CRUD', locales: ['en_US', 'fr_FR'] });

    await novu.translations.delete({ resourceType: 'workflow', resourceId: 'tr-crud', locale: 'fr_FR' });
    expect(await sdkFailure(novu.translations.retrieve({ resourceType: 'workflow', resourceId: 'tr-crud', locale: 'fr_FR' }))).toMatchObject({ status: 404 });
    expect(await sdkFailure(novu.translations.delete({ resourceType: 'workflow', resourceId: 'tr-crud', locale: 'fr_FR' }))).toMatchObject({ status: 404 });

    await novu.translations.groups.delete('workflow', 'tr-crud');
    expect(await sdkFailure(novu.translations.groups.retrieve('workflow', 'tr-crud'))).toMatchObject({ status: 404 });
    expect((await novu.workflows.get('tr-crud')).result.isTranslationEnabled).toBe(false);
  });

  it('deleting a workflow deletes its translations', async () => {
    const wf = { workflowId: 'tr-gone', name: 'Gone', steps: [mailStep({ subject: '{{t.s}}', body: 'x' })] };
    await novu.workflows.create(wf);
    await novu.translations.create({ resourceId: 'tr-gone', resourceType: 'workflow', locale: 'en_US', content: { s: 'Old' } });
    await novu.workflows.delete('tr-gone');
    await novu.workflows.create(wf);
    expect(await sdkFailure(novu.translations.retrieve({ resourceType: 'workflow', resourceId: 'tr-gone', locale: 'en_US' }))).toMatchObject({ status: 404 });
    expect((await novu.translations.master.retrieve('en_US')).workflows['tr-gone']).toBeUndefined();
  });

  it('refuses an unknown workflow, a locale not in language_REGION form and an unknown resource type', async () => {
    expect(
      await sdkFailure(novu.translations.create({ resourceId: 'no-such-wf', resourceType: 'workflow', locale: 'en_US', content: { a: 'b' } })),
    ).toMatchObject({ status: 404 });
    expect((await api(dev, 'POST', '/v2/translations', { resourceId: 'tr-crud', resourceType: 'workflow', locale: 'en', content: {} })).status).toBe(422);
    expect((await api(dev, 'GET', '/v2/translations/page/tr-crud/en_US')).status).toBe(422);
    expect(await sdkFailure(novu.translations.master.retrieve('english'))).toMatchObject({ status: 400 });
  });

  it('exports a locale as the master JSON and imports one, naming the resources it could not find', async () => {
    await novu.workflows.create({ workflowId: 'tr-master', name: 'Master', steps: [mailStep({ subject: '{{t.s}}', body: 'x' })] });
    const imported = await novu.translations.master.import({
      locale: 'es_ES',
      masterJson: { workflows: { 'tr-master': { s: 'Hola', nested: { k: 'v' } }, 'not-a-workflow': { s: 'x' } } },
    });
    expect(imported).toMatchObject({ success: false, successful: ['tr-master'], failed: ['not-a-workflow'] });
    const master = await novu.translations.master.retrieve('es_ES');
    expect(master).toEqual({ workflows: { 'tr-master': { s: 'Hola', nested: { k: 'v' } } }, layouts: {} });
    // Without a locale: the organisation's default, en_US.
    await novu.translations.create({ resourceId: 'tr-master', resourceType: 'workflow', locale: 'en_US', content: { s: 'Hello' } });
    expect((await novu.translations.master.retrieve()).workflows).toEqual({ 'tr-master': { s: 'Hello' } });
  });

  it('uploads a master JSON file named after its locale, and per-workflow files, reporting each bad file', async () => {
    await novu.workflows.create({ workflowId: 'tr-upload', name: 'Upload', steps: [mailStep({ subject: '{{t.s}}', body: 'x' })] });
    const master = await novu.translations.master.upload({ file: file('it_IT.json', { workflows: { 'tr-upload': { s: 'Ciao' } } }) });
    expect(master).toMatchObject({ success: true, successful: ['tr-upload'] });
    expect((await novu.translations.retrieve({ resourceType: 'workflow', resourceId: 'tr-upload', locale: 'it_IT' })).content).toEqual({ s: 'Ciao' });

    const files = [
      file('pt_BR.json', { s: 'Olá' }),
      file('nl_NL.json', { s: 'Hallo' }),
      { fileName: 'ja_JP.json', content: new TextEncoder().encode('{not json') },
      file('english.json', { s: 'Hi' }),
    ];
    const r = await novu.translations.upload({ resourceId: 'tr-upload', resourceType: 'workflow', files });
    expect(r.totalFiles).toBe(4);
    expect(r.successfulUploads).toBe(2);
    expect(r.failedUploads).toBe(2);
    expect(r.errors).toEqual([expect.stringContaining('ja_JP.json'), expect.stringContaining('english.json')]);
    expect((await novu.translations.groups.retrieve('workflow', 'tr-upload')).locales).toEqual(['it_IT', 'nl_NL', 'pt_BR']);
  });
});

describe('a translated workflow renders in the subscriber locale', () => {
  const locales = { 'de-sub': 'de_DE', 'at-sub': 'de_AT', 'fr-sub': 'fr_FR' } as const;

  beforeAll(async () => {
    await novu.workflows.create({
      workflowId: 'tr-welcome',
      name: 'Translated welcome',
      active: true,
      steps: [mailStep({ subject: '{{t.welcome.title}}', body: '<p>{{t.welcome.greeting}}</p><p>{{t.missing.key}}</p>' })],
    });
    await novu.translations.create({
      resourceId: 'tr-welcome',
      resourceType: 'workflow',
      locale: 'en_US',
      content: { welcome: { title: 'Welcome', greeting: 'Hello {{subscriber.firstName}}' } },
    });
    // Flat dotted keys are the same keys as nested ones.
    await novu.translations.create({
      resourceId: 'tr-welcome',
      resourceType: 'workflow',
      locale: 'de_DE',
      content: { 'welcome.title': 'Willkommen', welcome: { greeting: 'Hallo {{subscriber.firstName}}' } },
    });
    for (const [subscriberId, locale] of Object.entries(locales))
      await novu.subscribers.create({ subscriberId, firstName: 'Kim', email: `${subscriberId}@example.com`, locale });
  });

  async function delivered(subscriberId: string) {
    const t = await novu.trigger({ workflowId: 'tr-welcome', to: subscriberId });
    const waited = await api(
      dev,
      'GET',
      `/v1/svc-dev/messages/wait?transactionId=${t.result.transactionId}&channel=email&since=2000-01-01T00:00:00Z&holdMs=20000`,
    );
    expect(waited.status).toBe(200);
    return waited.body.data as { subject: string; content: string };
  }

  it.each([
    ['de-sub', 'Willkommen', 'Hallo Kim'],
    ['at-sub', 'Willkommen', 'Hallo Kim'],
    ['fr-sub', 'Welcome', 'Hello Kim'],
  ])('%s gets the email in its language', async (subscriberId, subject, greeting) => {
    const m = await delivered(subscriberId);
    expect(m.subject).toBe(subject);
    expect(m.content).toContain(greeting);
    // A key no locale has prints as its own path.
    expect(m.content).toContain('missing.key');
  });

  it('the step preview renders in the preview subscriber locale too', async () => {
    const preview = async (locale: string) => {
      const p = await novu.workflows.steps.generatePreview({
        workflowId: 'tr-welcome',
        stepId: 'mail',
        generatePreviewRequestDto: { previewPayload: { subscriber: { firstName: 'Kim', locale } } },
      });
      return p.result.result.preview as { subject: string; body: string };
    };
    expect((await preview('de_AT')).subject).toBe('Willkommen');
    expect((await preview('de_DE')).body).toContain('Hallo Kim');
    expect((await preview('fr_FR')).subject).toBe('Welcome');
  });
});
