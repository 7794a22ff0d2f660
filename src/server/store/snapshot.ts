// The whole store as one value: the state it started in (kept for `svc dev reset`), a snapshot of it
// as an SQLite file (`svc dev snapshot save`, `--export-on-exit`), and replacing its whole content
// with one (`snapshot load`, `--import`, reset). All of it by SQLite's own means:
//
// - The start state is a copy in an in-memory database ATTACHed to the store's own connection: a
//   reset is then DELETE and INSERT … SELECT of every table in one transaction, at the speed of SQLite
//   copying pages, and every prepared statement, the connection and its pragmas stay as they are.
// - A snapshot is `serialize()` of the main database: one synchronous read of its pages (through the
//   WAL, so with everything committed), so nothing can write in the middle of it. VACUUM INTO would
//   give a smaller file but rebuilds every table and index while the service waits.
// - Loading one checks it in a database of its own (`new Database(bytes)`), brings an older one
//   forward with the store's migrations (in a private temporary file: ATTACH needs a file), and then
//   copies it in as a reset does.
//
// Callers stop the job runner first and call these only while no group-commit batch is open
// (Store.afterCommit): what is copied is then committed state, and no job of the old state runs on.
import Database from 'better-sqlite3';
import { mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase, STORE_FILE_MODE, type DB } from './db.js';
import type { Store } from './index.js';
import { SCHEMA_VERSION } from './migrations.js';

/** The attached copy of the state the store started in. */
const START = 'svc_start';
/** A snapshot being loaded, attached while it is copied in. */
const INCOMING = 'svc_incoming';

/** The first 16 bytes of every SQLite database file. */
const SQLITE_HEADER = Buffer.from('SQLite format 3\0', 'latin1');

/** A snapshot that cannot be loaded: the caller's input (a 422 over HTTP, exit 2 at start-up). */
export class SnapshotError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SnapshotError';
  }
}

/**
 * The largest store whose start state is kept: the copy is made at start (memory, and start-up time,
 * in proportion to the store), so a long-lived store larger than this starts without one and
 * `svc dev reset` says why. A test's store (--in-memory, --import, a seed) is far below it.
 */
const START_STATE_MAX_BYTES = 256 * 1024 * 1024;

/** No start state to go back to (the store was too large at start): a 409 over HTTP. */
export class NoStartState extends Error {
  constructor(readonly bytes: number) {
    super(
      `the store was ${Math.round(bytes / 1024 / 1024)} MB when svc dev started, more than the ${START_STATE_MAX_BYTES / 1024 / 1024} MB whose start state it keeps: start it with --in-memory, --import FILE or a smaller --data to reset`,
    );
    this.name = 'NoStartState';
  }
}

const tooLarge = new WeakMap<Store, number>();

/** Whether these bytes start as an SQLite database does (the cheap first check, before sending). */
function looksLikeSqlite(bytes: Uint8Array): boolean {
  return bytes.length >= SQLITE_HEADER.length && SQLITE_HEADER.equals(Buffer.from(bytes.subarray(0, SQLITE_HEADER.length)));
}

const q = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** The tables of one attached database, SQLite's own left out. */
function tables(db: DB, schema: string): string[] {
  return (
    db.prepare(`SELECT name FROM ${schema}.sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'`).all() as { name: string }[]
  ).map((r) => r.name);
}

function columns(db: DB, schema: string, table: string): string[] {
  return (db.prepare(`SELECT name FROM pragma_table_info(?, ?)`).all(table, schema) as { name: string }[]).map((r) => r.name);
}

function attached(db: DB, schema: string): boolean {
  return (db.prepare('SELECT count(*) AS n FROM pragma_database_list WHERE name = ?').get(schema) as { n: number }).n > 0;
}

/**
 * Tables `reset --empty` keeps from the start state: who the store's organisations and environments
 * are, with their keys and application identifiers (an app or a test configured with them keeps
 * working). Named by what they hold, so that a table of environments' keys added later is kept too.
 */
export function keptWhenEmpty(table: string): boolean {
  return /organization|environment|api_key/.test(table);
}

/**
 * Keeps the store's present content as its start state (a copy in memory, replacing one kept before).
 * Every environment's application identifier is made first: it is created on first use otherwise, and
 * a reset would then hand the Inbox apps a new one.
 */
export function keepStartState(store: Store): void {
  const { db } = store;
  store.tx(() => {
    for (const { id } of db.prepare('SELECT id FROM environments').all() as { id: string }[]) store.inbox.settings(id);
  });
  const bytes = (db.pragma('page_count', { simple: true }) as number) * (db.pragma('page_size', { simple: true }) as number);
  if (bytes > START_STATE_MAX_BYTES) {
    tooLarge.set(store, bytes);
    if (attached(db, START)) db.exec(`DETACH DATABASE ${START}`);
    return;
  }
  tooLarge.delete(store);
  if (!attached(db, START)) db.exec(`ATTACH DATABASE ':memory:' AS ${START}`);
  db.transaction(() => {
    for (const t of tables(db, START)) db.exec(`DROP TABLE ${START}.${q(t)}`);
    for (const t of tables(db, 'main')) db.exec(`CREATE TABLE ${START}.${q(t)} AS SELECT * FROM main.${q(t)}`);
  })();
}

interface ReplaceOptions {
  /** Copy only the tables this keeps (reset --empty); every table is emptied first either way. */
  keep?: (table: string) => boolean;
  /** More writes in the same transaction, once the copy is in (and the store's caches forgotten). */
  then?: () => void;
}

/**
 * Replaces every table's rows with those of the attached database `from`, in one transaction, and
 * makes the store forget what it had cached of the old rows. Triggers are dropped while the rows are
 * copied and made again after: their derived rows (the message counts) come with the copy, and without
 * triggers or foreign-key checks SQLite empties a table whole instead of row by row.
 */
function replaceFrom(store: Store, from: string, opts: ReplaceOptions = {}): void {
  const { db } = store;
  if (db.inTransaction) throw new Error('the store can only be replaced between transactions');
  const triggers = db.prepare("SELECT name, sql FROM main.sqlite_master WHERE type = 'trigger'").all() as { name: string; sql: string }[];
  const source = new Set(tables(db, from));
  db.pragma('foreign_keys = OFF');
  try {
    store.tx(() => {
      for (const t of triggers) db.exec(`DROP TRIGGER main.${q(t.name)}`);
      const targets = tables(db, 'main');
      for (const t of targets) db.exec(`DELETE FROM main.${q(t)}`);
      for (const t of targets) {
        if (!source.has(t) || (opts.keep && !opts.keep(t))) continue;
        const have = new Set(columns(db, from, t));
        const cols = columns(db, 'main', t)
          .filter((c) => have.has(c))
          .map(q)
          .join(', ');
        db.exec(`INSERT INTO main.${q(t)} (${cols}) SELECT ${cols} FROM ${from}.${q(t)}`);
      }
      for (const t of triggers) db.exec(t.sql);
      store.reloaded();
      opts.then?.();
    });
  } finally {
    store.reloaded();
    db.pragma('foreign_keys = ON');
  }
}

/** The store as it started (keepStartState), or only its organisations and environments with `keep`. */
export function restoreStartState(store: Store, opts: ReplaceOptions = {}): void {
  const large = tooLarge.get(store);
  if (large !== undefined) throw new NoStartState(large);
  if (!attached(store.db, START)) throw new Error('the start state of the store was not kept');
  replaceFrom(store, START, opts);
}

/** The whole store as the bytes of one SQLite database file. */
export function snapshotBytes(store: Store): Buffer {
  return store.db.serialize({ attached: 'main' });
}

/** Writes a snapshot to `file` (owner-only, whole or not at all: a temporary file renamed over it). */
export function writeSnapshotFile(store: Store, file: string): number {
  const bytes = snapshotBytes(store);
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    writeFileSync(tmp, bytes, { mode: STORE_FILE_MODE });
    renameSync(tmp, file);
  } catch (e) {
    rmSync(tmp, { force: true });
    throw e;
  }
  return bytes.length;
}

/** Why these bytes are not a snapshot this svc can load; undefined when they are one. */
export function snapshotProblem(bytes: Buffer): string | undefined {
  if (!looksLikeSqlite(bytes)) return 'not an svc snapshot (not an SQLite database file)';
  let probe: DB | undefined;
  try {
    probe = new Database(bytes);
    const version = probe.pragma('user_version', { simple: true }) as number;
    if (version === 0) return 'not an svc snapshot (an SQLite database, but not an svc store)';
    if (version > SCHEMA_VERSION) return `written by a newer svc (schema version ${version}; this svc understands up to ${SCHEMA_VERSION})`;
    const check = String(probe.pragma('quick_check', { simple: true }));
    if (check !== 'ok') return `damaged (${check.split('\n')[0]})`;
    return undefined;
  } catch (e) {
    return `not a readable svc snapshot (${(e as Error).message})`;
  } finally {
    probe?.close();
  }
}

/**
 * Replaces the store's whole content with a snapshot's. The snapshot is checked first (SnapshotError
 * says what is wrong, and the store is left as it was); one written by an older svc is migrated.
 */
export function loadSnapshot(store: Store, bytes: Buffer): void {
  const problem = snapshotProblem(bytes);
  if (problem) throw new SnapshotError(problem);
  const dir = mkdtempSync(join(tmpdir(), 'svc-snapshot-'));
  const file = join(dir, 'snapshot.sqlite');
  try {
    writeFileSync(file, bytes, { mode: STORE_FILE_MODE });
    // Opened as a store is: the same checks, and the migrations of an older one.
    openDatabase(file).db.close();
    store.db.prepare(`ATTACH DATABASE ? AS ${INCOMING}`).run(file);
    try {
      replaceFrom(store, INCOMING);
    } finally {
      store.db.exec(`DETACH DATABASE ${INCOMING}`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
