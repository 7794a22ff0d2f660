// `svc` started by a Node older than 22.19 (the system's Node 20 behind an `svc` that `npm link` put on
// PATH): with the project's own Node installed beside it, the command runs on that one, exit codes and
// all; without it, one line says what to run.
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { BIN } from '../helpers/bin.js';

/** A Node older than the supported lines on this machine, if there is one (Debian's, /usr/bin/node). */
function oldNode(): string | undefined {
  for (const candidate of ['/usr/bin/node', '/usr/local/bin/node']) {
    const r = spawnSync(candidate, ['-p', 'process.versions.node'], { encoding: 'utf8' });
    if (r.status !== 0) continue;
    const [major, minor] = r.stdout.trim().split('.').map(Number) as [number, number];
    if (major < 22 || (major === 22 && minor < 19)) return candidate;
  }
  return undefined;
}

const old = oldNode();

describe.skipIf(old === undefined)('svc on an older Node', () => {
  const run = (bin: string, args: string[]) =>
    spawnSync(old!, [bin, ...args], {
      encoding: 'utf8',
      env: { PATH: '/usr/bin:/bin', HOME: tmpdir(), NO_COLOR: '1', SVC_CONFIG_DIR: mkdtempSync(join(tmpdir(), 'svc-old-')) },
    });

  test("hands the command to the project's own Node: output and exit code are that run's", () => {
    const version = run(BIN, ['--version']);
    expect(version.stderr).toBe('');
    expect(version.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
    expect(version.status).toBe(0);
    const bad = run(BIN, ['events', 'list', '--limit', '0']);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/^error: .*--limit/m);
  });

  test('svc dev stops on a SIGINT sent to the command with no terminal (a script stopping it), as on SIGTERM', async () => {
    const dev = spawn(old!, [BIN, 'dev', '--in-memory', '--port', '0', '--no-save-profile', '-o', 'json'], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { PATH: '/usr/bin:/bin', HOME: tmpdir(), NO_COLOR: '1', SVC_CONFIG_DIR: mkdtempSync(join(tmpdir(), 'svc-old-')) },
    });
    const exited = new Promise<number | null>((resolve) => dev.on('exit', (code) => resolve(code)));
    // Its first line (where it listens) says the service is up; then only the parent is signalled.
    await new Promise<void>((resolve) => dev.stdout.once('data', () => resolve()));
    dev.kill('SIGINT');
    const stillRunning = new Promise<string>((resolve) => setTimeout(() => resolve('still running 10 s after SIGINT'), 10_000).unref());
    try {
      expect(await Promise.race([exited, stillRunning])).toBe(0);
    } finally {
      if (dev.exitCode === null) dev.kill('SIGTERM');
    }
  }, 15_000);

  test('without it: one line naming what to run, exit 1', () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-clone-'));
    mkdirSync(join(dir, 'bin'));
    mkdirSync(join(dir, 'src'));
    copyFileSync(BIN, join(dir, 'bin', 'svc.js'));
    // The entry is CommonJS in an ES module package, as bin/package.json says beside it.
    copyFileSync(join(dirname(BIN), 'package.json'), join(dir, 'bin', 'package.json'));
    writeFileSync(join(dir, 'package.json'), '{"type":"module"}');
    const r = run(join(dir, 'bin', 'svc.js'), ['--version']);
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(
      new RegExp(
        `^error: svc needs Node.js 22.19 or later; this is Node.js [\\d.]+: run \`npm install\` in ${dir}/ \\(it brings the project's own Node 24\\), or use Node.js 24\\n$`,
      ),
    );
  });
});
