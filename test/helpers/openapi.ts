// Validates answers against the response schemas of the real service's OpenAPI document
// (spec/openapi.json, a copy kept in the repository so the contract test runs on a clean clone): the
// shapes the official SDK is generated from. The document's
// `novu` names are read as the spec's `svc` names, and `oneOf` as `anyOf` because its step and
// preview variants overlap (the SDK tells them apart by `type`, which a plain validator cannot).
import { Ajv, type ValidateFunction } from 'ajv';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const OPENAPI_FILE = fileURLToPath(new URL('../../spec/openapi.json', import.meta.url));
export const haveOpenApi = existsSync(OPENAPI_FILE);

let doc: { paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, { schema: unknown }> }> }>> } | undefined;
const ajv = new Ajv({ strict: false, allErrors: true });
const cache = new Map<string, ValidateFunction>();

function load() {
  if (!doc) {
    const text = readFileSync(OPENAPI_FILE, 'utf8')
      .replace(/"novu(-[a-z0-9-]+)?"/g, '"svc$1"')
      .replace(/"novuSignature"/g, '"svcSignature"')
      .replace(/"oneOf":/g, '"anyOf":');
    doc = JSON.parse(text);
    ajv.addSchema(nullableWithoutType(doc) as object, 'openapi');
  }
  return doc!;
}

/** OpenAPI 3.0 allows `nullable` beside `allOf`/`$ref` without `type`; JSON Schema says it with anyOf. */
function nullableWithoutType(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(nullableWithoutType);
  if (!node || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(node)) out[k] = nullableWithoutType(v);
  if (out.nullable === true && out.type === undefined) {
    const { nullable, ...rest } = out;
    return { anyOf: [{ type: 'null' }, rest] };
  }
  return out;
}

/** Problems of `body` (unwrapped from `{data}`) against the documented answer; [] when it fits. */
export function openApiProblems(method: string, path: string, status: number, body: unknown): string[] {
  const d = load();
  const key = `${method} ${path} ${status}`;
  let validate = cache.get(key);
  if (!validate) {
    const response = d.paths[path]?.[method.toLowerCase()]?.responses[String(status)];
    const schema = response?.content?.['application/json']?.schema;
    if (!schema) return [`no documented ${status} answer for ${method} ${path}`];
    const rewritten = JSON.parse(JSON.stringify(schema).replace(/"#\/components/g, '"openapi#/components'));
    validate = ajv.compile(rewritten);
    cache.set(key, validate);
  }
  if (validate(body)) return [];
  return (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message}`);
}
