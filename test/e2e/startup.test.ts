// Start-up discipline: --version, --help, completion and input errors must not load undici (or zod
// for the first three); a request command loads only what it uses. Read from the source maps of the
// bundle's files each process actually loaded (dist/main.cjs, the hot path it runs, dist/chunks/).
import { describe, expect, test } from 'vitest';
import { execaNode } from 'execa';
import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { BIN } from '../helpers/bin.js';
import { testService } from '../helpers/service.js';

const TRACER = fileURLToPath(new URL('../helpers/trace-loads.mjs', import.meta.url));

async function packagesLoaded(args: string[], env: Record<string, string> = {}): Promise<Set<string>> {
  return (await loadsOf(args, env)).pkgs;
}

async function loadsOf(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ pkgs: Set<string>; modules: string[]; stdout: string; stderr: string; exitCode: number | undefined }> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-loads-'));
  const log = join(dir, 'loads.txt');
  const run = await execaNode(BIN, args, {
    nodeOptions: ['--import', TRACER],
    env: { SVC_TRACE_LOADS: log, SVC_CONFIG_DIR: dir, SVC_CACHE_DIR: join(dir, 'cache'), NO_COLOR: '1', ...env },
    reject: false,
  });
  const pkgs = new Set<string>();
  const modules = readFileSync(log, 'utf8').split('\n').filter(Boolean);
  for (const url of modules) {
    const file = fileURLToPath(url);
    const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(file);
    if (m) pkgs.add(m[1]!);
    if (!file.includes('/dist/') || !existsSync(`${file}.map`)) continue;
    for (const src of JSON.parse(readFileSync(`${file}.map`, 'utf8')).sources as string[]) {
      const p = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(src);
      if (p) pkgs.add(p[1]!);
    }
  }
  return { pkgs, modules, stdout: String(run.stdout), stderr: String(run.stderr), exitCode: run.exitCode };
}

/** The local service's own answer to GET /v1/integrations/active (its demo integrations). */
async function realIntegrations(): Promise<unknown[]> {
  const svc = testService();
  try {
    return (await svc.request('GET', '/v1/integrations/active')).body.data as unknown[];
  } finally {
    await svc.close();
  }
}

/** A loopback server answering every request with `{data}`. */
async function answering(data: unknown): Promise<{ url: string; close: () => Promise<void> }> {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ data }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

describe('a build that is missing or damaged', () => {
  test('says in one line what to run, exit 1, no stack trace', async () => {
    // bin/svc.js and package.json without dist/, as a clone is before `npm run build`.
    const root = mkdtempSync(join(tmpdir(), 'svc-unbuilt-'));
    mkdirSync(join(root, 'bin'));
    mkdirSync(join(root, 'src'));
    for (const f of ['bin/svc.js', 'bin/package.json', 'package.json']) copyFileSync(fileURLToPath(new URL(`../../${f}`, import.meta.url)), join(root, f));
    const r = await execaNode(join(root, 'bin/svc.js'), ['integrations', 'active'], { env: { SVC_CACHE_DIR: join(root, 'cache') }, reject: false });
    expect(r.exitCode).toBe(1);
    expect(String(r.stderr)).toMatch(
      new RegExp(`^error: svc's built files cannot be loaded \\(.*main\\.cjs.*\\): run \`npm run build\` in ${root.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/$`),
    );
    expect(String(r.stdout)).toBe('');
  });

  test("a command's own file gone: one line naming the file and what to do, exit 1, nothing sent", async () => {
    const root = mkdtempSync(join(tmpdir(), 'svc-damaged-'));
    for (const f of ['bin', 'dist', 'package.json']) cpSync(fileURLToPath(new URL(`../../${f}`, import.meta.url)), join(root, f), { recursive: true });
    const file = readdirSync(join(root, 'dist/chunks')).find((f) => /^active-\w+\.js$/.test(f))!;
    rmSync(join(root, 'dist/chunks', file));
    let requests = 0;
    const server = createServer((_req, res) => {
      requests++;
      res.end('{"data":[]}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const r = await execaNode(join(root, 'bin/svc.js'), ['integrations', 'active', '--base-url', url, '--api-key', 'sk_x_0123456789ab'], {
        env: { SVC_CACHE_DIR: join(root, 'cache'), SVC_CONFIG_DIR: root },
        reject: false,
      });
      expect(r.exitCode).toBe(1);
      expect(String(r.stderr)).toMatch(
        new RegExp(
          `^error: .*svc's built file dist/chunks/${file.replace('.', '\\.')} cannot be loaded \\(ENOENT.*\\): rebuild svc \\(npm run build\\) or reinstall it.*$`,
        ),
      );
      expect(String(r.stderr).trim().split('\n')).toHaveLength(1);
      expect(requests).toBe(0);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('what each command loads', () => {
  test('--version loads no package at all', async () => {
    expect([...(await packagesLoaded(['--version']))]).toEqual([]);
  });

  test('--version loads nothing of the bundle: bin/svc.js answers it', async () => {
    const { modules, stdout } = await loadsOf(['--version']);
    expect(stdout).toMatch(/^\d+\.\d+\.\d+$/);
    expect(modules.filter((u) => u.includes('/dist/'))).toEqual([]);
  });

  test.each([[['--help']], [['events', 'list', '--help']], [['completion', 'bash']]])('%j loads commander only (with the hot path)', async (args) => {
    const pkgs = await packagesLoaded(args);
    // ajv's deep equality (fast-deep-equal, 1 KB) is part of the hot path's file; no other package.
    expect([...pkgs].sort()).toEqual(['commander', 'fast-deep-equal']);
  });

  test('a one-request command loads four files of the bundle, none of them an ES module: the entry, the hot path it runs, its own file, the validator of its answer', async () => {
    const served = await realIntegrations();
    const { url, close } = await answering(served);
    try {
      const { modules, stdout } = await loadsOf(['integrations', 'active', '-o', 'json', '--base-url', url, '--api-key', 'sk_x_0123456789ab']);
      expect(JSON.parse(stdout)).toEqual(served);
      const files = modules.filter((u) => u.includes('/dist/')).map((u) => u.replace(/^.*\/dist\//, '').replace(/-[A-Z0-9]{8}\.js#/, '.js#'));
      // Scripts (src/script-cache.ts) and the CommonJS entry: the process never sets up the ES module loader.
      expect(files.sort()).toEqual(['chunks/active.js#script', 'chunks/response_listActiveIntegrations.js#script', 'hot-path.js#script', 'main.cjs#commonjs']);
    } finally {
      await close();
    }
  });

  test.each([[['events', 'list', '--limit', '0']], [['trigger', 'welcome', '--to', 'u1', '--payload', '{bad']], [['events', 'get', 'not-an-id']]])(
    'the input error of %j does not load undici',
    async (args) => {
      const pkgs = await packagesLoaded(args);
      expect(pkgs.has('undici')).toBe(false);
      expect(pkgs.has('chalk')).toBe(false);
      expect(pkgs.has('@inquirer/prompts')).toBe(false);
    },
  );

  test('a one-request JSON command loads neither undici (node:http carries it) nor zod (the compiled shape check passes), no renderer or prompt library', async () => {
    const served = await realIntegrations();
    const { url, close } = await answering(served);
    try {
      const { pkgs, stdout } = await loadsOf(['integrations', 'active', '-o', 'json', '--base-url', url, '--api-key', 'sk_x_0123456789ab', '--retries', '0']);
      expect(JSON.parse(stdout)).toEqual(served);
      expect(pkgs.has('undici')).toBe(false);
      expect(pkgs.has('zod')).toBe(false);
      for (const p of ['chalk', 'cli-table3', 'yaml', 'jmespath', '@inquirer/prompts', 'conf', 'fastify']) expect(pkgs.has(p)).toBe(false);
    } finally {
      await close();
    }
  });

  test('a trigger checks its body and the answer without zod, and zod words a refusal (exit 2, nothing sent)', async () => {
    const { url, close } = await answering({ acknowledged: true, status: 'processed', transactionId: 'tx-1' });
    try {
      const sent = await loadsOf([
        'trigger',
        'welcome',
        '--to',
        'u1',
        '--payload',
        '{"name":"Ada"}',
        '-o',
        'json',
        '--base-url',
        url,
        '--api-key',
        'sk_x_0123456789ab',
      ]);
      expect(JSON.parse(sent.stdout)).toEqual({ acknowledged: true, status: 'processed', transactionId: 'tx-1' });
      expect(sent.pkgs.has('zod')).toBe(false);
      const contexts = ['a', 'b', 'c', 'd', 'e', 'f'].flatMap((t) => ['--context', `${t}=1`]);
      const refused = await loadsOf(['trigger', 'welcome', '--to', 'u1', ...contexts, '--base-url', 'http://127.0.0.1:9', '--api-key', 'sk_x_0123456789ab']);
      expect(refused.stderr).toMatch(/--context: must have at most 5 entries/);
      expect(refused.exitCode).toBe(2);
      expect(refused.pkgs.has('zod')).toBe(true);
    } finally {
      await close();
    }
  });

  test('an answer of the wrong shape is checked by zod, which names the field, and printed as received', async () => {
    const [first, ...rest] = (await realIntegrations()) as Record<string, unknown>[];
    const { _environmentId: _, ...broken } = first!;
    const { url, close } = await answering([broken, ...rest]);
    try {
      const { pkgs, stdout, stderr } = await loadsOf(['integrations', 'active', '-o', 'json', '--base-url', url, '--api-key', 'sk_x_0123456789ab']);
      expect(pkgs.has('zod')).toBe(true);
      expect(stderr).toMatch(/does not match the documented shape \(\[0\]\._environmentId: is required\)/);
      expect(JSON.parse(stdout)[0]).toEqual(broken);
    } finally {
      await close();
    }
  });

  test('a second request (here a retry) goes on node:http too: no undici', async () => {
    const pkgs = await packagesLoaded([
      'integrations',
      'active',
      '-o',
      'json',
      '--base-url',
      'http://127.0.0.1:9',
      '--api-key',
      'sk_x_0123456789ab',
      '--retries',
      '1',
    ]);
    expect(pkgs.has('undici')).toBe(false);
  });

  test('behind a proxy (HTTPS_PROXY), undici carries the request', async () => {
    const pkgs = await packagesLoaded(['integrations', 'active', '--base-url', 'https://127.0.0.1:9', '--api-key', 'sk_x_0123456789ab', '--retries', '0'], {
      HTTPS_PROXY: 'http://127.0.0.1:9',
    });
    expect(pkgs.has('undici')).toBe(true);
  });
});
