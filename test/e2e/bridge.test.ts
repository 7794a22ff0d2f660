// Code-first workflows through the built binary: the example app (examples/bridge/app.mjs, real
// @novu/framework with signatures enforced) and `svc dev --bridge-url`, which prints what the app
// needs and registers its workflow; `svc workflow sync` with its exit codes (0, 2, 4, 6); a trigger
// that runs the steps through the app; `svc workflow list` showing the origin.
import { execa } from 'execa';
import http from 'node:http';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { svcBin } from '../helpers/bin.js';
import { type DevProcess, startDev } from '../helpers/dev.js';

const EXAMPLE = fileURLToPath(new URL('../../examples/bridge/app.mjs', import.meta.url));
const KEY = `sk_bridge_e2e_${process.pid}`;

let app: ReturnType<typeof execa> | undefined;
let appUrl: string;
let dev: DevProcess;

beforeAll(async () => {
  app = execa(process.execPath, [EXAMPLE], {
    env: { PORT: '0', NOVU_SECRET_KEY: KEY, NOVU_STRICT_AUTHENTICATION_ENABLED: 'true' },
    reject: false,
    stdin: 'ignore',
  });
  appUrl = await new Promise<string>((resolve, reject) => {
    let out = '';
    const t = setTimeout(() => reject(new Error(`the example app did not start: ${out}`)), 15_000);
    app!.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      // The whole line: a URL split across two chunks would match cut short.
      const m = /bridge (http:\S+)\r?\n/.exec(out);
      if (m) {
        clearTimeout(t);
        resolve(m[1]!);
      }
    });
  });
  dev = await startDev({ apiKey: KEY, args: ['--no-save-profile', '--bridge-url', appUrl] });
}, 30_000);
afterAll(async () => {
  await dev?.stop();
  app?.kill('SIGTERM');
  await app;
});

async function svc(args: string[]) {
  const r = await svcBin([...args, '-o', 'json'], { env: { SVC_BASE_URL: dev.baseUrl, SVC_API_KEY: dev.apiKey } });
  return { code: r.exitCode, stdout: String(r.stdout), stderr: String(r.stderr) };
}

describe('svc dev --bridge-url with the example app', () => {
  it('prints the two variables the app needs (the key masked) and registers its workflow', async () => {
    // Printed after the start-up line, once the app has been asked for its workflows.
    await vi.waitFor(() => expect(dev.stderr()).toContain('bridge: 1 workflow'), { timeout: 10_000 });
    const err = dev.stderr();
    expect(err).toContain(`NOVU_API_URL=${dev.baseUrl}`);
    expect(err).toContain('NOVU_SECRET_KEY=<the API key above; --show-secrets prints it>');
    expect(err).not.toContain(KEY);
    expect(err).toContain(`bridge: 1 workflow from ${appUrl} (welcome-code)`);
  });

  it('svc workflow list shows the origin; a trigger runs the steps through the app', async () => {
    const list = await svc(['workflow', 'list']);
    expect(list.code).toBe(0);
    expect(JSON.parse(list.stdout).find((w: { workflowId: string }) => w.workflowId === 'welcome-code').origin).toBe('external');
    const t = await svc(['trigger', 'welcome-code', '--to', 'ada', '--payload', '{"name":"Ada"}', '--wait', '--timeout', '20s']);
    expect(t.code, t.stderr).toBe(0);
    const msgs = await svc(['messages', 'list', '--limit', '20']);
    const mine = (JSON.parse(msgs.stdout) as { templateIdentifier: string; channel: string; content: string; subject?: string }[]).filter(
      (m) => m.templateIdentifier === 'welcome-code',
    );
    expect(mine.find((m) => m.channel === 'in_app')?.content).toBe('Hi Ada');
    expect(mine.find((m) => m.channel === 'email')?.subject).toBe('Welcome aboard');
  }, 40_000);
});

describe('svc workflow sync', () => {
  it('registers the app: exit 0 with the workflows', async () => {
    const r = await svc(['workflow', 'sync', '--bridge-url', appUrl]);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)[0]).toMatchObject({ workflowId: 'welcome-code', origin: 'external' });
  });

  it('nothing answering: exit 4, one line naming the URL', async () => {
    const server = http.createServer();
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/api/novu`;
    await new Promise((r) => server.close(r));
    const r = await svc(['workflow', 'sync', '--bridge-url', url]);
    expect(r.code).toBe(4);
    expect(r.stderr.trim().split('\n')[0]).toContain(`Bridge ${url} is not reachable: ECONNREFUSED`);
  }, 20_000);

  it('something that is not a bridge: exit 6 with what answered', async () => {
    const r = await svc(['workflow', 'sync', '--bridge-url', `${dev.baseUrl}/not-a-bridge`]);
    expect(r.code).toBe(6);
    expect(r.stderr).toContain(`${dev.baseUrl}/not-a-bridge`);
    expect(r.stderr).toContain('HTTP 404');
  });

  it('a bad URL: exit 2, nothing sent', async () => {
    const r = await svc(['workflow', 'sync', '--bridge-url', 'ftp://x']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--bridge-url');
  });
});
