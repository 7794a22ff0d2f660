// svc layouts list|get|create|update|delete|preview through the real HTTP core against a strict
// loopback stub: what each sends, what a terminal and a script see, and bad input refused unsent.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { ID, refusesInput, sendsRequest, stubbedService } from '../../helpers/command-test.js';
import { runSvc } from '../../helpers/run.js';

const svc = stubbedService();
const AT = '2026-11-22T10:00:00.000Z';
const FRAME = '<html><body><h1>ACME</h1>{{content}}</body></html>';

const layout = (over: Record<string, unknown> = {}) => ({
  _id: ID,
  layoutId: 'brand',
  slug: 'brand_ly_1',
  name: 'Brand',
  isDefault: false,
  isTranslationEnabled: false,
  createdAt: AT,
  updatedAt: AT,
  origin: 'svc-cloud',
  type: 'BRIDGE',
  controls: { values: { email: { body: FRAME, editorType: 'html' } } },
  ...over,
});

const dir = mkdtempSync(join(tmpdir(), 'svc-layouts-'));
const frameFile = join(dir, 'frame.html');
writeFileSync(frameFile, FRAME);

sendsRequest(svc, [
  [
    'layouts list with search, order and paging',
    {
      argv: ['layouts', 'list', '--search', 'brand', '--order-by', 'name', '--order-direction', 'ASC', '--limit', '5', '--offset', '10'],
      method: 'GET',
      path: '/v2/layouts',
      query: { query: ['brand'], orderBy: ['name'], orderDirection: ['ASC'], limit: ['5'], offset: ['10'] },
      answer: { data: { layouts: [], totalCount: 0 } },
    },
  ],
  ['layouts get', { argv: ['layouts', 'get', 'brand'], method: 'GET', path: '/v2/layouts/brand', answer: { data: layout() } }],
  ['layouts delete --yes', { argv: ['layouts', 'delete', 'brand', '--yes'], method: 'DELETE', path: '/v2/layouts/brand', status: 204 }],
  [
    'layouts update with a body from a file (the editor read from it)',
    {
      argv: ['layouts', 'update', 'brand', '--name', 'Brand 2', '--body', `@${frameFile}`],
      method: 'PUT',
      path: '/v2/layouts/brand',
      body: { name: 'Brand 2', controlValues: { email: { body: FRAME, editorType: 'html' } } },
      answer: { data: layout({ name: 'Brand 2' }) },
    },
  ],
  [
    'layouts update --clear-body',
    {
      argv: ['layouts', 'update', 'brand', '--name', 'Brand', '--clear-body'],
      method: 'PUT',
      path: '/v2/layouts/brand',
      body: { name: 'Brand', controlValues: null },
      answer: { data: layout({ controls: { values: {} } }) },
    },
  ],
  [
    'layouts preview with a subscriber',
    {
      argv: ['layouts', 'preview', 'brand', '--subscriber', '{"firstName":"Ada"}', '-o', 'json'],
      method: 'POST',
      path: '/v2/layouts/brand/preview',
      body: { previewPayload: { subscriber: { firstName: 'Ada' } } },
      status: 201,
      answer: { data: { previewPayloadExample: { subscriber: { firstName: 'Ada' } }, result: { type: 'email', preview: { body: '<p>x</p>' } } } },
    },
  ],
]);

refusesInput(svc, [
  [['layouts', 'list', '--limit', '101'], '--limit'],
  [['layouts', 'list', '--order-by', 'size'], '--order-by'],
  [['layouts', 'update', 'brand'], '--name'],
  [['layouts', 'update', 'brand', '--body', 'x', '--clear-body'], '--clear-body'],
  [['layouts', 'create', 'brand'], '--name'],
  [['layouts', 'preview', 'brand', '--subscriber', '[1]'], '--subscriber'],
]);

test('delete without a terminal and without --yes sends nothing: exit 2, naming --yes', async () => {
  const r = await runSvc(['layouts', 'delete', 'brand'], { env: svc.env });
  expect(r.code).toBe(2);
  expect(r.stderr).toContain('--yes');
  expect(svc.stub.requests).toHaveLength(0);
});

test('create with a body creates the layout, then stores its body; a script gets the layout as JSON', async () => {
  svc.stub.on('POST', '/v2/layouts', { status: 201, body: { data: layout({ controls: { values: {} } }) } });
  svc.stub.on('PUT', '/v2/layouts/brand', { body: { data: layout() } });
  const r = await runSvc(['layouts', 'create', 'brand', '--name', 'Brand', '--body', '-', '-o', 'json'], { env: svc.env, stdin: FRAME });
  expect(r.code, r.stderr).toBe(0);
  expect(svc.stub.requests.map((q) => [q.method, q.path, q.body])).toEqual([
    ['POST', '/v2/layouts', { layoutId: 'brand', name: 'Brand' }],
    ['PUT', '/v2/layouts/brand', { name: 'Brand', controlValues: { email: { body: FRAME, editorType: 'html' } } }],
  ]);
  expect(JSON.parse(r.stdout)).toMatchObject({ layoutId: 'brand', controls: { values: { email: { body: FRAME } } } });
});

test('update without --name keeps the layout its own name (the service requires one)', async () => {
  svc.stub.on('GET', '/v2/layouts/brand', { body: { data: layout({ name: 'Kept' }) } });
  svc.stub.on('PUT', '/v2/layouts/brand', { body: { data: layout({ name: 'Kept' }) } });
  const r = await runSvc(['layouts', 'update', 'brand', '--body', '{"type":"doc","content":[]}'], { env: svc.env });
  expect(r.code, r.stderr).toBe(0);
  expect(svc.stub.requests[1]!.body).toEqual({ name: 'Kept', controlValues: { email: { body: '{"type":"doc","content":[]}', editorType: 'block' } } });
});

test('the list fits 80 columns and says where the next page starts', async () => {
  svc.stub.on('GET', '/v2/layouts', {
    body: {
      data: {
        layouts: [layout(), layout({ _id: '6761f0c2a3b4c5d6e7f80913', layoutId: 'default-layout', name: 'Default Layout', isDefault: true })],
        totalCount: 3,
      },
    },
  });
  const r = await runSvc(['layouts', 'list', '--limit', '2', '-o', 'table'], { env: { ...svc.env, COLUMNS: '80' } });
  expect(r.code, r.stderr).toBe(0);
  expect(r.stdout).toMatch(/LAYOUT ID\s+NAME\s+DEFAULT/);
  expect(r.stdout).toMatch(/default-layout\s+Default Layout\s+yes/);
  for (const line of r.stdout.split('\n')) expect(line.length).toBeLessThanOrEqual(80);
  expect(r.stderr).toContain('1-2 of 3; next page: --offset 2');
});
