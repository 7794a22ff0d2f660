// Seed files: JSON or YAML, validated with errors naming the field, environments with their own keys.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ServiceInputError } from '../../src/server/errors.js';
import { loadSeedFile } from '../../src/server/seed/load.js';
import { NO_CONTENT } from '../../src/server/seed/apply.js';
import { SeedContent } from '../../src/server/seed/schema.js';
import { testService } from '../helpers/service.js';

const dir = mkdtempSync(join(tmpdir(), 'svc-seed-'));
const write = (name: string, text: string) => {
  const f = join(dir, name);
  writeFileSync(f, text);
  return f;
};

const yaml = `
workflows:
  - workflowId: hello
    name: Hello
    active: true
    steps:
      - name: Inbox
        type: in_app
        controlValues:
          body: "Hello {{ subscriber.firstName }}"
subscribers:
  - subscriberId: zed
    firstName: Zed
topics:
  - key: all
    subscribers: [zed]
environments:
  - name: Staging
    apiKey: sk_staging_seed_key
    integrations:
      - identifier: mg
        providerId: mailgun
        channel: email
`;

describe('seed files', () => {
  it('an empty seed is what the schema reads `{}` as (an environment created through the API starts from it, without zod)', () => {
    expect(NO_CONTENT).toEqual(SeedContent.parse({}));
  });

  const seed = loadSeedFile(write('seed.yaml', yaml));
  const svc = testService({ empty: true, seed });
  afterAll(() => svc.close());

  it('loads YAML into the default environment and creates seeded environments with their keys', async () => {
    const r = await svc.request('POST', '/v1/events/trigger', { body: { name: 'hello', to: { type: 'Topic', topicKey: 'all' } } });
    expect(r.body.data.status).toBe('processed');
    await svc.runner.idle();
    // The seeded environment delivers in-app through the service's own integration, rendered.
    const [m] = (await svc.request('GET', '/v1/messages?subscriberId=zed')).body.data;
    expect(m).toMatchObject({ channel: 'in_app', content: 'Hello Zed', providerId: 'svc', status: 'sent' });
    const staging = await svc.request('GET', '/v1/integrations/active', { key: 'sk_staging_seed_key' });
    expect(staging.status).toBe(200);
    expect(staging.body.data.filter((i: any) => i._environmentId !== svc.environment.id).map((i: any) => i.identifier)).toEqual(['svc-in-app', 'mg']);
    // The default environment was --empty: its workflows are only the seeded one.
    expect((await svc.request('GET', '/v2/workflows/welcome')).status).toBe(404);
  });

  it("names the bad field of an invalid file (the service's input error; svc dev makes it exit 2)", () => {
    const bad = write('bad.json', JSON.stringify({ workflows: [{ workflowId: 'x', name: 'X', steps: [{ name: 'S', type: 'fax' }] }], colour: 1 }));
    let err: unknown;
    try {
      loadSeedFile(bad);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ServiceInputError);
    expect((err as Error).message).toMatch(/workflows\.0\.steps\.0\.type/);
    expect((err as Error).message).toMatch(/colour/);
    expect(() => loadSeedFile(write('broken.json', '{'))).toThrow(/--seed: invalid JSON in .*broken.json at line 1, column 2/);
    expect(() => loadSeedFile(join(dir, 'missing.yaml'))).toThrow(/^--seed: cannot read .*missing.yaml/);
  });
});
