// The profile store and the resolution of credentials (cli.md, "Credentials and target").
//
// The store is the JSON file `config.json` in the config directory (SVC_CONFIG_DIR, else
// $XDG_CONFIG_HOME/svc or ~/.config/svc), mode 0600 in a 0700 directory. A write holds the store's lock
// file (withLock below) and replaces the file atomically (write-file-atomic: a temporary file renamed over
// it), so that two `svc profile` processes never lose each other's profile and a writer killed mid-write
// leaves the previous file whole. Reads parse the file directly: every API command reads it.
//
// The lock is svc's own: proper-lockfile's takeover of a lock left by a dead writer lets two writers in
// at once when several judge it stale together (test/config/lock-race.test.ts loses profiles with it),
// which a claim taken exclusively before the takeover (breakStale) rules out.
import { closeSync, mkdirSync, chmodSync, linkSync, openSync, readFileSync, renameSync, rmSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { CredentialsError, UsageError } from '../core/errors.js';
import { loadWriteFileAtomic } from '../core/lazy.js';

interface Profile {
  baseUrl?: string;
  apiKey?: string;
  readOnly?: boolean;
}
interface ProfileFile {
  current?: string;
  profiles: Record<string, Profile>;
}

type Source = 'flag' | 'env' | 'profile' | 'default' | 'none';
interface Resolved<T> {
  value: T;
  source: Source;
}
export interface ResolvedSettings {
  profile: Resolved<string | undefined>;
  apiKey: Resolved<string | undefined>;
  baseUrl: Resolved<string>;
  readOnly: boolean;
  configFile: string;
}

export const DEFAULT_BASE_URL = 'https://api.novu.co';
const PROFILE_NAME_RE = /^[A-Za-z0-9_.-]{1,64}$/;

function configDir(env: NodeJS.ProcessEnv): string {
  if (env.SVC_CONFIG_DIR) return env.SVC_CONFIG_DIR;
  // HOME is what os.homedir() answers first; node:os loads only when it is not set.
  const base = env.XDG_CONFIG_HOME || join(env.HOME || process.getBuiltinModule('node:os').homedir(), '.config');
  return join(base, 'svc');
}

export function validateProfileName(name: string): string {
  if (!PROFILE_NAME_RE.test(name)) {
    throw new UsageError(`invalid profile name '${name}': use 1-64 letters, digits, '.', '_' or '-'`);
  }
  return name;
}

export class ProfileStore {
  readonly dir: string;
  readonly file: string;

  /** With `dryRun`, update() works out the new content and writes nothing (--dry-run). */
  constructor(
    env: NodeJS.ProcessEnv,
    private readonly opts: { dryRun?: boolean } = {},
  ) {
    this.dir = configDir(env);
    this.file = join(this.dir, 'config.json');
  }

  /** The whole file; an absent file is an empty store. */
  read(): ProfileFile {
    let text: string;
    try {
      text = readFileSync(this.file, 'utf8');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { profiles: {} };
      throw new UsageError(`cannot read the profile store ${this.file}: ${(e as Error).message}`);
    }
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch {
      throw new UsageError(`the profile store ${this.file} is not valid JSON; fix or remove it`);
    }
    return normalise(data);
  }

  get(name: string): Profile | undefined {
    return this.read().profiles[name];
  }

  /** Read-modify-write under the lock, replaced atomically. Returns the new content. */
  async update(mutate: (file: ProfileFile) => void): Promise<ProfileFile> {
    if (this.opts.dryRun) {
      const file = this.read();
      mutate(file);
      return file;
    }
    this.ensureDir();
    const writeFileAtomic = await loadWriteFileAtomic();
    return withLock(`${this.file}.lock`, () => {
      this.removeLeftover();
      const file = this.read();
      mutate(file);
      // The name of the temporary file is noted until the rename: a writer killed before it (kill -9, a
      // power cut) leaves a file that holds keys, which the next writer removes.
      writeFileAtomic.sync(this.file, `${JSON.stringify(file, undefined, '\t')}\n`, {
        mode: 0o600,
        tmpfileCreated: (tmp) => writeFileSync(this.pending, tmp, { mode: 0o600 }),
      });
      rmSync(this.pending, { force: true });
      chmodSync(this.file, 0o600);
      return file;
    });
  }

  /** Where a write notes its temporary file until it is renamed over the store. */
  private get pending(): string {
    return `${this.file}.pending`;
  }

  /** The temporary file of a writer that died before its rename (under the lock: no other writer is using one). */
  private removeLeftover(): void {
    let left: string;
    try {
      left = readFileSync(this.pending, 'utf8');
    } catch {
      return;
    }
    if (left.startsWith(`${this.file}.`)) rmSync(left, { force: true });
    rmSync(this.pending, { force: true });
  }

  private ensureDir(): void {
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    chmodSync(this.dir, 0o700);
  }
}

function normalise(data: unknown): ProfileFile {
  const out: ProfileFile = { profiles: {} };
  if (!data || typeof data !== 'object') return out;
  const d = data as Record<string, unknown>;
  if (typeof d.current === 'string') out.current = d.current;
  if (d.profiles && typeof d.profiles === 'object') {
    for (const [name, p] of Object.entries(d.profiles as Record<string, unknown>)) {
      if (!p || typeof p !== 'object') continue;
      const q = p as Record<string, unknown>;
      const prof: Profile = {};
      if (typeof q.baseUrl === 'string') prof.baseUrl = q.baseUrl;
      if (typeof q.apiKey === 'string') prof.apiKey = q.apiKey;
      if (q.readOnly === true) prof.readOnly = true;
      out.profiles[name] = prof;
    }
  }
  return out;
}

/** Whether a process with this id runs on this machine (EPERM: it runs, as another user). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Which lock file this is: its inode, modification time and the pid written in it. */
interface LockId {
  ino: number;
  mtimeMs: number;
  pid: number;
}

function lockId(path: string): LockId | undefined {
  try {
    const st = statSync(path);
    return { ino: st.ino, mtimeMs: st.mtimeMs, pid: Number(readFileSync(path, 'utf8')) };
  } catch {
    return undefined; // released meanwhile
  }
}

const sameLock = (a: LockId, b: LockId) => a.ino === b.ino && a.mtimeMs === b.mtimeMs && a.pid === b.pid;

/**
 * Whether a lock was left by a writer that died holding it: its process is gone (a write takes
 * milliseconds, so a second of age rules out a lock being created right now), or it is older than any
 * write takes (a lock from another machine, or a pid reused since).
 */
function stale(id: LockId): boolean {
  const age = Date.now() - id.mtimeMs;
  if (age > 10_000) return true;
  return age > 1_000 && Number.isInteger(id.pid) && id.pid > 0 && !alive(id.pid);
}

/**
 * Breaks the stale lock `seen`, and only that one. Several writers may judge it stale at once: the one
 * that creates the claim file named after it (O_EXCL) breaks it, the others wait. Under the claim the lock
 * is checked to be still `seen` (not a lock taken since) and moved aside by an atomic rename; if what was
 * moved is not `seen` after all (taken over in between), it is put back with link(), which never
 * replaces a lock another writer has made.
 */
function breakStale(lockPath: string, seen: LockId): void {
  const claim = `${lockPath}.break-${seen.ino}-${Math.round(seen.mtimeMs)}`;
  try {
    closeSync(openSync(claim, 'wx', 0o600));
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    // A claim is held for a moment; one left by a writer that died holding it goes.
    const st = statSync(claim, { throwIfNoEntry: false });
    if (st && Date.now() - st.mtimeMs > 2_000) rmSync(claim, { force: true });
    return;
  }
  try {
    const now = lockId(lockPath);
    if (!now || !sameLock(now, seen)) return;
    const aside = `${lockPath}.broken-${process.pid}-${Date.now()}`;
    try {
      renameSync(lockPath, aside);
    } catch {
      return;
    }
    const moved = lockId(aside);
    if (moved && !sameLock(moved, seen)) {
      try {
        linkSync(aside, lockPath);
      } catch {
        /* another writer has made a lock since: it is theirs */
      }
    }
    rmSync(aside, { force: true });
  } finally {
    rmSync(claim, { force: true });
  }
}

/**
 * An exclusive lock file holding the writer's pid. One left by a writer killed while holding it (kill -9,
 * a power cut) is taken over as soon as its process is gone, by one writer only (breakStale); a lock
 * is waited for up to 10 s.
 */
function withLock<T>(lockPath: string, fn: () => T): T {
  const deadline = Date.now() + 10_000;
  const sleeper = new Int32Array(new SharedArrayBuffer(4));
  let mine: LockId | undefined;
  for (;;) {
    try {
      const fd = openSync(lockPath, 'wx', 0o600);
      writeSync(fd, String(process.pid));
      closeSync(fd);
      mine = lockId(lockPath);
      break;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      const held = lockId(lockPath);
      if (held && stale(held)) breakStale(lockPath, held);
      if (Date.now() > deadline) throw new UsageError(`the profile store is locked by another process (${lockPath})`);
      Atomics.wait(sleeper, 0, 0, 10 + Math.floor(Math.random() * 20));
    }
  }
  try {
    return fn();
  } finally {
    // Released only if it is still this writer's (a lock held past the stale age may have been broken).
    const now = lockId(lockPath);
    if (now && mine && sameLock(now, mine)) rmSync(lockPath, { force: true });
  }
}

interface ResolveInput {
  flags: { apiKey?: string; baseUrl?: string; profile?: string };
  env: NodeJS.ProcessEnv;
  store: ProfileStore;
}

/**
 * Flag > environment > profile, each value on its own. The profile file is read only when a value is
 * still missing or a profile was named, so a script with SVC_API_KEY and SVC_BASE_URL never touches it.
 */
export function resolveSettings({ flags, env, store }: ResolveInput): ResolvedSettings {
  // A flag given empty (`--api-key "$UNSET"` in a script) is a mistake, not a request for the next
  // source: falling through to the profile would quietly use someone's saved key, maybe for another service.
  for (const [flag, value] of [
    ['--api-key', flags.apiKey],
    ['--base-url', flags.baseUrl],
    ['--profile', flags.profile],
  ] as const) {
    if (value !== undefined && value.trim() === '') throw new UsageError(`${flag}: empty; give a value, or leave the flag out`);
  }
  const keyFrom: Resolved<string | undefined> = flags.apiKey
    ? { value: flags.apiKey, source: 'flag' }
    : env.SVC_API_KEY
      ? { value: env.SVC_API_KEY, source: 'env' }
      : { value: undefined, source: 'none' };
  const urlFrom: Resolved<string | undefined> = flags.baseUrl
    ? { value: flags.baseUrl, source: 'flag' }
    : env.SVC_BASE_URL
      ? { value: env.SVC_BASE_URL, source: 'env' }
      : { value: undefined, source: 'none' };
  let profile: Resolved<string | undefined> = flags.profile
    ? { value: flags.profile, source: 'flag' }
    : env.SVC_PROFILE
      ? { value: env.SVC_PROFILE, source: 'env' }
      : { value: undefined, source: 'none' };

  let prof: Profile | undefined;
  if (profile.value !== undefined || keyFrom.value === undefined || urlFrom.value === undefined) {
    const file = store.read();
    if (profile.value === undefined && file.current) profile = { value: file.current, source: 'profile' };
    if (profile.value !== undefined) {
      prof = file.profiles[profile.value];
      if (!prof && profile.source !== 'profile') {
        const known = Object.keys(file.profiles);
        throw new UsageError(
          `no profile named '${profile.value}' (from ${profile.source === 'flag' ? '--profile' : 'SVC_PROFILE'}); ` +
            (known.length ? `known profiles: ${known.join(', ')}` : 'create one with `svc profile add` or `svc login`'),
        );
      }
    }
  }
  const apiKey = keyFrom.value === undefined && prof?.apiKey ? { value: prof.apiKey, source: 'profile' as const } : keyFrom;
  const baseUrl: Resolved<string> =
    urlFrom.value !== undefined
      ? { value: urlFrom.value, source: urlFrom.source }
      : prof?.baseUrl
        ? { value: prof.baseUrl, source: 'profile' }
        : { value: DEFAULT_BASE_URL, source: 'default' };
  return { profile, apiKey, baseUrl, readOnly: Boolean(prof?.readOnly), configFile: store.file };
}

/** The key, or exit 3 saying how to get one. */
export function requireApiKey(s: ResolvedSettings): string {
  if (!s.apiKey.value) {
    throw new CredentialsError(
      'no API key: run `svc login`, pass --api-key or set SVC_API_KEY, or start a local service with `svc dev` and use --profile local',
    );
  }
  const from = s.apiKey.source === 'flag' ? '--api-key' : s.apiKey.source === 'env' ? 'SVC_API_KEY' : `the API key of profile '${s.profile.value}'`;
  return checkApiKey(s.apiKey.value, from);
}

/**
 * A key is one word of printable characters: a newline or space (a key pasted with its line end)
 * would fail in the HTTP layer and be retried as if the network had failed. `from` names its source.
 */
export function checkApiKey(key: string, from: string): string {
  if (key === '') throw new UsageError(`${from}: empty`);
  if (!/^[\x21-\x7e]+$/.test(key)) {
    throw new UsageError(`${from}: contains a space, a control character or a non-ASCII character; an API key is one word of printable characters`);
  }
  return key;
}

/**
 * The base URL requests go to, checked before any is sent: a URL that is not http(s) is bad input
 * (exit 2) naming where it came from, not a network error retried until it gives up.
 */
export function requireBaseUrl(s: Pick<ResolvedSettings, 'baseUrl' | 'profile'>): string {
  const { value, source } = s.baseUrl;
  let ok = false;
  try {
    const u = new URL(value);
    ok = (u.protocol === 'http:' || u.protocol === 'https:') && u.hostname !== '';
  } catch {
    ok = false;
  }
  if (ok) return value;
  const where = source === 'env' ? 'SVC_BASE_URL' : source === 'profile' ? `the base URL of profile '${s.profile.value ?? '?'}'` : '--base-url';
  const fix = source === 'profile' ? `; fix it with svc profile add ${s.profile.value ?? 'NAME'} --base-url URL` : '';
  throw new UsageError(`${where}: expected an http:// or https:// URL, got ${JSON.stringify(value.slice(0, 100))}${fix}`);
}

/** The profile `svc dev` saves and points at the local service. */
const LOCAL_PROFILE = 'local';

/**
 * The advice for a request the service refused to connect to, when the target is the local service
 * (the `local` profile, or a loopback address): it is most likely not running.
 */
export function stoppedServiceHint(s: Pick<ResolvedSettings, 'baseUrl' | 'profile'>): string | undefined {
  let host = '';
  try {
    host = new URL(s.baseUrl.value).hostname;
  } catch {
    return undefined;
  }
  const loopback = host === 'localhost' || host === '[::1]' || host === '::1' || /^127\./.test(host);
  if (s.profile.value !== LOCAL_PROFILE && !loopback) return undefined;
  return 'is `svc dev` running? start it with `svc dev` (in another terminal)';
}
