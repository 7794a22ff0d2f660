// A request to a local service that is not running: the error says how to start it, when the target
// is the local one (the `local` profile svc dev saves, or a loopback address); a remote one does not.
import { expect, test } from 'vitest';
import { createServer } from 'node:net';
import { runSvc, tempConfigDir } from '../helpers/run.js';

/** A loopback port nothing listens on (taken, then closed). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  await new Promise((r) => server.close(r));
  return port;
}

test('the local profile, service stopped: "is `svc dev` running? start it with `svc dev`", exit 4', async () => {
  const dir = tempConfigDir();
  const env = { SVC_CONFIG_DIR: dir };
  const port = await closedPort();
  expect((await runSvc(['profile', 'add', 'local', '--base-url', `http://127.0.0.1:${port}`, '--api-key', 'sk_test_local_0123456789'], { env })).code).toBe(0);
  const r = await runSvc(['events', 'list', '--profile', 'local', '--retries', '0'], { env });
  expect(r.code).toBe(4);
  expect(r.stderr).toContain('connection refused');
  expect(r.stderr).toContain('is `svc dev` running? start it with `svc dev`');
  expect(r.stderr.trim().split('\n')).toHaveLength(1);
});

test('a remote target gets no such advice', async () => {
  const r = await runSvc(['events', 'list', '--retries', '0', '--timeout', '2s'], {
    env: { SVC_API_KEY: 'sk_test_0123456789', SVC_BASE_URL: 'http://no-such-host.invalid' },
  });
  expect(r.code).toBe(4);
  expect(r.stderr).not.toContain('svc dev');
});
