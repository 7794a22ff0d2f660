// Fills the completion cache (core/completion-cache.ts) with the workflow and subscriber ids the events
// commands have just read, so that Tab can offer them without a request. Never fails a command.
import { localState } from '../../config/local-state.js';
import { printedMatches, rememberPrinted, rememberRecords } from '../../core/completion-cache.js';
import type { Deps } from '../../deps.js';

export function cacheScope(deps: Deps): { dir: string; profile: string } | undefined {
  return localState(() => deps.settings());
}

export async function rememberIds(deps: Deps, records: readonly unknown[]): Promise<void> {
  if (deps.globals.dryRun || records.length === 0) return;
  const scope = cacheScope(deps);
  if (!scope) return;
  try {
    rememberRecords(records, scope);
  } catch {
    // best effort
  }
}

/** Remembers the event ids a table printed (shortened there), for `events get SHORT`. */
export async function rememberPrintedEvents(deps: Deps, records: readonly unknown[]): Promise<void> {
  if (deps.format() !== 'table') return;
  await rememberShown(
    deps,
    records.map((r) => (r as { _id?: unknown })?._id),
  );
}

/**
 * Remembers the event ids `events browse` has shown so far, as one list that replaces its own earlier
 * form as pages load (an id read off the browser resolves in `events get` however old its event).
 */
export async function rememberBrowsed(deps: Deps, ids: readonly string[], key: string): Promise<void> {
  await rememberShown(deps, ids, key);
}

async function rememberShown(deps: Deps, ids: readonly unknown[], key?: string): Promise<void> {
  if (deps.globals.dryRun || ids.length === 0) return;
  const scope = cacheScope(deps);
  if (!scope) return;
  try {
    rememberPrinted(ids, scope, key);
  } catch {
    // best effort
  }
}

/** The remembered full event ids a short id names (none when nothing is remembered). */
export async function printedEventIds(deps: Deps): Promise<(short: string) => string[]> {
  const scope = cacheScope(deps);
  if (!scope) return () => [];
  return (short) => {
    try {
      return printedMatches(short, scope);
    } catch {
      return [];
    }
  };
}
