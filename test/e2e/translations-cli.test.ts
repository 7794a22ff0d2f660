// `svc translations pull DIR | push DIR` against the real `svc dev`, with the built binary: pull writes
// one master JSON file per locale, push imports an edited folder back (what a delivery then renders),
// and a folder with a bad file is refused whole (exit 2 naming it, nothing sent).
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { svcBin } from '../helpers/bin.js';
import { api, startDev, type DevProcess } from '../helpers/dev.js';

let dev: DevProcess;
beforeAll(async () => {
  dev = await startDev({ args: ['--no-save-profile', '--quiet'] });
  const step = { name: 'Mail', type: 'email', controlValues: { subject: '{{t.title}}', body: '<p>{{t.body.text}}</p>' } };
  expect((await api(dev, 'POST', '/v2/workflows', { workflowId: 'cli-tr', name: 'CLI translated', active: true, steps: [step] })).status).toBe(201);
  for (const [locale, content] of [
    ['en_US', { title: 'Hello', body: { text: 'Welcome' } }],
    ['de_DE', { title: 'Hallo', body: { text: 'Willkommen' } }],
  ] as const) {
    expect((await api(dev, 'POST', '/v2/translations', { resourceId: 'cli-tr', resourceType: 'workflow', locale, content })).status).toBe(200);
  }
});
afterAll(async () => {
  await dev?.stop();
});

async function svc(args: string[]) {
  const r = await svcBin([...args, '-o', 'json'], { env: { SVC_BASE_URL: dev.baseUrl, SVC_API_KEY: dev.apiKey } });
  return { code: r.exitCode, stdout: String(r.stdout), stderr: String(r.stderr) };
}

const readJson = (file: string) => JSON.parse(readFileSync(file, 'utf8'));

describe('svc translations pull and push', () => {
  it('pull writes each locale as the master JSON; push brings an edited folder back', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-tr-'));
    const pulled = await svc(['translations', 'pull', join(dir, 'locales')]);
    expect(pulled.code, pulled.stderr).toBe(0);
    expect(JSON.parse(pulled.stdout).map((r: { locale: string }) => r.locale)).toEqual(['de_DE', 'en_US']);
    expect(readdirSync(join(dir, 'locales')).sort()).toEqual(['de_DE.json', 'en_US.json']);
    expect(readJson(join(dir, 'locales', 'de_DE.json'))).toEqual({ workflows: { 'cli-tr': { title: 'Hallo', body: { text: 'Willkommen' } } }, layouts: {} });

    // Edit one locale, add another, and push the folder back.
    const de = readJson(join(dir, 'locales', 'de_DE.json'));
    de.workflows['cli-tr'].title = 'Guten Tag';
    writeFileSync(join(dir, 'locales', 'de_DE.json'), JSON.stringify(de));
    writeFileSync(join(dir, 'locales', 'fr_FR.json'), JSON.stringify({ workflows: { 'cli-tr': { title: 'Bonjour', body: { text: 'Bienvenue' } } } }));
    writeFileSync(join(dir, 'locales', 'README.md'), 'not a locale file: left alone');
    const pushed = await svc(['translations', 'push', join(dir, 'locales')]);
    expect(pushed.code, pushed.stderr).toBe(0);
    expect(JSON.parse(pushed.stdout)).toEqual([
      { locale: 'de_DE', file: 'de_DE.json', resources: 1, imported: ['cli-tr'], failed: [] },
      { locale: 'en_US', file: 'en_US.json', resources: 1, imported: ['cli-tr'], failed: [] },
      { locale: 'fr_FR', file: 'fr_FR.json', resources: 1, imported: ['cli-tr'], failed: [] },
    ]);
    expect((await api(dev, 'GET', '/v2/translations/workflow/cli-tr/de_DE')).body.data.content.title).toBe('Guten Tag');

    // The roundtrip: pulling again gives back what was pushed.
    const again = await svc(['translations', 'pull', join(dir, 'again')]);
    expect(again.code, again.stderr).toBe(0);
    for (const l of ['de_DE', 'en_US', 'fr_FR']) {
      expect(readJson(join(dir, 'again', `${l}.json`)).workflows).toEqual(
        l === 'fr_FR' ? { 'cli-tr': { title: 'Bonjour', body: { text: 'Bienvenue' } } } : readJson(join(dir, 'locales', `${l}.json`)).workflows,
      );
    }

    // And a delivery to a French subscriber reads what was pushed.
    await api(dev, 'POST', '/v2/subscribers', { subscriberId: 'cli-fr', email: 'fr@example.com', locale: 'fr_FR' });
    const t = await api(dev, 'POST', '/v1/events/trigger', { name: 'cli-tr', to: 'cli-fr' });
    const m = await api(dev, 'GET', `/v1/svc-dev/messages/wait?transactionId=${t.body.data.transactionId}&since=2000-01-01T00:00:00Z&holdMs=20000`);
    expect(m.body.data).toMatchObject({ subject: 'Bonjour' });
  });

  it('--locale pulls just that locale', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-tr-'));
    const r = await svc(['translations', 'pull', dir, '--locale', 'en_US']);
    expect(r.code, r.stderr).toBe(0);
    expect(readdirSync(dir)).toEqual(['en_US.json']);
    expect((await svc(['translations', 'pull', dir, '--locale', 'english'])).code).toBe(2);
  });

  it.each([
    ['english.json', '{"workflows": {}}', /english\.json: the file name is not a locale/],
    ['de_DE.json', '{"workflows": {"cli-tr": ', /de_DE\.json: not JSON/],
    ['it_IT.json', '{"workflows": {"cli-tr": "Ciao"}}', /it_IT\.json: workflows\.cli-tr must be an object/],
  ])('push refuses a folder holding %s: exit 2 naming it, nothing sent', async (name, text, message) => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-tr-'));
    // A good file beside it is not sent either.
    writeFileSync(join(dir, 'en_US.json'), JSON.stringify({ workflows: { 'cli-tr': { title: 'NOT SENT' } } }));
    writeFileSync(join(dir, name), text);
    const r = await svc(['translations', 'push', dir]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect((await api(dev, 'GET', '/v2/translations/workflow/cli-tr/en_US')).body.data.content.title).not.toBe('NOT SENT');
  });

  it('push names the resources the service has not got (exit 6), after importing the rest', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-tr-'));
    writeFileSync(join(dir, 'es_ES.json'), JSON.stringify({ workflows: { 'cli-tr': { title: 'Hola' }, 'no-such-workflow': { title: 'x' } } }));
    const r = await svc(['translations', 'push', dir]);
    expect(r.code).toBe(6);
    expect(r.stderr).toContain('es_ES:no-such-workflow');
    expect((await api(dev, 'GET', '/v2/translations/workflow/cli-tr/es_ES')).body.data.content.title).toBe('Hola');
  });
});
