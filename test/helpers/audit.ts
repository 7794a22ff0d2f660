// The secrets audit of the whole test suite. The helpers that run svc (runSvc, svcBin, startDev) and the
// stub server record here every output they see and every secret in play: API keys and access tokens
// given to the tool, keys in profile files, and the credentials and tokens a stub answers with. After
// the run, vitest's global teardown (test/helpers/global-setup.ts) searches every output for every
// secret and fails the run on a hit. An output produced with --show-secrets is recorded but not
// searched: printing secrets is then what the user asked for.
//
// Records go to one append-only NDJSON file per process in the directory named by SVC_TEST_AUDIT_DIR,
// which the global setup creates; without it (a helper used outside vitest) nothing is recorded.
import { appendFileSync, existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export const AUDIT_ENV = 'SVC_TEST_AUDIT_DIR';
/** Shorter strings (`t`, `1234`) would match by chance; no real key or token is this short. */
export const MIN_SECRET_LENGTH = 8;

type AuditRecord = { t: 'secret'; value: string; from: string } | { t: 'out'; source: string; text: string; allowed?: boolean };

function write(rec: AuditRecord): void {
  const dir = process.env[AUDIT_ENV];
  if (!dir || !existsSync(dir)) return;
  appendFileSync(join(dir, `${process.pid}.ndjson`), `${JSON.stringify(rec)}\n`);
}

export function auditEnabled(): boolean {
  const dir = process.env[AUDIT_ENV];
  return Boolean(dir && existsSync(dir));
}

/** Registers secrets that must never appear in any output (shorter ones are ignored). */
export function auditSecret(from: string, ...values: (string | undefined | null)[]): void {
  for (const v of values) if (typeof v === 'string' && v.trim().length >= MIN_SECRET_LENGTH) write({ t: 'secret', value: v.trim(), from });
}

/** Records what a run of svc printed. `allowed`: it ran with --show-secrets. */
export function auditOutput(source: string, text: unknown, allowed = false): void {
  const s = text === undefined || text === null ? '' : typeof text === 'string' ? text : Buffer.isBuffer(text) ? text.toString('utf8') : String(text);
  if (s) write({ t: 'out', source, text: s, ...(allowed ? { allowed: true } : {}) });
}

/**
 * The secrets a command line carries: values of --api-key and --access-token. A "value" that is another
 * flag (`--access-token --retries`, as generated command lines have) is not a secret but the next flag,
 * and after `--` everything is a positional argument.
 */
export function secretsInArgv(argv: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--') break; // what follows is positional, not a flag's value
    for (const flag of ['--api-key', '--access-token']) {
      if (a === flag && i + 1 < argv.length) out.push(argv[i + 1]!);
      else if (a.startsWith(`${flag}=`)) out.push(a.slice(flag.length + 1));
    }
  }
  return out.filter((s) => !s.startsWith('-'));
}

/** Whether stdin carries a secret for this command line (--with-key, --access-token-stdin). */
export function stdinIsSecret(argv: readonly string[]): boolean {
  return argv.includes('--with-key') || argv.includes('--access-token-stdin');
}

/** Registers everything secret about one invocation of svc: flags, environment, stdin, profile file. */
export function auditInvocation(from: string, argv: readonly string[], env: Record<string, string | undefined>, stdin?: string): void {
  auditSecret(from, ...secretsInArgv(argv), env.SVC_API_KEY);
  if (stdin !== undefined && stdinIsSecret(argv)) auditSecret(from, stdin);
  auditProfileFile(from, env.SVC_CONFIG_DIR);
}

/** Keys saved in a profile store are secrets too (a test may write the file by hand). */
export function auditProfileFile(from: string, configDir: string | undefined): void {
  if (!configDir || !auditEnabled()) return;
  try {
    const file = JSON.parse(readFileSync(join(configDir, 'config.json'), 'utf8')) as { profiles?: Record<string, { apiKey?: unknown }> };
    for (const p of Object.values(file.profiles ?? {})) if (typeof p?.apiKey === 'string') auditSecret(from, p.apiKey);
  } catch {
    /* no store, or not JSON (a test of a corrupt store): nothing to learn */
  }
}

const SECRET_FIELDS = new Set([
  'accesstoken',
  'apikey',
  'token',
  'secretkey',
  'password',
  'secret',
  'clientsecret',
  'refreshtoken',
  'apitoken',
  'signingsecret',
]);

/** Secrets in a body a stub answers with: secret-named fields and everything under credentials/auth. */
export function secretsInBody(body: unknown): string[] {
  // Iterative: stubs also answer with bodies nested thousands of levels deep.
  const out: string[] = [];
  const stack: [unknown, boolean][] = [[body, false]];
  while (stack.length) {
    const [v, under] = stack.pop()!;
    if (typeof v === 'string') {
      if (under) out.push(v);
    } else if (Array.isArray(v)) for (const x of v) stack.push([x, under]);
    else if (v && typeof v === 'object') {
      for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
        const lk = k.toLowerCase();
        stack.push([x, under || lk === 'credentials' || lk === 'auth' || SECRET_FIELDS.has(lk)]);
      }
    }
  }
  return out;
}

export interface Leak {
  source: string;
  secretFrom: string;
  /** The secret, shortened so that the report does not print it whole. */
  secret: string;
  context: string;
}

export interface AuditReport {
  outputs: number;
  allowedOutputs: number;
  bytes: number;
  secrets: number;
  leaks: Leak[];
}

/** Searches every recorded output for every recorded secret. */
export function checkAudit(dir: string): AuditReport {
  const secrets = new Map<string, string>();
  const outputs: { source: string; text: string }[] = [];
  let allowedOutputs = 0;
  let bytes = 0;
  for (const f of readdirSync(dir).filter((x) => x.endsWith('.ndjson'))) {
    for (const line of readFileSync(join(dir, f), 'utf8').split('\n')) {
      if (!line) continue;
      let rec: AuditRecord;
      try {
        rec = JSON.parse(line) as AuditRecord;
      } catch {
        continue; // a worker killed mid-write
      }
      if (rec.t === 'secret') {
        if (!secrets.has(rec.value)) secrets.set(rec.value, rec.from);
      } else if (rec.allowed) allowedOutputs++;
      else {
        outputs.push({ source: rec.source, text: rec.text });
        bytes += rec.text.length;
      }
    }
  }
  const leaks: Leak[] = [];
  for (const o of outputs) {
    for (const [secret, from] of secrets) {
      const at = o.text.indexOf(secret);
      if (at < 0) continue;
      const shown = `${secret.slice(0, 4)}…(${secret.length} chars)`;
      const context = o.text
        .slice(Math.max(0, at - 60), at + secret.length + 20)
        .split(secret)
        .join(`<${shown}>`);
      leaks.push({ source: o.source, secretFrom: from, secret: shown, context });
    }
  }
  return { outputs: outputs.length, allowedOutputs, bytes, secrets: secrets.size, leaks };
}
