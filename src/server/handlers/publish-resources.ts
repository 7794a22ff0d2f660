// Layouts and translations between environments, beside the workflows of publish.ts: a layout is
// keyed by its `layoutId` (its name, translation switch and email controls compared; which one is the
// environment's default is each environment's own), a translation by its resource and locale (its
// texts compared key by key). Publishing copies what differs, and a whole publish deletes what the
// source no longer has (never the target's default layout).
import { DEFAULT_LAYOUT } from '../engine/layout.js';
import type { ResourceDiff, ResourceDiffResult, SyncResult } from '../../api/schemas/environment-variables.js';
import type { Environment, Store } from '../store/index.js';
import type { StoredLayout } from '../store/layouts.js';
import type { TranslationRecord } from '../store/translations.js';

/** The service's sync types for these two resources. */
const LAYOUT = 'layout';
const TRANSLATION = 'localization_group';

/** JSON with sorted keys: equal values, equal text. */
export function canon(value: unknown): string {
  return JSON.stringify(value, (_k, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1))) : v,
  );
}

/** Only the fields that differ (either side's), before and after. */
function changed(previous: Record<string, unknown>, next: Record<string, unknown>) {
  const keys = [...new Set([...Object.keys(previous), ...Object.keys(next)])].filter((k) => canon(previous[k]) !== canon(next[k]));
  if (keys.length === 0) return null;
  return { previous: Object.fromEntries(keys.map((k) => [k, previous[k] ?? null])), new: Object.fromEntries(keys.map((k) => [k, next[k] ?? null])) };
}

const layoutFields = (l: StoredLayout): Record<string, unknown> => ({ name: l.name, isTranslationEnabled: l.isTranslationEnabled, email: l.email });
const layoutInfo = (l: StoredLayout) => ({ id: l.layoutId, name: l.name, updatedAt: l.updatedAt });

/** A translation's key across environments: its resource and locale. */
const translationKey = (t: TranslationRecord) => `${t.resourceType}\u0000${t.resourceId}\u0000${t.locale}`;
const translationInfo = (t: TranslationRecord) => ({
  id: t.resourceId,
  name: `${t.resourceId} ${t.locale}`,
  updatedAt: t.updatedAt,
  resourceType: t.resourceType,
  locale: t.locale,
});

function result(type: string, change: ResourceDiff): ResourceDiffResult {
  const count = (a: string) => (change.action === a ? 1 : 0);
  return {
    resourceType: type,
    sourceResource: change.sourceResource ?? null,
    targetResource: change.targetResource ?? null,
    changes: [change],
    summary: { added: count('added'), modified: count('modified'), deleted: count('deleted'), unchanged: 0 },
  };
}

/** One result per item that differs, matched by `key`: added, modified (with the changed fields) or deleted. */
function diffBy<T>(
  type: string,
  sources: T[],
  targets: T[],
  key: (x: T) => string,
  fields: (x: T) => Record<string, unknown>,
  info: (x: T) => ResourceDiff['sourceResource'],
): ResourceDiffResult[] {
  const out: ResourceDiffResult[] = [];
  const targetByKey = new Map(targets.map((t) => [key(t), t]));
  const sourceKeys = new Set(sources.map(key));
  for (const s of sources) {
    const t = targetByKey.get(key(s));
    if (!t) out.push(result(type, { resourceType: type, sourceResource: info(s), targetResource: null, action: 'added' }));
    else {
      const diffs = changed(fields(t), fields(s));
      if (diffs) out.push(result(type, { resourceType: type, sourceResource: info(s), targetResource: info(t), action: 'modified', diffs }));
    }
  }
  for (const t of targets) {
    if (!sourceKeys.has(key(t))) out.push(result(type, { resourceType: type, sourceResource: null, targetResource: info(t), action: 'deleted' }));
  }
  return out;
}

/**
 * An environment's layouts as publishing compares them. Its default layout is made on its first use,
 * so one not made yet counts as made (as the service makes it with the environment): two untouched
 * defaults are equal.
 */
function layoutsOf(store: Store, envId: string): StoredLayout[] {
  const all = store.layouts.all(envId);
  if (all.some((l) => l.isDefault)) return all;
  const at = '1970-01-01T00:00:00.000Z';
  return [{ ...DEFAULT_LAYOUT, _id: '', envId, isDefault: true, isTranslationEnabled: false, createdAt: at, updatedAt: at }, ...all];
}

export const diffLayouts = (store: Store, sourceEnv: string, targetEnv: string) =>
  diffBy(LAYOUT, layoutsOf(store, sourceEnv), layoutsOf(store, targetEnv), (l) => l.layoutId, layoutFields, layoutInfo);

export const diffTranslations = (store: Store, sourceEnv: string, targetEnv: string) =>
  diffBy(TRANSLATION, store.translations.all(sourceEnv), store.translations.all(targetEnv), translationKey, (t) => t.content, translationInfo);

const emptyResult = (type: string): SyncResult => ({ resourceType: type, successful: [], failed: [], skipped: [], totalProcessed: 0 });

interface PublishScope {
  dryRun: boolean;
  /** The resources asked for (by id), or undefined for a whole publish. */
  chosen: string[] | undefined;
}

/** The source's layouts written into the target: created, updated, skipped when equal; a whole publish deletes the rest. */
export function publishLayouts(store: Store, source: Environment, target: Environment, scope: PublishScope): SyncResult {
  const out = emptyResult(LAYOUT);
  const wanted = (l: StoredLayout) => !scope.chosen || scope.chosen.includes(l.layoutId) || scope.chosen.includes(l._id);
  for (const r of diffLayouts(store, source.id, target.id)) {
    const change = r.changes[0]!;
    const id = (r.sourceResource ?? r.targetResource)!.id!;
    const entry = { resourceType: LAYOUT, resourceId: id, resourceName: (r.sourceResource ?? r.targetResource)!.name ?? id };
    const s = layoutsOf(store, source.id).find((l) => l.layoutId === id);
    const t = store.layouts.find(target.id, id);
    if (change.action === 'deleted') {
      if (scope.chosen || !t || t.isDefault) continue;
      if (scope.dryRun) out.skipped.push({ ...entry, reason: 'Dry run mode' });
      else {
        store.layouts.remove(t._id);
        store.workflows.dropLayout(target.id, [t.layoutId, t._id]);
        out.successful.push({ ...entry, action: 'deleted' });
      }
      continue;
    }
    if (!s || !wanted(s)) continue;
    if (scope.dryRun) out.skipped.push({ ...entry, reason: 'Dry run mode' });
    else if (t) {
      store.layouts.update(t, { name: s.name, isTranslationEnabled: s.isTranslationEnabled, email: s.email });
      out.successful.push({ ...entry, action: 'updated' });
    } else {
      // The target's default not made yet is made as the source's (the same layoutId, still its default).
      const isDefault = s.isDefault && !store.layouts.findDefault(target.id);
      store.layouts.create(target, { layoutId: s.layoutId, name: s.name, isDefault, isTranslationEnabled: s.isTranslationEnabled, email: s.email });
      out.successful.push({ ...entry, action: 'created' });
    }
  }
  out.totalProcessed = out.successful.length + out.skipped.length + out.failed.length;
  return out;
}

/** The source's translations written into the target, each resource and locale; a whole publish deletes the rest. */
export function publishTranslations(store: Store, source: Environment, target: Environment, scope: PublishScope): SyncResult {
  const out = emptyResult(TRANSLATION);
  for (const r of diffTranslations(store, source.id, target.id)) {
    const change = r.changes[0]!;
    const info = (r.sourceResource ?? r.targetResource) as ReturnType<typeof translationInfo>;
    const entry = { resourceType: TRANSLATION, resourceId: `${info.id}:${info.locale}`, resourceName: info.name };
    if (scope.chosen && (change.action === 'deleted' || !scope.chosen.includes(info.id))) continue;
    if (scope.dryRun) {
      out.skipped.push({ ...entry, reason: 'Dry run mode' });
      continue;
    }
    if (change.action === 'deleted') {
      store.translations.remove(target.id, info.resourceType, info.id, info.locale);
      out.successful.push({ ...entry, action: 'deleted' });
    } else {
      const s = store.translations.find(source.id, info.resourceType, info.id, info.locale)!;
      store.translations.put(target.id, s.resourceType, s.resourceId, s.locale, s.content);
      out.successful.push({ ...entry, action: change.action === 'added' ? 'created' : 'updated' });
    }
  }
  out.totalProcessed = out.successful.length + out.skipped.length + out.failed.length;
  return out;
}
