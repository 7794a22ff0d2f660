// `svc --version --verbose`: which Node runs svc, which store driver `svc dev` uses, and whether the
// runtime's compile cache is on (bin/svc.js turns it on), beside the supported Node lines. What a
// maintainer asks for first when svc misbehaves on someone's machine.

/** What node:module's enableCompileCache() answered in bin/svc.js (status: node:module's constants). */
export interface CompileCacheResult {
  status: number;
  message?: string;
  directory?: string;
}

const SUPPORTED_NODE = '22 (from 22.19), 24 and 26';

/** The store driver: its version, and whether its native binding loads on this Node. */
function storeDriver(): string {
  const require = process.getBuiltinModule('node:module').createRequire(import.meta.url);
  let version: string;
  try {
    version = (require('better-sqlite3/package.json') as { version: string }).version;
  } catch {
    return 'better-sqlite3: not installed (svc dev cannot run)';
  }
  try {
    const Database = require('better-sqlite3') as new (file: string) => { close(): void };
    new Database(':memory:').close();
    return `better-sqlite3 ${version} (N-API binding, loads)`;
  } catch (e) {
    return `better-sqlite3 ${version}: its binding does not load: ${String((e as Error).message ?? e).split('\n')[0]}`;
  }
}

function compileCache(result: CompileCacheResult | undefined): string {
  const m = process.getBuiltinModule('node:module');
  const { DISABLED, FAILED } = m.constants.compileCacheStatus;
  const dir = m.getCompileCacheDir();
  if (dir) return `on, ${dir}`;
  if (result?.status === DISABLED) return 'off (NODE_DISABLE_COMPILE_CACHE is set)';
  if (result?.status === FAILED) return `off (${result.message ?? 'the cache folder cannot be used'})`;
  return 'off';
}

/** The lines printed after the version. */
export function about(result?: CompileCacheResult): string {
  return [
    `node: ${process.versions.node} (${process.execPath}); supported: ${SUPPORTED_NODE}`,
    `store driver: ${storeDriver()}`,
    `compile cache: ${compileCache(result)}`,
  ].join('\n');
}
