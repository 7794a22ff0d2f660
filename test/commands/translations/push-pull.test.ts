// svc translations push|pull through the real HTTP core against a strict loopback stub: push sends one
// import per locale file with the file's master JSON, and refuses a folder with a bad file before any
// request; pull asks for the locales it was given and writes their master JSON as DIR/<locale>.json.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { refusesInput, sendsRequest, stubbedService } from '../../helpers/command-test.js';
import { runSvc } from '../../helpers/run.js';

const svc = stubbedService();

function folder(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'svc-tr-cmd-'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

const master = { workflows: { welcome: { title: 'Hallo', nested: { k: 'v' } } }, layouts: {} };

sendsRequest(svc, [
  [
    'push one locale file',
    {
      argv: ['translations', 'push', folder({ 'de_DE.json': JSON.stringify(master), 'notes.txt': 'left alone' })],
      method: 'POST',
      path: '/v2/translations/master-json',
      body: { locale: 'de_DE', masterJson: master },
      answer: { data: { success: true, message: 'Successfully imported translations for 1 resource: welcome', successful: ['welcome'], failed: [] } },
    },
  ],
]);

refusesInput(svc, [
  [['translations', 'push', folder({ 'en_US.json': '{}', 'german.json': '{}' })], 'german.json: the file name is not a locale'],
  [['translations', 'push', folder({ 'en_US.json': '{}', 'de_DE.json': '{"workflows": ' })], 'de_DE.json: not JSON'],
  [['translations', 'push', folder({ 'en_US.json': '[1]' })], 'en_US.json: expected a master JSON object'],
  [['translations', 'push', folder({ 'en_US.json': '{"workflows": {"welcome": "Hi"}}' })], 'en_US.json: workflows.welcome must be an object'],
  [['translations', 'push', folder({ 'notes.txt': 'x' })], 'has no <locale>.json files'],
  [['translations', 'push', join(tmpdir(), 'svc-no-such-folder-tr')], 'DIR: cannot read the folder'],
  [['translations', 'pull', tmpdir(), '--locale', 'en'], '--locale: expected a locale in language_REGION form'],
]);

test('pull writes the master JSON of each --locale to DIR/<locale>.json', async () => {
  svc.stub.on('GET', '/v2/translations/master-json', { status: 200, body: { data: master } });
  const dir = mkdtempSync(join(tmpdir(), 'svc-tr-cmd-'));
  const r = await runSvc(['translations', 'pull', dir, '--locale', 'de_DE', '-o', 'json'], { env: svc.env });
  expect(r.code, r.stderr).toBe(0);
  expect(svc.stub.requests.map((q) => `${q.path}?${q.query}`)).toEqual(['/v2/translations/master-json?locale=de_DE']);
  expect(JSON.parse(readFileSync(join(dir, 'de_DE.json'), 'utf8'))).toEqual(master);
  expect(JSON.parse(r.stdout)).toEqual([{ locale: 'de_DE', file: join(dir, 'de_DE.json'), workflows: 1, layouts: 0 }]);
});
