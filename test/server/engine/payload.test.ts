import { describe, expect, it } from 'vitest';
import { exampleFromPaths, payloadExampleFromSchema, schemaFromPaths, validatePayload } from '../../../src/server/engine/payload.js';

const orderSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  required: ['orderId', 'email', 'items', 'total'],
  properties: {
    orderId: { type: 'string' },
    email: { type: 'string', format: 'email' },
    plan: { type: 'string', enum: ['free', 'pro'] },
    greeting: { type: 'string', default: 'Hello' },
    code: { type: 'string', examples: ['ABC-1'] },
    total: { type: 'number', minimum: 0 },
    quantity: { type: 'integer', minimum: 1, maximum: 9 },
    shipped: { type: 'boolean' },
    placedAt: { type: 'string', format: 'date-time' },
    items: { type: 'array', minItems: 2, items: { type: 'object', properties: { sku: { type: 'string', minLength: 20 } } } },
    customer: { type: 'object', properties: { firstName: { type: 'string' }, website: { type: ['string', 'null'] } } },
    ref: { $ref: '#/$defs/money' },
  },
  $defs: { money: { type: 'object', properties: { currency: { type: 'string' } } } },
};

describe('payloadExampleFromSchema', () => {
  const example = payloadExampleFromSchema(orderSchema, Date.UTC(2025, 5, 1));

  it('uses defaults, examples, enums, formats, names and types', () => {
    expect(example).toMatchObject({
      orderId: 'example-id-123',
      email: 'user@example.com',
      plan: 'free',
      greeting: 'Hello',
      code: 'ABC-1',
      total: 99.99,
      quantity: 5,
      shipped: true,
      placedAt: '2025-06-01T00:00:00.000Z',
      customer: { firstName: 'John', website: 'https://example.com' },
      ref: { currency: 'USD' },
    });
    expect(example.items).toHaveLength(2);
  });

  it('produces a payload the same schema accepts', () => {
    expect(validatePayload(orderSchema, example)).toEqual({ valid: true });
  });

  it('handles allOf and oneOf', () => {
    expect(
      payloadExampleFromSchema({
        allOf: [{ type: 'object', properties: { a: { type: 'integer' } } }, { properties: { b: { oneOf: [{ type: 'null' }, { type: 'boolean' }] } } }],
      }),
    ).toEqual({ a: 42, b: true });
  });
});

describe('inference from used variables', () => {
  const paths = [['name'], ['order', 'id'], ['items', 0, 'title'], ['items', 'size'], ['tags', 0]];

  it('builds placeholders where the variables land', () => {
    expect(exampleFromPaths(paths)).toEqual({
      name: '{{payload.name}}',
      order: { id: '{{payload.order.id}}' },
      items: [{ title: '{{payload.items[0].title}}' }],
      tags: ['{{payload.tags[0]}}'],
    });
  });

  it('builds a permissive schema of the same shape', () => {
    const schema = schemaFromPaths(paths);
    expect(schema).toMatchObject({
      type: 'object',
      additionalProperties: true,
      properties: { order: { type: 'object', properties: { id: { type: 'string' } } }, items: { type: 'array' } },
    });
    expect(validatePayload(schema, exampleFromPaths(paths))).toEqual({ valid: true });
  });
});

describe('validatePayload', () => {
  it('lists every failing field with its value and schema path', () => {
    const result = validatePayload(orderSchema, {
      orderId: 5,
      email: 'not-an-email',
      items: [{ sku: 'short' }, { sku: 'x'.repeat(20) }],
      plan: 'gold',
    });
    expect(result.valid).toBe(false);
    const errors = result.valid ? [] : result.errors;
    expect(errors).toEqual(
      expect.arrayContaining([
        { field: 'total', message: "must have required property 'total'", schemaPath: '#/required' },
        { field: 'orderId', message: 'must be string', value: 5, schemaPath: '#/properties/orderId/type' },
        { field: 'email', message: 'must match format "email"', value: 'not-an-email', schemaPath: '#/properties/email/format' },
        { field: 'plan', message: 'must be one of "free", "pro"', value: 'gold', schemaPath: '#/properties/plan/enum' },
        expect.objectContaining({ field: 'items[0].sku', value: 'short' }),
      ]),
    );
  });

  it('names unexpected properties', () => {
    const result = validatePayload({ type: 'object', additionalProperties: false, properties: { a: {} } }, { a: 1, b: 2 });
    expect(result).toEqual({
      valid: false,
      errors: [{ field: 'b', message: "must not have additional property 'b'", value: 2, schemaPath: '#/additionalProperties' }],
    });
  });

  it('reports an invalid schema instead of throwing', () => {
    const result = validatePayload({ type: 'nonsense' }, {});
    expect(result.valid).toBe(false);
    expect(!result.valid && result.errors[0]?.message).toMatch(/payload schema is invalid/);
  });
});
