// What a person at a terminal meets (issue 12), in a real 80×24 terminal (tmux) with the built binary
// and the local service: svc login offers the local profile's real address and asks again after a
// rejected key; profile remove asks before deleting.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BIN, startDev, type DevProcess } from '../helpers/dev.js';
import { hasTmux, openScreen } from '../tui/terminal.js';

let dev: DevProcess;
beforeAll(async () => {
  dev = await startDev();
});
afterAll(async () => {
  await dev?.stop();
});

const store = () => JSON.parse(readFileSync(join(dev.configDir, 'config.json'), 'utf8'));

describe.skipIf(!hasTmux)('at a terminal', () => {
  it('svc login offers the local profile address, asks again after a rejected key, then saves', async () => {
    const screen = openScreen([process.execPath, BIN, 'login'], { SVC_CONFIG_DIR: dev.configDir });
    try {
      await screen.waitFor('Profile name:');
      screen.type('mine');
      screen.keys('Enter');
      // The local service where svc dev said it runs, not a guessed port.
      await screen.waitFor(`Local svc dev (${dev.baseUrl}, from the local profile)`);
      screen.keys('Down', 'Down', 'Enter');
      await screen.waitFor('API key:');
      screen.type('sk_not_the_key_1234');
      screen.keys('Enter');
      await screen.waitFor('key sk_…1234 rejected (401); try again (2 of 3, Ctrl-C stops)');
      screen.type(dev.apiKey);
      screen.keys('Enter');
      const done = await screen.waitFor('EXIT=0');
      expect(done).toContain(`logged in: profile 'mine' (${dev.baseUrl}`);
      expect(done).not.toContain(dev.apiKey);
      expect(store().profiles.mine).toEqual({ baseUrl: dev.baseUrl, apiKey: dev.apiKey });
    } finally {
      screen.close();
    }
  });

  it('svc login gives up after three rejected keys, saving nothing (exit 3)', async () => {
    const screen = openScreen([process.execPath, BIN, 'login', '--profile', 'nope', '--base-url', dev.baseUrl], { SVC_CONFIG_DIR: dev.configDir });
    try {
      for (let i = 1; i <= 3; i++) {
        await screen.waitFor((s) => (s.match(/API key:/g) ?? []).length >= i);
        screen.type(`sk_wrong_key_000${i}`);
        screen.keys('Enter');
      }
      const done = await screen.waitFor('EXIT=3');
      // (the error line is wider than 80 columns: the terminal wraps it)
      expect(done.replace(/\n/g, '')).toContain('rejected the key sk_…0003 (401); nothing was saved');
      expect(store().profiles.nope).toBeUndefined();
    } finally {
      screen.close();
    }
  });

  it('profile remove asks first: n keeps the profile, y removes it', async () => {
    const env = { SVC_CONFIG_DIR: dev.configDir };
    let screen = openScreen([process.execPath, BIN, 'profile', 'remove', 'mine'], env);
    try {
      await screen.waitFor("Delete profile 'mine' and its saved key? This cannot be undone.");
      screen.keys('n', 'Enter');
      await screen.waitFor('EXIT=0');
      expect(screen.text()).toContain('nothing deleted');
      expect(store().profiles.mine).toBeDefined();
    } finally {
      screen.close();
    }
    screen = openScreen([process.execPath, BIN, 'profile', 'remove', 'mine'], env);
    try {
      await screen.waitFor("Delete profile 'mine'");
      screen.keys('y', 'Enter');
      await screen.waitFor('EXIT=0');
      expect(store().profiles.mine).toBeUndefined();
    } finally {
      screen.close();
    }
  });
});
