// Payload examples and validation. With a payload schema the example is built from it (defaults,
// examples, consts, enums, then plausible values by format, property name and type), so that it
// passes the schema. Without one, the example is inferred from the payload variables the steps use,
// with the service's `{{payload.path}}` placeholders as leaf values: a preview then shows which variable
// lands where, and a user sees exactly which keys to send.
import { isIPv4, isIPv6 } from 'node:net';
import type { Ajv, ErrorObject, ValidateFunction } from 'ajv';
import { ajvPackage } from './packages.js';
import { LRUCache } from 'lru-cache';
import type { Segment } from './analysis.js';

export type JsonSchema = Record<string, unknown>;

const DEFAULT_EXAMPLE_TIME = Date.UTC(2025, 0, 1, 12, 0, 0);
const MAX_DEPTH = 10;

function asSchema(value: unknown): JsonSchema | null {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as JsonSchema) : null;
}

function resolveRef(ref: string, root: JsonSchema): JsonSchema | null {
  if (!ref.startsWith('#/')) return null;
  let current: unknown = root;
  for (const part of ref.slice(2).split('/')) {
    const key = part.replace(/~1/g, '/').replace(/~0/g, '~');
    current = asSchema(current)?.[key];
  }
  return asSchema(current);
}

function typeOf(schema: JsonSchema): string | undefined {
  const type = schema.type;
  if (Array.isArray(type)) return (type.find((t) => t !== 'null') ?? type[0]) as string | undefined;
  if (typeof type === 'string') return type;
  if (schema.properties) return 'object';
  if (schema.items) return 'array';
  return undefined;
}

function stringFor(key: string, schema: JsonSchema, now: number): string {
  const iso = new Date(now).toISOString();
  const byFormat: Record<string, string> = {
    email: 'user@example.com',
    'idn-email': 'user@example.com',
    uri: 'https://example.com',
    url: 'https://example.com',
    'uri-reference': 'https://example.com',
    iri: 'https://example.com',
    'date-time': iso,
    date: iso.slice(0, 10),
    time: iso.slice(11, 19),
    uuid: '123e4567-e89b-12d3-a456-426614174000',
    ipv4: '192.0.2.1',
    ipv6: '2001:db8::1',
    hostname: 'example.com',
  };
  const format = typeof schema.format === 'string' ? byFormat[schema.format] : undefined;
  if (format) return format;
  // Matched against the property name as written, so camelCase suffixes (`orderId`, `sentAt`) count.
  const byName: Array<[RegExp, string]> = [
    [/e-?mail/i, 'user@example.com'],
    [/url|link|href|website|avatar|image/i, 'https://example.com'],
    [/first_?name|given_?name/i, 'John'],
    [/last_?name|surname|family_?name/i, 'Doe'],
    [/name/i, 'John Doe'],
    [/phone|mobile/i, '+15555550123'],
    [/^id$|_id$|[a-z]Id$/, 'example-id-123'],
    [/date|time|_at$|[a-z]At$/, iso],
    [/title|subject|headline/i, 'Example Subject'],
    [/message|body|text|content|comment|description|note/i, 'This is an example message.'],
    [/status|state/i, 'active'],
    [/currency/i, 'USD'],
    [/locale|lang/i, 'en-US'],
    [/country/i, 'United States'],
    [/city/i, 'New York'],
  ];
  let value = byName.find(([re]) => re.test(key))?.[1] ?? 'example text';
  const min = Number(schema.minLength);
  const max = Number(schema.maxLength);
  if (Number.isFinite(min) && value.length < min) value = value.padEnd(min, 'x');
  if (Number.isFinite(max) && max >= 0 && value.length > max) value = value.slice(0, max);
  return value;
}

function numberFor(key: string, schema: JsonSchema, integer: boolean): number {
  const min =
    typeof schema.minimum === 'number'
      ? schema.minimum
      : typeof schema.exclusiveMinimum === 'number'
        ? schema.exclusiveMinimum + (integer ? 1 : 0.5)
        : undefined;
  const max =
    typeof schema.maximum === 'number'
      ? schema.maximum
      : typeof schema.exclusiveMaximum === 'number'
        ? schema.exclusiveMaximum - (integer ? 1 : 0.5)
        : undefined;
  const k = key.toLowerCase();
  let value = /count|quantity|qty/.test(k) ? 5 : /price|amount|cost|total|fee/.test(k) ? 99.99 : /age/.test(k) ? 25 : 42;
  if (min !== undefined && max !== undefined) value = (min + max) / 2;
  else if (min !== undefined && value < min) value = min;
  else if (max !== undefined && value > max) value = max;
  if (integer) value = min !== undefined ? Math.max(Math.ceil(min), Math.round(value)) : Math.round(value);
  const step = Number(schema.multipleOf);
  if (Number.isFinite(step) && step > 0) value = Math.ceil(value / step) * step;
  return value;
}

function sample(schemaIn: unknown, key: string, root: JsonSchema, now: number, depth: number): unknown {
  let schema = asSchema(schemaIn);
  if (!schema || depth > MAX_DEPTH) return null;
  if (typeof schema.$ref === 'string') schema = resolveRef(schema.$ref, root) ?? {};
  if (Array.isArray(schema.allOf)) {
    const merged: JsonSchema = { ...schema, properties: { ...(asSchema(schema.properties) ?? {}) } };
    for (const part of schema.allOf) {
      const p = asSchema(part);
      if (!p) continue;
      Object.assign(merged.properties as JsonSchema, asSchema(p.properties) ?? {});
      for (const [k, v] of Object.entries(p)) if (k !== 'properties' && merged[k] === undefined) merged[k] = v;
    }
    delete merged.allOf;
    schema = merged;
  }
  if (schema.default !== undefined) return schema.default;
  if (schema.const !== undefined) return schema.const;
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0];
  if (schema.example !== undefined) return schema.example;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  const choice = (Array.isArray(schema.oneOf) ? schema.oneOf : Array.isArray(schema.anyOf) ? schema.anyOf : null)?.find((s) => asSchema(s)?.type !== 'null');
  if (choice !== undefined) return sample(choice, key, root, now, depth + 1);
  switch (typeOf(schema)) {
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const [name, child] of Object.entries(asSchema(schema.properties) ?? {})) {
        out[name] = sample(child, name, root, now, depth + 1);
      }
      return out;
    }
    case 'array': {
      if (Array.isArray(schema.items)) return schema.items.map((s, i) => sample(s, `${key}${i}`, root, now, depth + 1));
      const count = Math.min(10, Math.max(1, Number(schema.minItems) || 1));
      const item = sample(schema.items ?? {}, key, root, now, depth + 1);
      return Array.from({ length: count }, () => item);
    }
    case 'string':
      return stringFor(key, schema, now);
    case 'integer':
      return numberFor(key, schema, true);
    case 'number':
      return numberFor(key, schema, false);
    case 'boolean':
      return true;
    case 'null':
      return null;
    default:
      return 'example text';
  }
}

/** An example payload that satisfies the schema as far as a generator can (patterns aside). */
export function payloadExampleFromSchema(schema: JsonSchema, now = DEFAULT_EXAMPLE_TIME): Record<string, unknown> {
  const value = sample(schema, 'payload', schema, now, 0);
  return asSchema(value) ?? {};
}

// --- inference from the variables the steps use ---------------------------------------------------

interface PathNode {
  children: Map<Segment, PathNode>;
}

function pathTree(paths: Segment[][]): PathNode {
  const root: PathNode = { children: new Map() };
  for (const path of paths) {
    let node = root;
    for (const raw of path) {
      // Liquid's size/first/last read arrays and strings; they are not payload keys.
      if (raw === 'size' || raw === 'first' || raw === 'last') break;
      const segment: Segment = typeof raw === 'number' ? 0 : raw;
      let next = node.children.get(segment);
      if (!next) {
        next = { children: new Map() };
        node.children.set(segment, next);
      }
      node = next;
    }
  }
  return root;
}

function isArrayNode(node: PathNode): boolean {
  return node.children.has(0);
}

function schemaOfNode(node: PathNode): JsonSchema {
  if (node.children.size === 0) return { type: 'string' };
  if (isArrayNode(node)) return { type: 'array', items: schemaOfNode(node.children.get(0) as PathNode) };
  const properties: Record<string, JsonSchema> = {};
  for (const [key, child] of node.children) properties[String(key)] = schemaOfNode(child);
  return { type: 'object', properties, required: [], additionalProperties: true };
}

/** A permissive JSON Schema describing the payload paths (segments after `payload`) the steps read. */
export function schemaFromPaths(paths: Segment[][]): JsonSchema {
  const schema = schemaOfNode(pathTree(paths));
  return schema.type === 'object' ? schema : { type: 'object', properties: {}, required: [], additionalProperties: true };
}

function exampleOfNode(node: PathNode, path: string): unknown {
  if (node.children.size === 0) return `{{${path}}}`;
  if (isArrayNode(node)) return [exampleOfNode(node.children.get(0) as PathNode, `${path}[0]`)];
  const out: Record<string, unknown> = {};
  for (const [key, child] of node.children) out[String(key)] = exampleOfNode(child, `${path}.${String(key)}`);
  return out;
}

/** `[["name"], ["order", "id"]]` → `{name: "{{payload.name}}", order: {id: "{{payload.order.id}}"}}`. */
export function exampleFromPaths(paths: Segment[][], root = 'payload'): Record<string, unknown> {
  const value = exampleOfNode(pathTree(paths), root);
  return asSchema(value) ?? {};
}

// --- validation ----------------------------------------------------------------------------------

interface PayloadValidationError {
  /** Dotted path of the failing field, e.g. `order.items[0].sku`; empty for the payload itself. */
  field: string;
  message: string;
  value?: unknown;
  schemaPath: string;
}

type PayloadValidation = { valid: true } | { valid: false; errors: PayloadValidationError[] };

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:[Zz]|[+-]\d{2}:\d{2})$/;
const TIME = /^\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:[Zz]|[+-]\d{2}:\d{2})?$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const HOSTNAME = /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/i;

function absoluteUrl(value: string): boolean {
  try {
    return Boolean(new URL(value).protocol);
  } catch {
    return false;
  }
}

// The formats payload schemas commonly use. The service validates with ajv-formats; it is not a direct
// dependency here, so the common ones are defined with Node's own parsers.
const FORMATS: Record<string, (value: string) => boolean> = {
  email: (v) => EMAIL.test(v),
  uri: absoluteUrl,
  url: absoluteUrl,
  'uri-reference': (v) => !/\s/.test(v),
  'date-time': (v) => DATE_TIME.test(v) && !Number.isNaN(Date.parse(v)),
  date: (v) => DATE.test(v) && !Number.isNaN(Date.parse(`${v}T00:00:00Z`)),
  time: (v) => TIME.test(v),
  uuid: (v) => UUID.test(v),
  ipv4: (v) => isIPv4(v),
  ipv6: (v) => isIPv6(v),
  hostname: (v) => HOSTNAME.test(v),
};

// Made with the first payload schema to check: an instance compiles its meta-schemas when made.
let ajv: Ajv | undefined;
/** Compiled validators by schema: every trigger of a workflow that validates its payload asks for one. */
const validators = new LRUCache<string, ValidateFunction>({ max: 200 });

function validatorFor(schema: JsonSchema): ValidateFunction {
  const { $schema: _dialect, $id: _id, ...rest } = schema;
  const key = JSON.stringify(rest);
  let validate = validators.get(key);
  if (!validate) {
    validate = (ajv ??= new (ajvPackage().Ajv)({ allErrors: true, strict: false, logger: false, formats: FORMATS })).compile(rest);
    validators.set(key, validate);
  }
  return validate;
}

function fieldOf(pointer: string, extra?: string): string {
  const parts = pointer
    .split('/')
    .slice(1)
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (extra !== undefined) parts.push(extra);
  return parts.reduce((acc, part) => (/^\d+$/.test(part) ? `${acc}[${part}]` : acc ? `${acc}.${part}` : part), '');
}

function valueAt(payload: unknown, pointer: string): unknown {
  let current = payload;
  for (const part of pointer.split('/').slice(1)) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string, unknown>)[part.replace(/~1/g, '/').replace(/~0/g, '~')];
  }
  return current;
}

function toError(error: ErrorObject, payload: unknown): PayloadValidationError {
  const params = error.params as Record<string, unknown>;
  const extra =
    typeof params.missingProperty === 'string' ? params.missingProperty : typeof params.additionalProperty === 'string' ? params.additionalProperty : undefined;
  const field = fieldOf(error.instancePath, extra);
  let message = error.message ?? 'is invalid';
  if (error.keyword === 'additionalProperties') message = `must not have additional property '${String(extra)}'`;
  if (error.keyword === 'enum' && Array.isArray(params.allowedValues)) {
    message = `must be one of ${params.allowedValues.map((v) => JSON.stringify(v)).join(', ')}`;
  }
  const out: PayloadValidationError = { field, message, schemaPath: error.schemaPath };
  if (error.keyword !== 'required') {
    const pointer = error.keyword === 'additionalProperties' ? `${error.instancePath}/${String(extra)}` : error.instancePath;
    const value = valueAt(payload, pointer);
    if (value !== undefined) out.value = value;
  }
  return out;
}

/** Validates a trigger payload against the workflow's payload schema (400 PAYLOAD_VALIDATION_ERROR). */
export function validatePayload(schema: JsonSchema, payload: unknown): PayloadValidation {
  let validate: ValidateFunction;
  try {
    validate = validatorFor(schema);
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    return { valid: false, errors: [{ field: '', message: `the workflow's payload schema is invalid: ${message}`, schemaPath: '#' }] };
  }
  if (validate(payload ?? {})) return { valid: true };
  return { valid: false, errors: (validate.errors ?? []).map((e) => toError(e, payload ?? {})) };
}
