// Renders a step's control values into what it delivers: in-app content with actions, an email's
// subject and HTML body (block editor or HTML, inside a layout or not), SMS/push/chat text, an
// http_request step's request and a custom step's output.
import { blockDocumentToLiquid, parseBlockDocument } from './block-editor.js';
import { DEFAULT_EMAIL_LAYOUT } from './email-layout.js';
import { decodeEntities, sanitizeHtml } from './sanitize.js';
import { renderControls, renderTemplate, type TemplateError, type UndefinedVariable } from './template.js';
import type { ChannelKind, TemplateScope } from './types.js';

type RedirectTarget = '_self' | '_blank' | '_parent' | '_top' | '_unfencedTop';
interface RenderedRedirect {
  url: string;
  target?: RedirectTarget;
}
interface RenderedAction {
  label: string;
  redirect?: RenderedRedirect;
}

interface InAppContent {
  subject?: string;
  body: string;
  avatar?: string;
  primaryAction?: RenderedAction;
  secondaryAction?: RenderedAction;
  redirect?: RenderedRedirect;
  data?: Record<string, unknown>;
}
interface EmailContent {
  subject: string;
  body: string;
}
interface SmsContent {
  body: string;
}
interface PushContent {
  subject: string;
  body: string;
}
interface ChatContent {
  body: string;
}

export interface ChannelContent {
  in_app: InAppContent;
  email: EmailContent;
  sms: SmsContent;
  push: PushContent;
  chat: ChatContent;
}

type RenderStepResult<K extends ChannelKind> =
  | { ok: true; kind: K; content: ChannelContent[K]; undefinedVariables: UndefinedVariable[] }
  | { ok: false; kind: K; errors: TemplateError[] };

export interface RenderStepOptions {
  /** Email layouts by id: Liquid HTML with `{{ content }}` where the body goes. */
  layouts?: Readonly<Record<string, string>>;
  /** The environment's default layout, for an email whose `layoutId` is absent. */
  defaultLayout?: string;
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

const TARGETS = new Set(['_self', '_blank', '_parent', '_top', '_unfencedTop']);

function redirectOf(value: unknown): RenderedRedirect | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  const { url, target } = value as { url?: unknown; target?: unknown };
  if (typeof url !== 'string' || url === '') return undefined;
  return typeof target === 'string' && TARGETS.has(target) ? { url, target: target as RedirectTarget } : { url };
}

function actionOf(value: unknown): RenderedAction | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  const { label, redirect } = value as { label?: unknown; redirect?: unknown };
  if (typeof label !== 'string' || label === '') return undefined;
  const r = redirectOf(redirect);
  return r ? { label, redirect: r } : { label };
}

function withoutFlags(controls: Record<string, unknown>): Record<string, unknown> {
  const { skip: _skip, disableOutputSanitization: _d, ...rest } = controls;
  return rest;
}

function inApp(controls: Record<string, unknown>, scope: TemplateScope): RenderStepResult<'in_app'> {
  const rendered = renderControls(withoutFlags(controls), scope);
  if (rendered.errors.length > 0) return { ok: false, kind: 'in_app', errors: rendered.errors };
  const v = rendered.values;
  const clean = controls.disableOutputSanitization === true ? (s: string) => s : sanitizeHtml;
  const content: InAppContent = { body: clean(str(v.body) ?? '') };
  const subject = str(v.subject);
  if (subject) content.subject = clean(subject);
  const avatar = str(v.avatar);
  if (avatar) content.avatar = avatar;
  const primary = actionOf(v.primaryAction);
  if (primary) content.primaryAction = { ...primary, label: clean(primary.label) };
  const secondary = actionOf(v.secondaryAction);
  if (secondary) content.secondaryAction = { ...secondary, label: clean(secondary.label) };
  const redirect = redirectOf(v.redirect);
  if (redirect) content.redirect = redirect;
  if (v.data !== null && typeof v.data === 'object' && !Array.isArray(v.data)) content.data = v.data as Record<string, unknown>;
  return { ok: true, kind: 'in_app', content, undefinedVariables: rendered.undefinedVariables };
}

function isFullDocument(html: string): boolean {
  return /<html[\s>]/i.test(html) || /^\s*<!doctype/i.test(html);
}

function email(controls: Record<string, unknown>, scope: TemplateScope, options: RenderStepOptions): RenderStepResult<'email'> {
  const errors: TemplateError[] = [];
  const undefinedVariables: UndefinedVariable[] = [];
  const render = (source: string, control: string, extraScope?: Record<string, unknown>): string => {
    const result = renderTemplate(source, extraScope ? { ...scope, ...extraScope } : scope, control);
    if (!result.ok) {
      errors.push(result.error);
      return '';
    }
    undefinedVariables.push(...result.undefinedVariables);
    return result.output;
  };
  // A subject is plain text: HTML entities in it are decoded (`&lt;` is `<`), as the service does.
  const subject = decodeEntities(render(str(controls.subject) ?? '', 'subject'));
  const doc = controls.editorType === 'html' ? null : parseBlockDocument(controls.body);
  const source = doc ? blockDocumentToLiquid(doc) : (str(controls.body) ?? '');
  let body = render(source, 'body');
  const layoutId = controls.layoutId;
  // null means "no layout"; an HTML-editor body without a layoutId is sent as written (the service
  // wraps only block-editor bodies in its default layout); a whole document is not wrapped again.
  const wrap = layoutId !== null && !(controls.editorType === 'html' && layoutId === undefined);
  if (wrap && errors.length === 0 && !isFullDocument(body)) {
    const layout = (typeof layoutId === 'string' && options.layouts?.[layoutId]) || options.defaultLayout || DEFAULT_EMAIL_LAYOUT;
    body = render(layout, 'layoutId', { content: body, subject });
  }
  if (errors.length > 0) return { ok: false, kind: 'email', errors };
  if (controls.disableOutputSanitization !== true) body = sanitizeHtml(body);
  return { ok: true, kind: 'email', content: { subject, body }, undefinedVariables };
}

function text<K extends 'sms' | 'push' | 'chat'>(kind: K, controls: Record<string, unknown>, scope: TemplateScope): RenderStepResult<K> {
  const fields = kind === 'push' ? ['subject', 'body'] : ['body'];
  const picked = Object.fromEntries(fields.map((f) => [f, str(controls[f]) ?? '']));
  const rendered = renderControls(picked, scope);
  if (rendered.errors.length > 0) return { ok: false, kind, errors: rendered.errors };
  return { ok: true, kind, content: rendered.values as unknown as ChannelContent[K], undefinedVariables: rendered.undefinedVariables };
}

/** Renders a channel step's controls against the scope; template errors come back as data. */
export function renderStep<K extends ChannelKind>(
  kind: K,
  controls: Record<string, unknown>,
  scope: TemplateScope,
  options: RenderStepOptions = {},
): RenderStepResult<K> {
  switch (kind) {
    case 'in_app':
      return inApp(controls, scope) as RenderStepResult<K>;
    case 'email':
      return email(controls, scope, options) as RenderStepResult<K>;
    default:
      return text(kind as 'sms' | 'push' | 'chat', controls, scope) as RenderStepResult<K>;
  }
}

/**
 * The in-app message fields of the service's Message record (content, cta with its buttons) from
 * rendered in-app content.
 */
export function inAppMessageFields(content: InAppContent): {
  subject?: string;
  content: string;
  avatar?: string;
  data?: Record<string, unknown>;
  cta: {
    type?: 'redirect';
    data?: { url?: string; target?: RedirectTarget };
    action?: { status: 'pending'; buttons: Array<{ type: 'primary' | 'secondary'; content: string; url?: string; target?: RedirectTarget }> };
  };
} {
  // A button keeps where it leads (the Inbox navigates there when it is clicked), as the message's
  // own redirect keeps its target.
  const button = (type: 'primary' | 'secondary', a: RenderedAction) => ({
    type,
    content: a.label,
    ...(a.redirect && { url: a.redirect.url, ...(a.redirect.target !== undefined && { target: a.redirect.target }) }),
  });
  const buttons = [
    ...(content.primaryAction ? [button('primary', content.primaryAction)] : []),
    ...(content.secondaryAction ? [button('secondary', content.secondaryAction)] : []),
  ];
  const cta: ReturnType<typeof inAppMessageFields>['cta'] = {};
  if (content.redirect) {
    cta.type = 'redirect';
    cta.data = { url: content.redirect.url, ...(content.redirect.target !== undefined && { target: content.redirect.target }) };
  }
  if (buttons.length > 0) cta.action = { status: 'pending', buttons };
  const fields: ReturnType<typeof inAppMessageFields> = { content: content.body, cta };
  if (content.subject !== undefined) fields.subject = content.subject;
  if (content.avatar !== undefined) fields.avatar = content.avatar;
  if (content.data !== undefined) fields.data = content.data;
  return fields;
}

// --- http_request and custom steps ---------------------------------------------------------------

export interface RenderedRequest {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';
  url: string;
  headers: Record<string, string>;
  /** A JSON body as an object, a non-JSON one as text; absent for GET and DELETE or when empty. */
  body?: unknown;
  timeoutMs: number;
  continueOnFailure: boolean;
}

/** The exact text a rendered body is sent (and signed) as: text as it is, anything else as JSON. */
export function requestBodyText(body: unknown): string | undefined {
  if (body === undefined) return undefined;
  return typeof body === 'string' ? body : JSON.stringify(body);
}

type RenderRequestResult = { ok: true; request: RenderedRequest; undefinedVariables: UndefinedVariable[] } | { ok: false; errors: TemplateError[] };

const METHODS = new Set(['GET', 'POST', 'PUT', 'DELETE', 'PATCH']);

function pairs(value: unknown): Array<{ key: string; value: string }> {
  return Array.isArray(value)
    ? value
        .filter((p): p is { key: string; value: string } => p !== null && typeof p === 'object' && typeof p.key === 'string' && p.key !== '')
        .map((p) => ({ key: p.key, value: typeof p.value === 'string' ? p.value : String(p.value ?? '') }))
    : [];
}

/**
 * The request an http_request step sends. A string body is a JSON template: outputs inside it are
 * JSON-escaped, and the result is sent as JSON when it parses (as text otherwise); the legacy
 * key-value body becomes a JSON object.
 */
export function renderHttpRequest(controls: Record<string, unknown>, scope: TemplateScope): RenderRequestResult {
  const errors: TemplateError[] = [];
  const undefinedVariables: UndefinedVariable[] = [];
  const render = (source: string, control: string, escape: 'text' | 'json' = 'text'): string => {
    if (!source.includes('{')) return source;
    const result = renderTemplate(source, scope, control, { escape });
    if (!result.ok) {
      errors.push(result.error);
      return source;
    }
    undefinedVariables.push(...result.undefinedVariables);
    return result.output;
  };
  const method = (str(controls.method) ?? 'POST').toUpperCase();
  const url = render(str(controls.url) ?? '', 'url').trim();
  const headers: Record<string, string> = {};
  pairs(controls.headers).forEach((h, i) => {
    headers[render(h.key, `headers[${i}].key`)] = render(h.value, `headers[${i}].value`);
  });
  let body: unknown;
  if (typeof controls.body === 'string' && controls.body.trim() !== '') {
    const rendered = render(controls.body, 'body', 'json');
    try {
      body = JSON.parse(rendered);
    } catch {
      body = rendered;
    }
  } else {
    const entries = pairs(controls.body);
    if (entries.length > 0) body = Object.fromEntries(entries.map((p, i) => [render(p.key, `body[${i}].key`), render(p.value, `body[${i}].value`)]));
  }
  if (errors.length > 0) return { ok: false, errors };
  const request: RenderedRequest = {
    method: (METHODS.has(method) ? method : 'POST') as RenderedRequest['method'],
    url,
    headers,
    timeoutMs: typeof controls.timeout === 'number' && controls.timeout > 0 ? controls.timeout : 5000,
    continueOnFailure: controls.continueOnFailure === true,
  };
  if (body !== undefined && request.method !== 'GET' && request.method !== 'DELETE') request.body = body;
  return { ok: true, request, undefinedVariables };
}

/** A custom step's output: its `custom` control values, rendered. */
export function renderCustomOutput(
  controls: Record<string, unknown>,
  scope: TemplateScope,
): { ok: true; output: Record<string, unknown> } | { ok: false; errors: TemplateError[] } {
  const custom = controls.custom !== null && typeof controls.custom === 'object' && !Array.isArray(controls.custom) ? controls.custom : {};
  const rendered = renderControls(custom as Record<string, unknown>, scope, []);
  return rendered.errors.length > 0 ? { ok: false, errors: rendered.errors } : { ok: true, output: rendered.values };
}
