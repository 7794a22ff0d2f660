// Opening the store file: refuse what is not ours (a corrupt file, another program's database, a
// store written by a newer svc) before writing a single byte, then switch to WAL and migrate.
import Database from 'better-sqlite3';
import { chmodSync, closeSync, existsSync, mkdirSync, openSync, readFileSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { MIGRATION_FUNCTIONS, MIGRATIONS, SCHEMA_VERSION } from './migrations.js';

export type DB = Database.Database;

/** The store file cannot be used as it is. An error of the service: `svc dev` reports it (exit 1, with the hint). */
export class StoreError extends Error {
  constructor(
    message: string,
    readonly hint?: string,
  ) {
    super(message);
    this.name = 'StoreError';
  }
}

/**
 * The store's folder does not exist. A plain error of the service (not a CLI error): `svc dev` turns
 * it into a usage error naming --data.
 */
export class StoreFolderMissing extends Error {
  readonly code = 'store_folder_missing';
  constructor(readonly folder: string) {
    super(`the folder ${folder} does not exist`);
  }
}

/** The store holds the environment's secret key and subscribers' personal data: owner only. */
export const STORE_FILE_MODE = 0o600;

interface OpenedDatabase {
  db: DB;
  /** The file had no schema yet: demo data may be added. */
  created: boolean;
}

export const MEMORY = ':memory:';

export interface OpenOptions {
  /** Create the file's folders when missing (the default location); otherwise a missing folder is refused. */
  createFolder?: boolean | undefined;
}

export function openDatabase(file: string, opts: OpenOptions = {}): OpenedDatabase {
  if (file !== MEMORY) {
    const folder = dirname(file);
    if (opts.createFolder) mkdirSync(folder, { recursive: true, mode: 0o700 });
    else if (!existsSync(folder) || !statSync(folder).isDirectory()) throw new StoreFolderMissing(folder);
    restrictStoreFiles(file);
  }
  // A new store in memory starts from the build's template, the migrations' result, instead of running them.
  const fromTemplate = file === MEMORY ? openTemplate(templateBytes()) : undefined;
  let db: DB;
  try {
    db = fromTemplate ?? new Database(file);
  } catch (e) {
    throw new StoreError(`cannot open the store ${file}: ${(e as Error).message}`);
  }
  try {
    return prepare(db, file, fromTemplate !== undefined);
  } catch (e) {
    db.close();
    throw e;
  }
}

/**
 * A new store's schema, every migration applied, as SQLite's bytes. The build writes it to
 * dist/store-template.db; an in-memory store opens a copy of it, which SQLite reads back at once, instead
 * of running every migration.
 */
export function schemaTemplate(): Buffer {
  const db = new Database(MEMORY);
  try {
    migrate(db, 0);
    return db.serialize();
  } finally {
    db.close();
  }
}

declare const __SVC_STORE_TEMPLATE__: string | undefined;
let template: Buffer | null | undefined;

/** The build's template (its path, relative to this module's file, is set by the build), read once; null when run from source or unreadable. */
function templateBytes(): Buffer | null {
  if (template !== undefined) return template;
  template = null;
  if (typeof __SVC_STORE_TEMPLATE__ === 'string') {
    try {
      template = readFileSync(new URL(__SVC_STORE_TEMPLATE__, import.meta.url));
    } catch {
      // no template beside the build: the migrations run instead
    }
  }
  return template;
}

/**
 * A store opened from a copy of a template's bytes, or undefined when there are none or they are not a
 * store SQLite can read (a damaged build): the store is then made by the migrations, as from source.
 */
export function openTemplate(bytes: Buffer | null): DB | undefined {
  if (!bytes) return undefined;
  let db: DB | undefined;
  try {
    db = new Database(bytes);
    db.pragma('user_version', { simple: true });
    return db;
  } catch {
    db?.close();
    return undefined;
  }
}

function prepare(db: DB, file: string, fromTemplate: boolean): OpenedDatabase {
  let version: number;
  let tables: number;
  try {
    // A short wait only: a second `svc dev` on the same file should fail fast, not hang.
    db.pragma('busy_timeout = 1000');
    // Exclusive locking: one process owns the store, so two servers never run the same jobs.
    if (file !== MEMORY) db.pragma('locking_mode = EXCLUSIVE');
    version = db.pragma('user_version', { simple: true }) as number;
    tables = (db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE type = 'table'").get() as { n: number }).n;
    // A file damaged inside its pages opens and reads its header fine, then fails request after
    // request. quick_check reads every page without writing (milliseconds for a dev store) and names
    // the damage before anything is written.
    if (tables > 0 && !fromTemplate) {
      const check = db.pragma('quick_check', { simple: true }) as string;
      if (check !== 'ok')
        throw Object.assign(
          new Error(
            `corrupt: ${
              String(check)
                .split('\n')
                .find((l) => l && !l.startsWith('***')) ?? check
            }`,
          ),
          { code: 'SQLITE_CORRUPT' },
        );
    }
  } catch (e) {
    const code = (e as { code?: string }).code;
    if (code === 'SQLITE_BUSY') {
      throw new StoreError(`the store ${file} is in use by another process`, 'stop the other `svc dev`, or use another --data file');
    }
    throw new StoreError(
      `the store ${file} is not a readable svc store (${(e as Error).message})`,
      'it was left untouched; move it away or choose another file with --data',
    );
  }
  if (version > SCHEMA_VERSION) {
    throw new StoreError(
      `the store ${file} has schema version ${version}, newer than this svc understands (${SCHEMA_VERSION})`,
      'it was left untouched; upgrade svc, or choose another file with --data',
    );
  }
  if (version === 0 && tables > 0) {
    throw new StoreError(`${file} is an SQLite database but not an svc store`, 'it was left untouched; choose another file with --data');
  }
  if (file !== MEMORY) {
    db.pragma('journal_mode = WAL');
    // NORMAL in WAL mode: a commit is in the WAL file (the OS's cache) before its replies are sent,
    // so it survives the process being killed (kill -9, a crash); a power cut or kernel crash can lose
    // the last transactions. FULL would fsync the WAL at every commit: with group commit that is one
    // fsync per batch, not per trigger, but still the disk's flush latency on every reply. A local
    // development service takes NORMAL.
    db.pragma('synchronous = NORMAL');
    // A page cache that holds the indexes' hot pages (the default holds 2 MB), and a checkpoint every
    // 10,000 pages of WAL instead of 1,000: a checkpoint runs inside the COMMIT that crosses the mark,
    // so the answers of that batch wait for it.
    db.pragma('cache_size = -65536');
    db.pragma('wal_autocheckpoint = 10000');
  }
  // Savepoint journals in memory: every request and every look of the runner runs in a savepoint of
  // its group-commit batch, and SQLite copies each page a savepoint first changes into its journal, a
  // temporary file by default (this build: TEMP_STORE=1), i.e. write() calls on every trigger. Only a
  // rollback of a savepoint in this process reads it; a crash leaves the WAL with whole transactions
  // either way.
  db.pragma('temp_store = MEMORY');
  db.pragma('foreign_keys = ON');
  migrate(db, version);
  return { db, created: version === 0 || fromTemplate };
}

function migrate(db: DB, from: number): void {
  if (from < MIGRATIONS.length) for (const [name, fn] of Object.entries(MIGRATION_FUNCTIONS)) db.function(name, { deterministic: true }, fn);
  for (let v = from; v < MIGRATIONS.length; v++) {
    db.transaction(() => {
      db.exec(MIGRATIONS[v]!);
      db.pragma(`user_version = ${v + 1}`);
    })();
  }
}

/**
 * Creates the store file owner-only before SQLite opens it (SQLite gives its -wal and -shm files the
 * main file's mode), and takes group and other access away from files an older svc created 0644.
 */
function restrictStoreFiles(file: string): void {
  try {
    closeSync(openSync(file, 'a', STORE_FILE_MODE));
  } catch {
    return; // unreadable or a folder: SQLite names the problem
  }
  for (const f of [file, `${file}-wal`, `${file}-shm`, `${file}-journal`]) {
    try {
      if (existsSync(f) && (statSync(f).mode & 0o077) !== 0) chmodSync(f, STORE_FILE_MODE);
    } catch {
      // not ours to change (another owner): leave it
    }
  }
}
