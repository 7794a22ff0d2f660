// What the README and docs/local-service.md tell an app developer about the Inbox holds: the
// README's subscriberHash code, run as written, computes the hash a session with HMAC on accepts;
// the docs no longer say there are no subscriber preference routes or that Bearer is refused, and
// they name --inbox-origin.
import { readFileSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_KEY } from '../../helpers/service.js';
import { type Listening, listening } from './helpers.js';

const readme = readFileSync(join(process.cwd(), 'README.md'), 'utf8');
const localService = readFileSync(join(process.cwd(), 'docs/local-service.md'), 'utf8');

/** The README's code block (of `lang`) that mentions `marker`, as written. */
function block(lang: string, marker: string): string {
  const fence = '```';
  const blocks = [...readme.matchAll(new RegExp(`${fence}${lang}\\n([\\s\\S]*?)${fence}`, 'g'))].map((m) => m[1]!);
  const found = blocks.find((b) => b.includes(marker));
  expect(found, `a \`\`\`${lang} block with ${marker} in README.md`).toBeDefined();
  return found!;
}

let s: Listening;
beforeAll(async () => {
  s = await listening();
});
afterAll(() => s.close());

describe("the README's subscriberHash", () => {
  it('is the hash a session with HMAC on accepts', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'svc-readme-')), 'hash.mjs');
    writeFileSync(file, block('js', 'subscriberHash'));
    const before = process.env.NOVU_SECRET_KEY;
    process.env.NOVU_SECRET_KEY = TEST_KEY;
    let hash: string;
    try {
      const mod = (await import(pathToFileURL(file).href)) as { subscriberHash(id: string): string };
      hash = mod.subscriberHash('ada');
    } finally {
      if (before === undefined) delete process.env.NOVU_SECRET_KEY;
      else process.env.NOVU_SECRET_KEY = before;
    }
    const active = await s.svc.request('GET', '/v1/integrations/active');
    const inApp = active.body.data.find((i: { channel: string }) => i.channel === 'in_app');
    expect((await s.svc.request('PUT', `/v1/integrations/${inApp._id}`, { body: { credentials: { hmac: true } } })).status).toBe(200);
    expect((await s.inbox('POST', '/session', undefined, { applicationIdentifier: s.appId, subscriberId: 'ada' })).status).toBe(400);
    const ok = await s.inbox('POST', '/session', undefined, { applicationIdentifier: s.appId, subscriberId: 'ada', subscriberHash: hash });
    expect(ok.status).toBe(201);
    // The page's snippet passes it to <Inbox/>.
    expect(block('tsx', 'subscriberHash')).toMatch(/<Inbox [^>]*subscriberHash=/);
  });
});

describe('docs/local-service.md on the Inbox', () => {
  it('says what is served, and names --inbox-origin', () => {
    expect(localService).not.toMatch(/no subscriber preference routes/);
    expect(localService).not.toMatch(/`Bearer` is refused/);
    expect(localService).toContain('--inbox-origin');
    expect(localService).toContain('PATCH /v2/subscribers/{id}/preferences');
    expect(localService).toMatch(/`Bearer` is the Inbox API's/);
  });
});
