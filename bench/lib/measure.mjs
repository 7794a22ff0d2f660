// Times whole commands over repeated runs (wall clock, like hyperfine), after warm-up runs.
import { spawnSync } from 'node:child_process';

export function timeCommand(cmd, args, { runs = 20, warmup = 3, env = process.env, expectCode = 0 } = {}) {
  const samples = [];
  for (let i = 0; i < warmup + runs; i++) {
    const t0 = process.hrtime.bigint();
    const r = spawnSync(cmd, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
    const ms = Number(process.hrtime.bigint() - t0) / 1e6;
    if (r.status !== expectCode) throw new Error(`${cmd} ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
    if (i >= warmup) samples.push(ms);
  }
  samples.sort((a, b) => a - b);
  const mean = samples.reduce((a, b) => a + b, 0) / samples.length;
  return { mean, median: samples[Math.floor(samples.length / 2)], min: samples[0], max: samples[samples.length - 1], runs };
}

export function fmt(ms) {
  return `${ms.toFixed(1)} ms`;
}

export function row(label, t, baseline) {
  const ratio = baseline ? `  (${(t.mean / baseline.mean).toFixed(2)}× baseline)` : '';
  return `${label.padEnd(52)} mean ${fmt(t.mean).padStart(9)}  median ${fmt(t.median).padStart(9)}  min ${fmt(t.min).padStart(9)}${ratio}`;
}
