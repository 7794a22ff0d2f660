// examples/bridge is a project of its own: npm run in its folder (as its README says) acts on it, not
// on the repository (its package.json, no lock file written), with the framework version the tests
// pin; every command of its README runs from that folder.
import { execa } from 'execa';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const EXAMPLE = fileURLToPath(new URL('../../examples/bridge/', import.meta.url)).replace(/\/$/, '');
const ROOT = fileURLToPath(new URL('../../', import.meta.url)).replace(/\/$/, '');
const json = (path: string) => JSON.parse(readFileSync(path, 'utf8'));

describe('examples/bridge', () => {
  it('npm run in its folder acts on it (its own package.json), writes no lock file, and pins the framework the tests use', async () => {
    expect((await execa('npm', ['prefix'], { cwd: EXAMPLE })).stdout.trim()).toBe(EXAMPLE);
    expect((await execa('npm', ['config', 'get', 'package-lock'], { cwd: EXAMPLE })).stdout.trim()).toBe('false');
    const pkg = json(`${EXAMPLE}/package.json`);
    const root = json(`${ROOT}/package.json`);
    expect(pkg.private).toBe(true);
    expect(pkg.dependencies['@novu/framework']).toBe(root.devDependencies['@novu/framework']);
    expect(pkg.dependencies['zod-to-json-schema']).toBe(root.devDependencies['zod-to-json-schema']);
  });

  it('its README runs every npm command from the example folder', () => {
    const readme = readFileSync(`${EXAMPLE}/README.md`, 'utf8');
    const block = /```\n([\s\S]*?)```/.exec(readme)![1]!;
    const lines = block.split('\n').filter((l) => l.trim() !== '');
    expect(lines[0]).toMatch(/^cd examples\/bridge\b/);
    expect(lines.filter((l) => /^npm\b|\bnpm (install|i) /.test(l)).length).toBeGreaterThan(0);
    expect(block).not.toMatch(/npm install [^#\n]*@novu/);
  });
});
