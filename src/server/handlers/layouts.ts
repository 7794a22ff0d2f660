// Email layouts (/v2/layouts): created, listed, read, updated, duplicated, previewed, their usage by
// workflows, and deleted. Every environment has a default layout (made on first use, as the service
// makes one with the environment): the one an email step without a `layoutId` is wrapped in; it
// cannot be deleted. A route names a layout by its `layoutId` or its database id.
import type { Layout, LayoutUsage } from '../../api/schemas/layouts.js';
import { buildScope } from '../engine/index.js';
import {
  DEFAULT_LAYOUT,
  type EmailLayoutControls,
  LAYOUT_DATA_SCHEMA,
  LAYOUT_UI_SCHEMA,
  LAYOUT_VARIABLES_SCHEMA,
  layoutBodyProblem,
  layoutPreviewSource,
} from '../engine/layout.js';
import { EXAMPLE_SUBSCRIBER, EXAMPLE_SUBSCRIBER_ID } from '../engine/preview.js';
import { renderTemplate } from '../engine/template.js';
import { sanitizeHtml } from '../engine/sanitize.js';
import { slugify } from '../engine/derived-ids.js';
import { badRequest, conflict, notFound } from '../errors.js';
import type { Environment, Store } from '../store/index.js';
import type { StoredLayout } from '../store/layouts.js';
import type { Route } from './types.js';

const BASE62 = '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';

/** The service's slug of a layout: its slugified name, `_ly_` and its database id in base 62. */
function layoutSlug(name: string, id: string): string {
  let n = BigInt(`0x${id}`);
  let out = '';
  do {
    out = BASE62[Number(n % 62n)] + out;
    n /= 62n;
  } while (n > 0n);
  return `${slugify(name)}_ly_${out}`;
}

function layoutView(layout: StoredLayout): Layout {
  return {
    _id: layout._id,
    layoutId: layout.layoutId,
    slug: layoutSlug(layout.name, layout._id),
    name: layout.name,
    isDefault: layout.isDefault,
    isTranslationEnabled: layout.isTranslationEnabled,
    updatedAt: layout.updatedAt,
    updatedBy: null,
    createdAt: layout.createdAt,
    origin: 'svc-cloud',
    type: 'BRIDGE',
    variables: LAYOUT_VARIABLES_SCHEMA,
    controls: {
      dataSchema: LAYOUT_DATA_SCHEMA,
      uiSchema: LAYOUT_UI_SCHEMA,
      values: layout.email ? { email: { body: layout.email.body, editorType: layout.email.editorType } } : {},
    },
  };
}

/** The environment's default layout, made the first time the environment's layouts are used. */
function ensureDefault(store: Store, env: Environment): void {
  if (store.layouts.findDefault(env.id)) return;
  store.layouts.create(env, { ...DEFAULT_LAYOUT, isDefault: true, isTranslationEnabled: false });
}

function layoutOf(store: Store, env: Environment, key: string): StoredLayout {
  ensureDefault(store, env);
  const found = store.layouts.find(env.id, key);
  if (!found) throw notFound(`Layout not found for id ${key}`);
  return found;
}

function checkedEmail(email: EmailLayoutControls | undefined | null): void {
  if (!email) return;
  const problem = layoutBodyProblem(email);
  if (problem) throw badRequest(problem);
}

/** A new layout's identifier: the one asked for, refused when taken. */
function freeLayoutId(store: Store, env: Environment, layoutId: string): string {
  if (store.layouts.find(env.id, layoutId)) throw conflict(`Layout with layoutId ${layoutId} already exists`);
  return layoutId;
}

/** A new layout starts as an empty block-editor document holding only the content variable. */
const EMPTY_LAYOUT: EmailLayoutControls = {
  editorType: 'block',
  body: JSON.stringify({
    type: 'doc',
    content: [{ type: 'paragraph', attrs: { textAlign: 'left' }, content: [{ type: 'variable', attrs: { id: 'content' } }] }],
  }),
};

export const createLayout: Route<'createLayout'> = {
  envelope: 'data',
  handle({ svc, env, body }) {
    return svc.store.tx(() => {
      ensureDefault(svc.store, env);
      const layoutId = freeLayoutId(svc.store, env, body.layoutId.trim());
      const created = svc.store.layouts.create(env, {
        layoutId,
        name: body.name,
        isDefault: false,
        isTranslationEnabled: body.isTranslationEnabled === true,
        email: EMPTY_LAYOUT,
      });
      return layoutView(created);
    });
  },
};

export const listLayouts: Route<'listLayouts'> = {
  envelope: 'data',
  handle({ svc, env, query: q }) {
    return svc.store.tx(() => {
      ensureDefault(svc.store, env);
      const page = svc.store.layouts.list(env.id, {
        query: q.query,
        orderBy: q.orderBy ?? 'createdAt',
        orderDirection: q.orderDirection ?? 'DESC',
        limit: q.limit ?? 50,
        offset: q.offset ?? 0,
      });
      return { layouts: page.layouts.map(layoutView), totalCount: page.totalCount };
    });
  },
};

export const getLayout: Route<'getLayout'> = {
  envelope: 'data',
  handle: ({ svc, env, params }) => svc.store.tx(() => layoutView(layoutOf(svc.store, env, params.layoutId!))),
};

export const updateLayout: Route<'updateLayout'> = {
  envelope: 'data',
  handle({ svc, env, params, body }) {
    checkedEmail(body.controlValues?.email);
    return svc.store.tx(() => {
      const layout = layoutOf(svc.store, env, params.layoutId!);
      const email = body.controlValues === undefined ? layout.email : body.controlValues === null ? null : (body.controlValues.email ?? layout.email);
      const updated = svc.store.layouts.update(layout, {
        name: body.name,
        isTranslationEnabled: body.isTranslationEnabled ?? layout.isTranslationEnabled,
        email,
      });
      return layoutView(updated);
    });
  },
};

export const deleteLayout: Route<'deleteLayout'> = {
  envelope: 'none',
  handle({ svc, env, params }) {
    svc.store.tx(() => {
      const layout = layoutOf(svc.store, env, params.layoutId!);
      if (layout.isDefault) throw conflict(`Layout with id ${params.layoutId} is being used as a default layout, it can not be deleted`);
      svc.store.layouts.remove(layout._id);
      svc.store.workflows.dropLayout(env.id, [layout.layoutId, layout._id]);
    });
  },
};

export const duplicateLayout: Route<'duplicateLayout'> = {
  envelope: 'data',
  handle({ svc, env, params, body }) {
    return svc.store.tx(() => {
      const original = layoutOf(svc.store, env, params.layoutId!);
      // Without a layoutId the copy's is derived from its name, as the service does.
      const layoutId = freeLayoutId(svc.store, env, body.layoutId ?? slugify(body.name));
      const copy = svc.store.layouts.create(env, {
        layoutId,
        name: body.name,
        isDefault: false,
        isTranslationEnabled: body.isTranslationEnabled === true,
        email: original.email,
      });
      return layoutView(copy);
    });
  },
};

export const previewLayout: Route<'previewLayout'> = {
  envelope: 'data',
  handle({ svc, env, params, body }) {
    const layout = svc.store.tx(() => layoutOf(svc.store, env, params.layoutId!));
    const given = body.controlValues?.email as EmailLayoutControls | undefined;
    const email = given && typeof given.body === 'string' ? { body: given.body, editorType: given.editorType === 'html' ? 'html' : 'block' } : layout.email;
    const subscriber = { ...EXAMPLE_SUBSCRIBER, ...(body.previewPayload?.subscriber ?? {}) };
    const previewPayloadExample = { subscriber };
    const scope = buildScope({ subscriber: { subscriberId: EXAMPLE_SUBSCRIBER_ID, ...subscriber }, payload: {} });
    const rendered = renderTemplate(layoutPreviewSource(email as EmailLayoutControls | null), scope, 'email.body');
    // As the service does, a layout that does not render still answers, with no preview.
    if (!rendered.ok) return { previewPayloadExample, result: { type: 'email' as const } };
    return { previewPayloadExample, result: { type: 'email' as const, preview: { body: sanitizeHtml(rendered.output) } } };
  },
};

export const getLayoutUsage: Route<'getLayoutUsage'> = {
  envelope: 'data',
  handle({ svc, env, params }): LayoutUsage {
    return svc.store.tx(() => {
      const layout = layoutOf(svc.store, env, params.layoutId!);
      const names = new Set([layout.layoutId, layout._id]);
      const workflows = svc.store.workflows
        .all(env.id)
        .filter((wf) => wf.steps.some((s) => s.type === 'email' && names.has(s.controlValues.layoutId as string)))
        .map((wf) => ({ name: wf.name, workflowId: wf.workflowId }));
      return { workflows };
    });
  },
};
