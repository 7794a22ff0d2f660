// `svc dev --open` and the printed console link, on the built binary: the browser is handed a link of
// its own whose one-time code signs in (once) and is not the printed one; neither holds the key.
import { chmodSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openerFor } from '../../src/server/console/open.js';
import { api, startDev, type DevProcess } from '../helpers/dev.js';

const started: DevProcess[] = [];
afterAll(async () => {
  await Promise.all(started.map((d) => d.stop()));
});

const waitForFile = async (file: string) => {
  const deadline = Date.now() + 5000;
  while (!existsSync(file) || readFileSync(file, 'utf8') === '') {
    if (Date.now() > deadline) throw new Error(`nothing written to ${file}`);
    await new Promise((r) => setTimeout(r, 25));
  }
  return readFileSync(file, 'utf8').trim();
};

describe('svc dev --open', () => {
  it('picks $BROWSER, else the platform opener', () => {
    expect(openerFor({ BROWSER: '/opt/b' }, 'linux')).toEqual({ command: '/opt/b', args: [] });
    expect(openerFor({}, 'linux').command).toBe('xdg-open');
    expect(openerFor({}, 'darwin').command).toBe('open');
    expect(openerFor({}, 'win32')).toEqual({ command: 'cmd', args: ['/c', 'start', '""'] });
  });

  it('prints the console and a one-time link, and opens another that signs in once', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-open-'));
    const opened = join(dir, 'opened.txt');
    const recorder = join(dir, 'browser.sh');
    writeFileSync(recorder, `#!/bin/sh\nprintf '%s' "$1" > '${opened}'\n`);
    chmodSync(recorder, 0o755);
    const dev = await startDev({ args: ['--open', '--show-secrets'], env: { BROWSER: recorder } });
    started.push(dev);

    expect(dev.started.console).toBe(`${dev.baseUrl}/console/`);
    const printed = String(dev.started.consoleLink);
    expect(printed).toMatch(new RegExp(`^${dev.baseUrl}/console/#code=[A-Za-z0-9_-]{22}$`));
    const link = await waitForFile(opened);
    expect(link).toMatch(new RegExp(`^${dev.baseUrl}/console/#code=[A-Za-z0-9_-]{22}$`));
    expect(link).not.toBe(printed);
    expect(link + printed).not.toContain(dev.apiKey);

    const code = link.split('#code=')[1];
    const first = await fetch(`${dev.baseUrl}/console/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ code }),
    });
    expect(first.status).toBe(201);
    expect(((await first.json()) as { data: { apiKey: string } }).data.apiKey).toBe(dev.apiKey);
    const second = await fetch(`${dev.baseUrl}/console/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ code }),
    });
    expect(second.status).toBe(401);
    // The printed link is still good: each link has its own code.
    expect((await api({ baseUrl: dev.baseUrl, apiKey: '' }, 'POST', '/console/session', { code: printed.split('#code=')[1] })).status).toBe(201);
  });

  it('says so, and keeps running, when no browser can be started', async () => {
    const dev = await startDev({ args: ['--open'], env: { BROWSER: '/nonexistent/browser' } });
    started.push(dev);
    const deadline = Date.now() + 5000;
    while (!dev.stderr().includes('could not open a browser') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
    expect(dev.stderr()).toMatch(
      /could not open a browser \(\/nonexistent\/browser: ENOENT\): open http:\/\/127\.0\.0\.1:\d+\/console\/ and use the link above/,
    );
    expect((await api(dev, 'GET', '/v1/integrations/active')).status).toBe(200);
  });
});
