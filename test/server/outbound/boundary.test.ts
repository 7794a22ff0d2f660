// The boundary docs/architecture.md and src/server/outbound/README.md state, read from the source: the
// engine stays pure (no network, no DNS, no timers), every outbound request of svc dev goes through
// the outbound module (the only server code that dials or resolves), and the signature check that
// only tests need lives in test/helpers.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = fileURLToPath(new URL('../../../src/', import.meta.url));
const files = (dir: string): string[] =>
  readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? files(p) : p.endsWith('.ts') ? [p] : [];
  });
const source = (file: string) => readFileSync(file, 'utf8');
const imports = (text: string) => [...text.matchAll(/(?:from\s+|import\s*\(\s*)'([^']+)'/g)].map((m) => m[1]!);

describe('outbound boundary', () => {
  it('the engine imports nothing that reaches the network or resolves names, and sets no timer', () => {
    const bad = files(join(SRC, 'server/engine')).flatMap((f) => {
      const text = source(f);
      const found = imports(text).filter(
        (i) => /^(undici|node:(dns|http|https|http2|tls|timers|timers\/promises|child_process))$/.test(i) || i.includes('outbound'),
      );
      if (/\b(setTimeout|setInterval|setImmediate)\(/.test(text)) found.push('a timer');
      return found.map((i) => `${relative(SRC, f)} → ${i}`);
    });
    expect(bad).toEqual([]);
  });

  it('only the outbound module dials (undici) or resolves names (node:dns) in the service', () => {
    const dialers = files(join(SRC, 'server'))
      .filter((f) => imports(source(f)).some((i) => i === 'undici' || i === 'node:dns'))
      .map((f) => relative(SRC, f))
      .sort();
    expect(dialers).toEqual(['server/outbound/guard.ts', 'server/outbound/send.ts']);
  });

  it('no code of src/ verifies signatures: receivers are tests, with a check whose clock is required', () => {
    expect(files(SRC).filter((f) => /verifySignature/.test(source(f)))).toEqual([]);
    const helper = readFileSync(fileURLToPath(new URL('../../helpers/signature.ts', import.meta.url)), 'utf8');
    expect(helper).toMatch(/options: \{ now: number; toleranceMs\?: number \}/);
  });
});
