// Translations (TranslationController_*): a resource's texts per locale, their group, the master JSON
// of one locale (every resource's texts) and the file uploads of both. A workflow's translations are
// what its `{{t.key}}` reads when it is rendered (engine/translations.ts); giving a workflow texts
// turns its translations on, and deleting its group turns them off, as the dashboard's toggle does.
import {
  LOCALE_PATTERN,
  type MasterJson,
  type TranslationGroup,
  type TranslationResourceType,
  type UploadTranslationsResult,
} from '../../api/schemas/translations.js';
import { DEFAULT_LOCALE } from '../engine/translations.js';
import type { JsonRecord } from '../engine/types.js';
import { badRequest, HttpError, notFound } from '../errors.js';
import type { Environment } from '../store/index.js';
import type { TranslationRecord } from '../store/translations.js';
import type { StoredWorkflow } from '../store/workflows.js';
import type { PreparedRoute } from './code-first.js';
import type { Route, Service } from './types.js';
import { workflowNotFound } from './workflows.js';

interface Resource {
  type: TranslationResourceType;
  /** The identifier the group is kept under (a workflow's workflowId). */
  id: string;
  name: string;
  workflow?: StoredWorkflow;
}

/** A workflow by identifier, slug or id; a layout by its id (layouts are not checked here). */
function findResource(svc: Service, envId: string, type: TranslationResourceType, given: string): Resource | undefined {
  if (type === 'layout') return { type, id: given, name: given };
  const workflow = svc.store.workflows.find(envId, given);
  return workflow && { type, id: workflow.workflowId, name: workflow.name, workflow };
}

function resourceOf(svc: Service, envId: string, type: TranslationResourceType, given: string): Resource {
  const found = findResource(svc, envId, type, given);
  if (!found) throw workflowNotFound(given);
  return found;
}

function checkLocale(locale: string): string {
  if (!LOCALE_PATTERN.test(locale)) throw badRequest(`Invalid locale format: ${locale}. Expected a language_REGION code such as en_US`);
  return locale;
}

const translationNotFound = (type: string, id: string, locale: string) => notFound(`Translation for ${type} ${id} in locale ${locale} not found`);

const answer = (t: TranslationRecord) => ({
  resourceId: t.resourceId,
  resourceType: t.resourceType,
  locale: t.locale,
  content: t.content,
  createdAt: t.createdAt,
  updatedAt: t.updatedAt,
});

function setTranslationEnabled(svc: Service, resource: Resource, enabled: boolean): void {
  if (resource.workflow && resource.workflow.isTranslationEnabled !== enabled) svc.store.workflows.patch(resource.workflow, { isTranslationEnabled: enabled });
}

function isRecord(v: unknown): v is JsonRecord {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Writes one locale's texts of a resource, turning a workflow's translations on. */
function putTranslation(svc: Service, env: Environment, resource: Resource, locale: string, content: JsonRecord): TranslationRecord {
  setTranslationEnabled(svc, resource, true);
  return svc.store.translations.put(env.id, resource.type, resource.id, locale, content);
}

export const createTranslation: Route<'createTranslation'> = {
  envelope: 'data',
  handle({ svc, env, body }) {
    return svc.store.tx(() => {
      const resource = resourceOf(svc, env.id, body.resourceType, body.resourceId);
      return answer(putTranslation(svc, env, resource, body.locale, body.content));
    });
  },
};

export const getTranslation: Route<'getTranslation'> = {
  envelope: 'data',
  handle({ svc, env, params }) {
    const type = params.resourceType as TranslationResourceType;
    const resource = resourceOf(svc, env.id, type, params.resourceId!);
    const found = svc.store.translations.find(env.id, type, resource.id, params.locale!);
    if (!found) throw translationNotFound(type, params.resourceId!, params.locale!);
    return answer(found);
  },
};

export const deleteTranslation: Route<'deleteTranslation'> = {
  envelope: 'none',
  handle({ svc, env, params }) {
    const type = params.resourceType as TranslationResourceType;
    svc.store.tx(() => {
      const resource = resourceOf(svc, env.id, type, params.resourceId!);
      if (!svc.store.translations.remove(env.id, type, resource.id, params.locale!)) throw translationNotFound(type, params.resourceId!, params.locale!);
    });
  },
};

const groupNotFound = (type: string, id: string) => notFound(`Translation group for ${type} ${id} not found`);

export const deleteTranslationGroup: Route<'deleteTranslationGroup'> = {
  envelope: 'none',
  handle({ svc, env, params }) {
    const type = params.resourceType as TranslationResourceType;
    svc.store.tx(() => {
      const resource = findResource(svc, env.id, type, params.resourceId!);
      if (!resource) throw groupNotFound(type, params.resourceId!);
      const removed = svc.store.translations.removeGroup(env.id, type, resource.id);
      if (removed === 0 && !resource.workflow?.isTranslationEnabled) throw groupNotFound(type, params.resourceId!);
      setTranslationEnabled(svc, resource, false);
    });
  },
};

export const getTranslationGroup: Route<'getTranslationGroup'> = {
  envelope: 'data',
  handle({ svc, env, params }): TranslationGroup {
    const type = params.resourceType as TranslationResourceType;
    const resource = findResource(svc, env.id, type, params.resourceId!);
    if (!resource) throw groupNotFound(type, params.resourceId!);
    const rows = svc.store.translations.group(env.id, type, resource.id);
    if (rows.length === 0 && !resource.workflow?.isTranslationEnabled) throw groupNotFound(type, params.resourceId!);
    const times = rows.map((r) => r.updatedAt).sort();
    const created = rows.map((r) => r.createdAt).sort();
    const base = rows.find((r) => r.locale === DEFAULT_LOCALE);
    // A locale last written before the default locale's texts changed may miss what changed there.
    const outdated = base ? rows.filter((r) => r.locale !== DEFAULT_LOCALE && r.updatedAt < base.updatedAt).map((r) => r.locale) : [];
    const since = resource.workflow?.createdAt ?? created[0] ?? '';
    return {
      resourceId: resource.id,
      resourceType: type,
      resourceName: resource.name,
      locales: rows.map((r) => r.locale),
      ...(outdated.length > 0 && { outdatedLocales: outdated }),
      createdAt: created[0] ?? since,
      updatedAt: times.at(-1) ?? since,
    };
  },
};

export const getMasterJson: Route<'getMasterJson'> = {
  envelope: 'data',
  handle({ svc, env, query }): MasterJson {
    const locale = checkLocale(query.locale ?? DEFAULT_LOCALE);
    const out: MasterJson = { workflows: {}, layouts: {} };
    for (const t of svc.store.translations.ofLocale(env.id, locale)) {
      out[t.resourceType === 'workflow' ? 'workflows' : 'layouts'][t.resourceId] = t.content;
    }
    return out;
  },
};

/** Imports one locale's master JSON: each resource that exists gets its texts; the others are named as failed. */
function importMaster(svc: Service, env: Environment, locale: string, master: unknown) {
  if (!isRecord(master)) throw badRequest('masterJson must be an object with workflows and layouts');
  const successful: string[] = [];
  const failed: string[] = [];
  for (const [key, type] of [
    ['workflows', 'workflow'],
    ['layouts', 'layout'],
  ] as const) {
    const resources = master[key];
    if (resources === undefined) continue;
    if (!isRecord(resources)) throw badRequest(`masterJson.${key} must be an object of texts by resource identifier`);
    for (const [id, content] of Object.entries(resources)) {
      const resource = findResource(svc, env.id, type, id);
      if (!resource || !isRecord(content)) {
        failed.push(id);
        continue;
      }
      putTranslation(svc, env, resource, locale, content);
      successful.push(id);
    }
  }
  const total = successful.length + failed.length;
  const message =
    failed.length === 0
      ? `Successfully imported translations for ${successful.length} resource${successful.length === 1 ? '' : 's'}${successful.length > 0 ? `: ${successful.join(', ')}` : ''}`
      : `Imported translations for ${successful.length} of ${total} resources; failed: ${failed.join(', ')}`;
  return { success: failed.length === 0, message, successful, failed };
}

export const importMasterJson: Route<'importMasterJson'> = {
  envelope: 'data',
  handle: ({ svc, env, body }) => svc.store.tx(() => importMaster(svc, env, body.locale, body.masterJson)),
};

// --- uploads (multipart/form-data) -------------------------------------------------------------

/** The operations whose body is a multipart form (the app parses only theirs). */

/** What the multipart parser of the app hands a route that reads files: the bytes and their type. */
interface MultipartBody {
  contentType: string;
  bytes: Buffer;
}

interface UploadedFile {
  name: string;
  text: string;
}

interface Form {
  fields: Record<string, string>;
  files: Record<string, UploadedFile[]>;
}

function multipart(input: unknown): MultipartBody {
  const b = input as Partial<MultipartBody> | undefined;
  if (!b || typeof b.contentType !== 'string' || !Buffer.isBuffer(b.bytes)) {
    throw new HttpError(415, 'Unsupported Media Type: send the files as multipart/form-data');
  }
  return b as MultipartBody;
}

/** Parses the form with the platform's own multipart reader (fetch's Response.formData). */
async function readForm(body: MultipartBody): Promise<Form> {
  let data: FormData;
  try {
    data = await new Response(new Uint8Array(body.bytes), { headers: { 'content-type': body.contentType } }).formData();
  } catch {
    throw badRequest('The multipart/form-data body could not be read');
  }
  const form: Form = { fields: {}, files: {} };
  for (const [name, value] of data.entries()) {
    if (typeof value === 'string') form.fields[name] = value;
    else (form.files[name] ??= []).push({ name: value.name, text: await value.text() });
  }
  return form;
}

/** `en_US.json` → `en_US`; any other name → undefined. */
function localeOfFile(name: string): string | undefined {
  const m = /^(.+)\.json$/i.exec(name.split(/[\\/]/).at(-1) ?? '');
  return m && LOCALE_PATTERN.test(m[1]!) ? m[1] : undefined;
}

function parseJsonObject(text: string): JsonRecord | undefined {
  try {
    const v: unknown = JSON.parse(text);
    return isRecord(v) ? v : undefined;
  } catch {
    return undefined;
  }
}

export const uploadMasterJson: PreparedRoute<'uploadMasterJson', Form> & { parseBody(input: unknown): unknown } = {
  envelope: 'data',
  parseBody: multipart,
  prepare: ({ body }) => readForm(body as unknown as MultipartBody),
  handle({ svc, env, prepared }) {
    const file = prepared!.files.file?.[0];
    if (!file) throw badRequest('file is required: a master JSON file named after its locale (e.g. en_US.json)');
    const locale = localeOfFile(file.name);
    if (!locale) throw badRequest(`Invalid file name: ${file.name}. The file name must be a locale, e.g. en_US.json`);
    const master = parseJsonObject(file.text);
    if (!master) throw badRequest(`Invalid JSON in file: ${file.name}`);
    return svc.store.tx(() => importMaster(svc, env, locale, master));
  },
};

export const uploadTranslationFiles: PreparedRoute<'uploadTranslationFiles', Form> & { parseBody(input: unknown): unknown } = {
  envelope: 'data',
  parseBody: multipart,
  prepare: ({ body }) => readForm(body as unknown as MultipartBody),
  handle({ svc, env, prepared }): UploadTranslationsResult {
    const form = prepared!;
    const type = form.fields.resourceType;
    const resourceId = form.fields.resourceId;
    if (type !== 'workflow' && type !== 'layout') throw badRequest('resourceType must be one of: workflow, layout');
    if (!resourceId) throw badRequest('resourceId is required');
    const files = [...(form.files.files ?? []), ...(form.files['files[]'] ?? [])];
    if (files.length === 0) throw badRequest('files is required: one or more JSON files named after their locale (e.g. en_US.json)');
    return svc.store.tx(() => {
      const resource = resourceOf(svc, env.id, type, resourceId);
      const errors: string[] = [];
      for (const file of files) {
        const locale = localeOfFile(file.name);
        const content = locale === undefined ? undefined : parseJsonObject(file.text);
        if (locale === undefined) errors.push(`Invalid file name: ${file.name}. The file name must be a locale, e.g. en_US.json`);
        else if (!content) errors.push(`Invalid JSON in file: ${file.name}`);
        else putTranslation(svc, env, resource, locale, content);
      }
      return { totalFiles: files.length, successfulUploads: files.length - errors.length, failedUploads: errors.length, errors };
    });
  },
};
