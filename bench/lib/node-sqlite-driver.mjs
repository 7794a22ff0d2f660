// Node's built-in SQLite (`node:sqlite`, DatabaseSync) behind the part of better-sqlite3's API the
// store uses (prepare → run/get/all/iterate, exec, function, pragma, transaction, inTransaction,
// open, close), so that the benches can run the same store code on either driver and compare them
// (`--driver node:sqlite`: the bundle resolves `better-sqlite3` to this file). A measuring tool, not
// shipped: `svc dev` uses better-sqlite3 (bench/RESULTS-node-lines.md says why).
const { DatabaseSync } = process.getBuiltinModule('node:sqlite');

/** A plain object is a set of named parameters (`@name` in the SQL); anything else is positional. */
const named = (a) => a !== null && typeof a === 'object' && !(a instanceof Uint8Array) && !Array.isArray(a);

class Statement {
  constructor(stmt) {
    this.stmt = stmt;
  }
  run(...args) {
    return args.length === 1 && named(args[0]) ? this.stmt.run(args[0]) : this.stmt.run(...args);
  }
  get(...args) {
    return args.length === 1 && named(args[0]) ? this.stmt.get(args[0]) : this.stmt.get(...args);
  }
  all(...args) {
    return args.length === 1 && named(args[0]) ? this.stmt.all(args[0]) : this.stmt.all(...args);
  }
  iterate(...args) {
    return args.length === 1 && named(args[0]) ? this.stmt.iterate(args[0]) : this.stmt.iterate(...args);
  }
}

let savepoints = 0;

export default class Database {
  constructor(file) {
    this.db = new DatabaseSync(file);
  }
  get open() {
    return this.db.isOpen;
  }
  get inTransaction() {
    return this.db.isOpen && this.db.isTransaction;
  }
  prepare(sql) {
    return new Statement(this.db.prepare(sql));
  }
  /** A JavaScript function callable from SQL (better-sqlite3's options: deterministic, varargs). */
  function(name, opts, fn) {
    if (typeof opts === 'function') this.db.function(name, opts);
    else this.db.function(name, { deterministic: opts.deterministic ?? false, varargs: opts.varargs ?? false }, fn);
    return this;
  }
  exec(sql) {
    this.db.exec(sql);
    return this;
  }
  pragma(text, opts = {}) {
    const rows = this.db.prepare(`PRAGMA ${text}`).all();
    if (!opts.simple) return rows;
    const first = rows[0];
    return first === undefined ? undefined : Object.values(first)[0];
  }
  /** better-sqlite3's semantics: BEGIN/COMMIT outside a transaction, a savepoint inside one. */
  transaction(fn) {
    const db = this.db;
    return (...args) => {
      if (!db.isTransaction) {
        db.exec('BEGIN');
        try {
          const out = fn(...args);
          db.exec('COMMIT');
          return out;
        } catch (e) {
          if (db.isTransaction) db.exec('ROLLBACK');
          throw e;
        }
      }
      const name = `s${++savepoints}`;
      db.exec(`SAVEPOINT ${name}`);
      try {
        const out = fn(...args);
        db.exec(`RELEASE ${name}`);
        return out;
      } catch (e) {
        db.exec(`ROLLBACK TO ${name}`);
        db.exec(`RELEASE ${name}`);
        throw e;
      }
    };
  }
  close() {
    this.db.close();
    return this;
  }
}
