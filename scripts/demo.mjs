// npm run demo: the main job on the embedded local service, narrated. Starts `svc dev` on a free port
// (in memory, its own config directory), triggers the `welcome` workflow and follows its delivery,
// shows the event's timeline and the messages it produced, marks the in-app message read, and stops
// the service. Every step is the real `svc` binary, as a user would type it.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';

const bin = fileURLToPath(new URL('../bin/svc.js', import.meta.url));
const configDir = mkdtempSync(join(tmpdir(), 'svc-demo-'));
const apiKey = `sk_demo_${randomBytes(12).toString('hex')}`;
const tty = process.stdout.isTTY;
const bold = (s) => (tty ? `\x1b[1m${s}\x1b[22m` : s);
const dim = (s) => (tty ? `\x1b[2m${s}\x1b[22m` : s);

const baseEnv = { ...process.env, SVC_CONFIG_DIR: configDir, ...(tty ? { FORCE_COLOR: '1' } : { NO_COLOR: '1' }) };
delete baseEnv.SVC_PROFILE;

function say(text) {
  process.stdout.write(`\n${bold(`# ${text}`)}\n`);
}

/** Runs `svc ...` with the local service's URL and key in the environment; returns stdout. */
function svc(args, { show = true, json = false } = {}) {
  const shown = args.map((a) => (/[\s"'{}]/.test(a) ? `'${a}'` : a)).join(' ');
  if (show) process.stdout.write(`${dim('$')} svc ${shown}\n`);
  const r = spawnSync(process.execPath, [bin, ...args, ...(json ? ['-o', 'json'] : ['-o', 'table']), ...(show ? [] : ['-q'])], {
    env: { ...baseEnv, SVC_BASE_URL: baseUrl, SVC_API_KEY: apiKey },
    encoding: 'utf8',
  });
  if (show && !json) process.stdout.write(r.stdout);
  if (r.stderr) process.stderr.write(dim(r.stderr));
  if (r.status !== 0 && r.status !== 9 && r.status !== 8) throw new Error(`svc ${shown} exited with ${r.status}`);
  return r.stdout;
}

say('Start the local service (in memory, on a free port)');
process.stdout.write(`${dim('$')} svc dev --port 0 --in-memory\n`);
const dev = spawn(process.execPath, [bin, 'dev', '--port', '0', '--in-memory', '--api-key', apiKey, '--no-save-profile', '-o', 'json', '--quiet'], {
  env: baseEnv,
  stdio: ['ignore', 'pipe', 'inherit'],
});
let baseUrl;
try {
  const ready = await new Promise((resolve, reject) => {
    let buf = '';
    dev.stdout.on('data', (d) => {
      buf += d;
      const nl = buf.indexOf('\n');
      if (nl >= 0) resolve(JSON.parse(buf.slice(0, nl)));
    });
    dev.once('exit', (code) => reject(new Error(`svc dev exited with ${code}`)));
    setTimeout(() => reject(new Error('svc dev did not start within 30 s')), 30_000).unref();
  });
  baseUrl = ready.baseUrl;
  process.stdout.write(`listening on ${baseUrl} (key ${ready.apiKey})\n`);

  say('The demo data: active integrations and the welcome workflow');
  svc(['integrations', 'active']);
  svc(['workflow', 'get', 'welcome']);

  say('Trigger welcome for a new subscriber and follow its delivery');
  const txn = `demo-${randomBytes(4).toString('hex')}`;
  svc([
    'trigger',
    'welcome',
    '--to-json',
    '{"subscriberId":"demo-user","firstName":"Ada","email":"ada@example.com"}',
    '--payload',
    '{"appName":"Acme Rockets"}',
    '--transaction-id',
    txn,
    '--wait',
    '--wait-timeout',
    '20s',
  ]);

  say('The event, job by job, with every execution detail');
  const events = JSON.parse(svc(['events', 'list', '--transaction-id', txn], { json: true, show: false }));
  svc(['events', 'get', events[0]._id]);

  say('The in-app message it created, marked read');
  const messages = JSON.parse(
    svc(['messages', 'list', '--subscriber', 'demo-user', '--channel', 'in_app', '--transaction-id', txn], { json: true, show: false }),
  );
  svc(['messages', 'list', '--subscriber', 'demo-user', '--transaction-id', txn]);
  if (messages[0]?._id) svc(['messages', 'mark-as', 'demo-user', 'read', messages[0]._id]);

  say('Reading it shows in the activity: the in-app job now ends with "Message read"');
  svc(['events', 'get', events[0]._id]);

  say('Done: stopping the local service');
} finally {
  dev.kill('SIGINT');
  await new Promise((r) => dev.once('exit', r));
  rmSync(configDir, { recursive: true, force: true });
}
