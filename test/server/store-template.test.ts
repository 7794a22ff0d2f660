// The store's template: the migrations' result as SQLite's bytes, which an in-memory store of the
// build opens instead of running the migrations. It must be exactly what the migrations make, each
// store opened from it must be its own copy, and the build must write it where its store looks.
import Database from 'better-sqlite3';
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase, openTemplate, schemaTemplate } from '../../src/server/store/db.js';
import { SCHEMA_VERSION } from '../../src/server/store/migrations.js';

type Schema = { type: string; name: string; tbl_name: string; sql: string | null }[];
const schemaOf = (db: Database.Database): Schema => db.prepare('SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name').all() as Schema;

/** A new store file, migrated as svc dev migrates every store it opens (one migration at a time). */
function migratedStepByStep(): Database.Database {
  return openDatabase(join(mkdtempSync(join(tmpdir(), 'svc-template-')), 'store.sqlite')).db;
}

describe('the store template', () => {
  it('is the schema every migration makes, at the current version, with no rows', () => {
    const fromTemplate = new Database(schemaTemplate());
    const migrated = migratedStepByStep();
    expect(fromTemplate.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    expect(schemaOf(fromTemplate)).toEqual(schemaOf(migrated));
    expect(schemaOf(fromTemplate).length).toBeGreaterThan(20);
    for (const { name } of schemaOf(fromTemplate).filter((o) => o.type === 'table' && !o.name.startsWith('sqlite_')))
      expect((fromTemplate.prepare(`SELECT count(*) AS n FROM "${name}"`).get() as { n: number }).n, name).toBe(0);
    fromTemplate.close();
    migrated.close();
  });

  it('opens as a copy: a write to one store leaves the bytes and every other store as they were', () => {
    const bytes = schemaTemplate();
    const before = Buffer.from(bytes);
    const a = new Database(bytes);
    const b = new Database(bytes);
    a.prepare("INSERT INTO organizations (id, name, created_at) VALUES ('o1', 'Org', '2026-01-01')").run();
    expect((a.prepare('SELECT count(*) AS n FROM organizations').get() as { n: number }).n).toBe(1);
    expect((b.prepare('SELECT count(*) AS n FROM organizations').get() as { n: number }).n).toBe(0);
    expect(bytes.equals(before)).toBe(true);
    a.close();
    b.close();
  });

  it('when damaged or missing, is not used: the store is made by the migrations instead', () => {
    expect(openTemplate(null)).toBeUndefined();
    expect(openTemplate(Buffer.from('not a database, a damaged build'.repeat(200)))).toBeUndefined();
    const good = openTemplate(schemaTemplate());
    expect(good?.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    good?.close();
  });

  it('is written by the build where the built store reads it, and is the current schema', () => {
    const dist = new URL('../../dist/', import.meta.url);
    const chunks = new URL('chunks/', dist);
    // The chunk holding the store names the template by a path relative to its own file.
    const readers = readdirSync(chunks).filter((f) => f.endsWith('.js') && readFileSync(new URL(f, chunks), 'utf8').includes('"../store-template.db"'));
    expect(readers).toHaveLength(1);
    expect(readFileSync(new URL('testing.js', dist), 'utf8')).toContain('"./store-template.db"');
    const file = new URL('../store-template.db', new URL(readers[0]!, chunks));
    expect(existsSync(file)).toBe(true);
    const built = new Database(readFileSync(file));
    expect(built.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    const migrated = migratedStepByStep();
    expect(schemaOf(built)).toEqual(schemaOf(migrated));
    built.close();
    migrated.close();
  });
});
