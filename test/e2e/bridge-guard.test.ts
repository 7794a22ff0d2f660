// The loopback guard of svc dev's outbound requests, end to end with the built binary, inside a
// network namespace that has loopback alone (`unshare -n`, `ip link set lo up`), so no connection can
// leave this machine: without the guard a non-loopback target would fail at once with ENETUNREACH.
// Without the flags, bridge URLs (--bridge-url, workflow sync, a trigger's bridgeUrl) and webhooks are
// refused by address and by name (a hosts file of the namespace's own names far.example 10.55.0.1),
// naming the flag; with them, the connection is tried, and the namespace stops it.
import { execa } from 'execa';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { BIN } from '../helpers/bin.js';

const FIXTURE = fileURLToPath(new URL('./fixtures/guard-in-namespace.mjs', import.meta.url));
const usable = process.getuid?.() === 0 && (await execa('unshare', ['-n', 'true'], { reject: false })).exitCode === 0;
if (!usable) console.warn('test/e2e/bridge-guard.test.ts: needs root and unshare (network namespaces); skipped');

type Run = { code: number; stdout: string; stderr: string };
type Round = { watchLine: string; syncAddress: Run; syncName: Run; triggerBridgeUrl: Run; webhookTrigger: { code: number }; webhookDetails: string[] };
let result: { guarded: Round; allowed: Round };

describe.skipIf(!usable)('the loopback guard, in a network namespace with loopback alone', () => {
  beforeAll(async () => {
    const hosts = join(mkdtempSync(join(tmpdir(), 'svc-guard-hosts-')), 'hosts');
    writeFileSync(hosts, `${readFileSync('/etc/hosts', 'utf8')}\n10.55.0.1 far.example\n`);
    const script = `ip link set lo up && mount --bind ${hosts} /etc/hosts && exec "${process.execPath}" "${FIXTURE}" "${BIN}"`;
    const r = await execa('unshare', ['-n', '-m', 'sh', '-c', script], { reject: false, timeout: 120_000 });
    expect(r.exitCode, r.stderr).toBe(0);
    result = JSON.parse(r.stdout.trim().split('\n').at(-1)!);
  }, 150_000);

  const refusal = (host: string, flag: string) =>
    `refusing to connect to ${host}: only loopback targets (127.0.0.0/8, ::1, localhost) are allowed; start svc dev with ${flag} to allow others`;

  it('without --allow-remote-bridge: --bridge-url, workflow sync (exit 6) and a trigger bridgeUrl are refused by address and by name', () => {
    const g = result.guarded;
    expect(g.watchLine).toBe(`bridge: http://10.55.0.1:4000/api/novu: ${refusal('10.55.0.1', '--allow-remote-bridge')}`);
    expect(g.syncAddress.code).toBe(6);
    expect(g.syncAddress.stderr).toContain(`Bridge http://10.55.0.1:4000/api/novu: ${refusal('10.55.0.1', '--allow-remote-bridge')}`);
    expect(g.syncName.code).toBe(6);
    expect(g.syncName.stderr).toContain('refusing to connect to far.example (10.55.0.1): only loopback targets');
    expect(g.triggerBridgeUrl.code).toBe(6);
    expect(g.triggerBridgeUrl.stderr).toContain('--allow-remote-bridge');
    for (const r of [g.syncAddress, g.syncName, g.triggerBridgeUrl]) expect(r.stderr).not.toContain('ENETUNREACH');
  });

  it('without --allow-remote-webhooks: an http_request step to a name outside loopback fails saying so', () => {
    const g = result.guarded;
    expect(g.webhookTrigger.code).toBe(9);
    expect(g.webhookDetails.at(-1)).toBe(
      `HTTP request POST http://far.example:9/hook failed: ${refusal('far.example (10.55.0.1)', '--allow-remote-webhooks')} after 1 attempt`,
    );
  });

  it('with the flags, the requests are made, and stopped by the namespace (ENETUNREACH): the guard was what refused them', () => {
    const a = result.allowed;
    expect(a.watchLine).toBe('bridge: http://10.55.0.1:4000/api/novu is not answering (ENETUNREACH); waiting for it');
    expect(a.syncAddress.code).toBe(4);
    expect(a.syncAddress.stderr).toContain('is not reachable: ENETUNREACH');
    expect(a.syncName.stderr).toContain('ENETUNREACH');
    expect(a.webhookDetails.at(-1)).toMatch(/^HTTP request POST http:\/\/far\.example:9\/hook failed: ENETUNREACH after 3 attempts$/);
  });
});
