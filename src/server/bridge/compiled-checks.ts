// What the bridge's compiled answer checks need (shapes.ts imports it with the first answer checked):
// ajv, and the JSON Schema of a zod schema where it states the schema exactly.
export { Ajv } from 'ajv';
export { exactJsonSchema } from '../../api/shape-compile.js';
