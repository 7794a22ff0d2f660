// The package files as npm writes and reads them: `npm install` on a fresh clone must leave
// package-lock.json as committed (git status clean), and `npx svc` must not warn on every new install
// into npx's cache.
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';

const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as Record<string, unknown>;
const lock = JSON.parse(readFileSync('package-lock.json', 'utf8')) as { packages: Record<string, { hasInstallScript?: boolean; optional?: boolean }> };

describe('package-lock.json', () => {
  test('records every installed package that has an install script (npm install adds the flag otherwise, changing the file)', () => {
    const missing: string[] = [];
    for (const [path, entry] of Object.entries(lock.packages)) {
      if (!path.startsWith('node_modules/') || !existsSync(`${path}/package.json`)) continue;
      const scripts = (JSON.parse(readFileSync(`${path}/package.json`, 'utf8')) as { scripts?: Record<string, string> }).scripts ?? {};
      const installs = ['preinstall', 'install', 'postinstall'].some((s) => s in scripts) || existsSync(`${path}/binding.gyp`);
      if (installs && entry.hasInstallScript !== true) missing.push(path);
    }
    expect(missing).toEqual([]);
  });
});

describe('package.json', () => {
  test('declares no engines: npx installs the project into its cache and warns (EBADENGINE) on an older Node; bin/svc.js checks the Node line itself', () => {
    expect(pkg.engines).toBeUndefined();
  });
});
