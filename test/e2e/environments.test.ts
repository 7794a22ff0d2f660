// `svc environments` as a test suite uses it: the built binary against the real `svc dev`. A test file
// creates its own environment, works in it with its key (seeing nothing of the start environment's),
// and deletes it; the key is masked unless --show-secrets; against a service that is not svc dev the
// admin commands refuse with exit 5. Environments outlive a restart of a store on disk.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { svcBin as spawnSvc } from '../helpers/bin.js';
import { type DevProcess, startDev } from '../helpers/dev.js';
import { startStub } from '../helpers/stub.js';

let dev: DevProcess;
beforeAll(async () => {
  dev = await startDev({ args: ['--no-save-profile', '--quiet'] });
});
afterAll(async () => {
  await dev?.stop();
});

const as = (key: string, baseUrl = dev.baseUrl) => ({ env: { SVC_BASE_URL: baseUrl, SVC_API_KEY: key } });
/** The built binary; its output as text. */
async function svcBin(args: string[], opts: { env: Record<string, string> }) {
  const r = await spawnSvc(args, opts);
  return { exitCode: r.exitCode, stdout: String(r.stdout), stderr: String(r.stderr) };
}

describe('svc environments against svc dev', () => {
  it("creates a test file's own environment, whose key sees only its own records, and deletes it", async () => {
    const made = await svcBin(['environments', 'create', 'suite-a', '--show-secrets', '-o', 'json'], as(dev.apiKey));
    expect(made.exitCode, made.stderr).toBe(0);
    const env = JSON.parse(made.stdout) as { _id: string; identifier: string; apiKeys: { key: string }[] };
    const key = env.apiKeys[0]!.key;
    expect(key).toMatch(/^sk_/);
    expect(key).not.toBe(dev.apiKey);

    // The start environment's demo workflows and subscribers are not the new one's.
    const workflows = await svcBin(['workflow', 'list', '-o', 'json'], as(key));
    expect(workflows.exitCode, workflows.stderr).toBe(0);
    expect(JSON.parse(workflows.stdout)).toEqual([]);
    const ada = await svcBin(['subscribers', 'get', 'ada', '-o', 'json'], as(key));
    expect(ada.exitCode).toBe(5);
    expect((await svcBin(['subscribers', 'get', 'ada', '-o', 'json'], as(dev.apiKey))).exitCode).toBe(0);

    const listed = await svcBin(['environments', 'list', '-o', 'json'], as(key));
    const own = (JSON.parse(listed.stdout) as { _id: string; apiKeys: unknown[] }[]).find((e) => e._id === env._id);
    expect(own?.apiKeys).toHaveLength(1);
    expect(listed.stdout).not.toContain(dev.apiKey);

    const refused = await svcBin(['environments', 'delete', env._id], as(dev.apiKey));
    expect(refused.exitCode).toBe(2);
    const deleted = await svcBin(['environments', 'delete', 'suite-a', '--yes'], as(dev.apiKey));
    expect(deleted.exitCode, deleted.stderr).toBe(0);
    expect(deleted.stderr).toBe('deleted environment suite-a');
    const gone = await svcBin(['workflow', 'list'], as(key));
    expect(gone.exitCode).toBe(3);
    expect(gone.stderr).toContain('API Key not found');
  });

  it('prints the new key masked unless --show-secrets, in every format', async () => {
    for (const format of ['json', 'yaml', 'table']) {
      const r = await svcBin(['environments', 'create', `masked-${format}`, '-o', format], as(dev.apiKey));
      expect(r.exitCode, r.stderr).toBe(0);
      expect(r.stdout).toMatch(/sk_…[0-9a-f]{4}/);
      expect(r.stdout).not.toMatch(/sk_[0-9a-f]{12}/);
      expect(r.stderr).toBe(`created environment masked-${format}; --show-secrets prints its key`);
    }
    const shown = await svcBin(['environments', 'create', 'shown', '--show-secrets', '-o', 'json'], as(dev.apiKey));
    expect(JSON.parse(shown.stdout).apiKeys[0].key).toMatch(/^sk_[0-9a-f]{32}$/);
  });

  it('shows the environments as a table with the ids delete takes', async () => {
    const r = await svcBin(['environments', 'list', '-o', 'table'], as(dev.apiKey));
    expect(r.exitCode, r.stderr).toBe(0);
    const [header, first] = r.stdout.split('\n');
    expect(header).toMatch(/^ID\s+NAME\s+APP IDENTIFIER\s+KEY/);
    expect(first).toMatch(new RegExp(`^${dev.started.environmentId}\\s+Development\\s+${dev.started.applicationIdentifier}\\s+sk_…`));
  });
});

describe('against a service that is not svc dev', () => {
  it('create and delete refuse in one line with exit 5; nothing is sent after the question', async () => {
    const stub = await startStub();
    stub.on('GET', '/v1/svc-dev', { status: 404, body: { statusCode: 404, message: 'Cannot GET /v1/svc-dev', error: 'Not Found' } });
    try {
      for (const argv of [
        ['environments', 'create', 'staging'],
        ['environments', 'delete', 'staging', '--yes'],
      ]) {
        const r = await svcBin(argv, as('sk_test_0123456789abcdef', stub.url));
        expect(r.exitCode).toBe(5);
        expect(r.stderr.trim().split('\n')).toEqual([expect.stringContaining(`svc environments ${argv[1]} works only against svc dev`)]);
      }
      expect(stub.requests.map((q) => `${q.method} ${q.path}`)).toEqual(['GET /v1/svc-dev', 'GET /v1/svc-dev']);
    } finally {
      await stub.close();
    }
  });
});

describe('a store on disk', () => {
  it('keeps a created environment, its key and identifier across a restart', async () => {
    const dataFile = join(mkdtempSync(join(tmpdir(), 'svc-env-')), 'store.db');
    const first = await startDev({ args: ['--no-save-profile', '--quiet'], dataFile });
    const made = await svcBin(['environments', 'create', 'kept', '--show-secrets', '-o', 'json'], as(first.apiKey, first.baseUrl));
    expect(made.exitCode, made.stderr).toBe(0);
    const env = JSON.parse(made.stdout) as { _id: string; identifier: string; apiKeys: { key: string }[] };
    expect(await first.stop()).toBe(0);
    const second = await startDev({ args: ['--no-save-profile', '--quiet'], dataFile, apiKey: first.apiKey });
    try {
      const me = await fetch(`${second.baseUrl}/v1/environments/me`, { headers: { authorization: `ApiKey ${env.apiKeys[0]!.key}` } });
      expect(me.status).toBe(200);
      expect(((await me.json()) as { data: unknown }).data).toMatchObject({ _id: env._id, name: 'kept', identifier: env.identifier });
    } finally {
      await second.stop();
    }
  });
});
