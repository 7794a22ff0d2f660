// Layouts and translations between environments, against the built `svc dev`, through the API (raw
// answers: the SDK's typed diff refuses the service's own resource types): a layout and a workflow's
// translation made in the source appear in the diff (added, then modified with the changed fields),
// publish copies them into the target, and the target's delivery is framed by the layout in the
// subscriber's language. A deleted layout leaves the email steps that named it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, type DevProcess, startDev } from '../helpers/dev.js';

let dev: DevProcess;
let source: { id: string; key: string };
let target: { id: string; key: string };

const as = (key: string) => ({ baseUrl: dev.baseUrl, apiKey: key });
const FRAME = '<html><body><div class="frame">Dear {{subscriber.firstName}}<main>{{ content }}</main></div></body></html>';

beforeAll(async () => {
  dev = await startDev({ args: ['--no-save-profile', '--quiet'] });
  const s = (await api(dev, 'POST', '/v1/environments', { name: 'feature', color: '#33aa66' })).body.data;
  source = { id: s._id, key: s.apiKeys[0].key };
  const t = (await api(dev, 'POST', '/v1/environments', { name: 'staging', color: '#3366ff', parentId: source.id })).body.data;
  target = { id: t._id, key: t.apiKeys[0].key };
});
afterAll(async () => {
  await dev?.stop();
});

const diff = async () => {
  const r = await api(as(source.key), 'POST', `/v2/environments/${target.id}/diff`, {});
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.data;
};
const ofType = (d: { resources: any[] }, type: string) => d.resources.filter((r) => r.resourceType === type);

describe('layouts and translations between environments', () => {
  it('diff lists them, publish copies them, and a delivery in the target renders with both', async () => {
    const src = as(source.key);
    expect((await api(src, 'POST', '/v2/layouts', { layoutId: 'welcome-frame', name: 'Welcome frame' })).status).toBe(201);
    const framed = await api(src, 'PUT', '/v2/layouts/welcome-frame', { name: 'Welcome frame', controlValues: { email: { body: FRAME, editorType: 'html' } } });
    expect(framed.status, JSON.stringify(framed.body)).toBe(200);
    const wf = await api(src, 'POST', '/v2/workflows', {
      workflowId: 'welcome',
      name: 'Welcome',
      active: true,
      steps: [
        {
          name: 'Mail',
          type: 'email',
          controlValues: { subject: '{{t.title}}', body: '<p>{{t.greeting}}</p>', editorType: 'html', layoutId: 'welcome-frame' },
        },
      ],
    });
    expect(wf.status, JSON.stringify(wf.body)).toBe(201);
    const tr = await api(src, 'POST', '/v2/translations', {
      resourceId: 'welcome',
      resourceType: 'workflow',
      locale: 'de_DE',
      content: { title: 'Willkommen', greeting: 'Hallo' },
    });
    expect(tr.status, JSON.stringify(tr.body)).toBe(200);

    const before = await diff();
    expect(ofType(before, 'layout')).toEqual([
      expect.objectContaining({
        sourceResource: expect.objectContaining({ id: 'welcome-frame', name: 'Welcome frame' }),
        targetResource: null,
        changes: [expect.objectContaining({ resourceType: 'layout', action: 'added' })],
        summary: { added: 1, modified: 0, deleted: 0, unchanged: 0 },
      }),
    ]);
    expect(ofType(before, 'localization_group')).toEqual([
      expect.objectContaining({
        sourceResource: expect.objectContaining({ id: 'welcome', locale: 'de_DE', resourceType: 'workflow' }),
        targetResource: null,
        changes: [expect.objectContaining({ resourceType: 'localization_group', action: 'added' })],
      }),
    ]);
    expect(before.summary).toEqual({ totalEntities: 3, totalChanges: 3, hasChanges: true });

    const published = await api(src, 'POST', `/v2/environments/${target.id}/publish`, {});
    expect(published.status, JSON.stringify(published.body)).toBe(200);
    const byType = Object.fromEntries(published.body.data.results.map((r: { resourceType: string }) => [r.resourceType, r]));
    expect(byType.layout.successful).toEqual([{ resourceType: 'layout', resourceId: 'welcome-frame', resourceName: 'Welcome frame', action: 'created' }]);
    expect(byType.localization_group.successful).toEqual([
      expect.objectContaining({ resourceType: 'localization_group', resourceId: 'welcome:de_DE', action: 'created' }),
    ]);
    expect(published.body.data.summary).toEqual({ resources: 3, successful: 3, failed: 0, skipped: 0 });
    expect((await diff()).summary.hasChanges).toBe(false);

    // The target's own key: its layout, its translation, and a delivery that uses both.
    const tgt = as(target.key);
    expect((await api(tgt, 'GET', '/v2/layouts/welcome-frame')).body.data).toMatchObject({ layoutId: 'welcome-frame', name: 'Welcome frame' });
    expect((await api(tgt, 'GET', '/v2/translations/workflow/welcome/de_DE')).body.data).toMatchObject({ content: { title: 'Willkommen' } });
    await api(tgt, 'POST', '/v2/subscribers', { subscriberId: 'kim', firstName: 'Kim', email: 'kim@example.com', locale: 'de_DE' });
    const t = await api(tgt, 'POST', '/v1/events/trigger', { name: 'welcome', to: 'kim' });
    expect(t.status, JSON.stringify(t.body)).toBe(201);
    const waited = await api(
      tgt,
      'GET',
      `/v1/svc-dev/messages/wait?transactionId=${t.body.data.transactionId}&channel=email&since=1970-01-01T00:00:00.000Z&holdMs=20000`,
    );
    expect(waited.status).toBe(200);
    expect(waited.body.data.subject).toBe('Willkommen');
    expect(waited.body.data.content).toMatch(/<div class="frame">Dear Kim<main><p>Hallo<\/p><\/main><\/div>/);
  });

  it('a changed layout and translation show as modified with the fields that changed', async () => {
    const src = as(source.key);
    await api(src, 'PUT', '/v2/layouts/welcome-frame', { name: 'Welcome frame v2', controlValues: { email: { body: FRAME, editorType: 'html' } } });
    await api(src, 'POST', '/v2/translations', {
      resourceId: 'welcome',
      resourceType: 'workflow',
      locale: 'de_DE',
      content: { title: 'Hallo und willkommen', greeting: 'Hallo' },
    });
    const d = await diff();
    expect(ofType(d, 'layout')[0].changes).toEqual([
      expect.objectContaining({ action: 'modified', diffs: { previous: { name: 'Welcome frame' }, new: { name: 'Welcome frame v2' } } }),
    ]);
    expect(ofType(d, 'localization_group')[0].changes).toEqual([
      expect.objectContaining({ action: 'modified', diffs: { previous: { title: 'Willkommen' }, new: { title: 'Hallo und willkommen' } } }),
    ]);
  });

  it("a deleted layout leaves the email steps that named it (they take the environment's default)", async () => {
    const src = as(source.key);
    await api(src, 'POST', '/v2/layouts', { layoutId: 'gone-frame', name: 'Gone frame' });
    const made = await api(src, 'POST', '/v2/workflows', {
      workflowId: 'framed',
      name: 'Framed',
      active: true,
      steps: [{ name: 'Mail', type: 'email', controlValues: { subject: 'Hi', body: '<p>Hi</p>', editorType: 'html', layoutId: 'gone-frame' } }],
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const step = async () => (await api(src, 'GET', '/v2/workflows/framed')).body.data.steps[0].controlValues;
    expect((await step()).layoutId).toBe('gone-frame');
    expect((await api(src, 'DELETE', '/v2/layouts/gone-frame')).status).toBe(204);
    const after = await step();
    expect(after).not.toHaveProperty('layoutId');
    expect(after).toMatchObject({ subject: 'Hi', body: '<p>Hi</p>' });
    expect((await api(src, 'GET', '/v2/layouts/gone-frame/usage')).status).toBe(404);
  });
});
