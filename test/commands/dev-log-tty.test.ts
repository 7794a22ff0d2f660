// svc dev at a terminal: the banner and its sign-in link stay on the screen while requests come in
// (they are logged there only with --log); with --log each request is a line.
import { afterEach, expect, test } from 'vitest';
import { BIN } from '../helpers/bin.js';
import { openTerminal, type Terminal, tmux } from '../helpers/tmux.js';
import { tempConfigDir } from '../helpers/run.js';

let term: Terminal | undefined;
afterEach(() => {
  term?.close();
  term = undefined;
});

async function startAtTerminal(extra: string[]): Promise<{ term: Terminal; baseUrl: string; key: string }> {
  const t = openTerminal(
    [process.execPath, BIN, 'dev', '--port', '0', '--in-memory', '--no-save-profile', '--show-secrets', ...extra],
    {
      SVC_CONFIG_DIR: tempConfigDir(),
      NO_COLOR: '1',
    },
    { columns: 120, rows: 30 },
  );
  term = t;
  await t.waitFor('Ctrl-C stops it');
  const screen = t.text();
  const baseUrl = /Base URL\s+(\S+)/.exec(screen)![1]!;
  const key = /API key\s+(\S+)/.exec(screen)![1]!;
  return { term: t, baseUrl, key };
}

const hit = async (baseUrl: string, key: string, n: number) => {
  for (let i = 0; i < n; i++) await fetch(`${baseUrl}/v1/integrations/active`, { headers: { authorization: `ApiKey ${key}` } }).then((r) => r.text());
};

tmux.describe('svc dev at a terminal', () => {
  test('forty requests later the sign-in link is still on the screen; no request lines', { timeout: 30_000 }, async () => {
    const { term: t, baseUrl, key } = await startAtTerminal([]);
    expect(t.text()).toContain('--log shows them');
    await hit(baseUrl, key, 40);
    // Stopped: all it wrote about those requests is on the screen before it ends.
    t.keys('C-c');
    await t.waitFor('EXIT=');
    expect(t.text()).toContain('Sign-in link');
    expect(t.text()).not.toContain('GET /v1/integrations/active');
  });

  test('--log: one line per request', { timeout: 30_000 }, async () => {
    const { term: t, baseUrl, key } = await startAtTerminal(['--log']);
    await hit(baseUrl, key, 2);
    await t.waitFor('GET /v1/integrations/active 200');
  });
});
