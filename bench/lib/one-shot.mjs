// Times one-request commands against their node:http floor: each sample is a spawn of the command under
// /usr/bin/time (peak RSS), timed to its first byte of output and to its exit. The commands being
// compared run in turn (A B C A B C ...), so that load from other processes falls on all of them alike.
import { spawn } from 'node:child_process';

function once(cmd, args, env) {
  return new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint();
    let first;
    let err = '';
    const p = spawn('/usr/bin/time', ['-f', '%M %U %S', cmd, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    p.stdout.on('data', () => {
      first ??= Number(process.hrtime.bigint() - t0) / 1e6;
    });
    p.stderr.on('data', (d) => (err += d));
    p.on('exit', (code) => {
      const ms = Number(process.hrtime.bigint() - t0) / 1e6;
      const lines = err.trim().split('\n');
      if (code !== 0) return reject(new Error(`${cmd} ${args.join(' ')} exited ${code}: ${err}`));
      const [rss, user, sys] = lines.pop().split(' ').map(Number);
      resolve({ ms, firstMs: first ?? ms, rssMb: rss / 1024, cpuMs: (user + sys) * 1000, stderr: lines.join('\n') });
    });
  });
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** entries: [{ label, cmd, args, env? }] (an entry's env replaces the shared one); returns [{ label, ms, firstMs, rssMb, cpuMs }] (medians of `runs`; cpuMs their mean). */
export async function compareInTurn(entries, { runs = 9, warmup = 2, env = process.env } = {}) {
  const samples = entries.map(() => []);
  for (let i = 0; i < warmup + runs; i++) {
    for (const [j, e] of entries.entries()) {
      const s = await once(e.cmd, e.args, e.env ?? env);
      if (s.stderr) throw new Error(`${e.label}: unexpected stderr: ${s.stderr}`);
      if (i >= warmup) samples[j].push(s);
    }
  }
  return entries.map((e, j) => ({
    label: e.label,
    ms: median(samples[j].map((s) => s.ms)),
    firstMs: median(samples[j].map((s) => s.firstMs)),
    rssMb: median(samples[j].map((s) => s.rssMb)),
    // CPU time (user + system) is counted in 10 ms steps: the mean, not the median.
    cpuMs: samples[j].reduce((a, s) => a + s.cpuMs, 0) / samples[j].length,
  }));
}
