// Fills the completion cache (core/completion-cache.ts) with the workflow and subscriber ids the events
// commands have just read, so that Tab can offer them without a request. Never fails a command.
import { dirname } from 'node:path';
import type { Deps } from '../../deps.js';

export function cacheScope(deps: Deps): { dir: string; profile: string } | undefined {
  try {
    const s = deps.settings();
    return { dir: dirname(s.configFile), profile: s.profile.value ?? s.baseUrl.value };
  } catch {
    return undefined;
  }
}

export async function rememberIds(deps: Deps, records: readonly unknown[]): Promise<void> {
  if (deps.globals.dryRun || records.length === 0) return;
  const scope = cacheScope(deps);
  if (!scope) return;
  try {
    const { rememberRecords } = await import('../../core/completion-cache.js');
    rememberRecords(records, scope);
  } catch {
    // best effort
  }
}

/** Remembers the event ids a table printed (shortened there), for `events get SHORT`. */
export async function rememberPrintedEvents(deps: Deps, records: readonly unknown[]): Promise<void> {
  if (deps.globals.dryRun || records.length === 0 || deps.format() !== 'table') return;
  const scope = cacheScope(deps);
  if (!scope) return;
  try {
    const { rememberPrinted } = await import('../../core/completion-cache.js');
    rememberPrinted(
      records.map((r) => (r as { _id?: unknown })?._id),
      scope,
    );
  } catch {
    // best effort
  }
}

/** The remembered full event ids a short id names (none when nothing is remembered). */
export async function printedEventIds(deps: Deps): Promise<(short: string) => string[]> {
  const scope = cacheScope(deps);
  if (!scope) return () => [];
  const { printedMatches } = await import('../../core/completion-cache.js');
  return (short) => {
    try {
      return printedMatches(short, scope);
    } catch {
      return [];
    }
  };
}

/**
 * Remembers the event ids `events browse` has shown so far, as one list that replaces its own earlier
 * form as pages load (an id read off the browser resolves in `events get` however old its event).
 */
export async function rememberBrowsed(deps: Deps, ids: readonly string[], key: string): Promise<void> {
  if (ids.length === 0) return;
  const scope = cacheScope(deps);
  if (!scope) return;
  try {
    const { rememberPrinted } = await import('../../core/completion-cache.js');
    rememberPrinted(ids, scope, key);
  } catch {
    // best effort
  }
}
