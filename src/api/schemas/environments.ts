// Environments (openapi.json EnvironmentsControllerV1_*): the organisation's environments, each with
// its own secret key(s) and the application identifier its Inbox sessions name.
import { z } from 'zod';
import { ObjectId } from './common.js';

/** What the service accepts as a colour (class-validator's IsHexColor). */
const HexColor = z.string().regex(/^#?([0-9a-f]{3}|[0-9a-f]{4}|[0-9a-f]{6}|[0-9a-f]{8})$/i, 'must be a hexadecimal color');

export const CreateEnvironmentBody = z.looseObject({
  name: z.string().trim().min(1, 'must not be empty'),
  /** The environment it is made from; the caller's own when absent. */
  parentId: ObjectId.optional(),
  color: HexColor,
});
export type CreateEnvironmentBody = z.infer<typeof CreateEnvironmentBody>;

export const UpdateEnvironmentBody = z.looseObject({
  name: z.string().optional(),
  identifier: z.string().optional(),
  parentId: ObjectId.optional(),
  color: HexColor.optional(),
  dns: z.looseObject({ inboundParseDomain: z.string().optional() }).optional(),
  bridge: z.looseObject({ url: z.string().optional() }).optional(),
});
export type UpdateEnvironmentBody = z.infer<typeof UpdateEnvironmentBody>;

const ApiKey = z.looseObject({ key: z.string(), _userId: z.string(), hash: z.string().optional() });

export const EnvironmentResource = z.looseObject({
  _id: z.string(),
  name: z.string(),
  _organizationId: z.string(),
  identifier: z.string(),
  type: z.enum(['dev', 'prod']).nullable().optional(),
  /** The secret keys: the caller's own environment's, or the one just created; empty for the others. */
  apiKeys: z.array(ApiKey).optional(),
  _parentId: z.string().optional(),
  slug: z.string().optional(),
  color: z.string().optional(),
});
export type EnvironmentResource = z.infer<typeof EnvironmentResource>;
