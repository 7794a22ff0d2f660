// Email layouts (openapi.json LayoutsController_*): an environment's reusable email frames, each a
// body (HTML, or a block-editor document) with `{{content}}` where an email step's body goes.
import { z } from 'zod';
import { IsoDate, JsonObject, queryInt } from './common.js';
import { OrderDirection, Origin } from './enums.js';

const LAYOUT_ORDER_BY = ['createdAt', 'updatedAt', 'name'] as const;

const EmailLayoutControls = z.looseObject({
  body: z.string({ error: 'must be a string' }),
  editorType: z.enum(['html', 'block']),
});

const LayoutControlValues = z.looseObject({ email: EmailLayoutControls.optional() });

const LayoutName = z.string({ error: 'must be a string' }).trim().min(1, 'must not be empty');

export const CreateLayoutBody = z.looseObject({
  layoutId: z.string({ error: 'must be a string' }).trim().min(1, 'must not be empty'),
  name: LayoutName,
  isTranslationEnabled: z.boolean().optional(),
  __source: z.string().optional(),
});
export type CreateLayoutBody = z.infer<typeof CreateLayoutBody>;

export const UpdateLayoutBody = z.looseObject({
  name: LayoutName,
  isTranslationEnabled: z.boolean().optional(),
  /** Absent: left as it is; null: the stored control values are cleared. */
  controlValues: LayoutControlValues.nullable().optional(),
});
export type UpdateLayoutBody = z.infer<typeof UpdateLayoutBody>;

export const DuplicateLayoutBody = z.looseObject({
  name: LayoutName,
  layoutId: z.string().trim().min(1, 'must not be empty').optional(),
  isTranslationEnabled: z.boolean().optional(),
});
export type DuplicateLayoutBody = z.infer<typeof DuplicateLayoutBody>;

export const ListLayoutsQuery = z.looseObject({
  limit: queryInt({ min: 1, max: 100 }).optional(),
  offset: queryInt({ min: 0 }).optional(),
  orderDirection: OrderDirection.optional(),
  orderBy: z.enum(LAYOUT_ORDER_BY).optional(),
  query: z.string().optional(),
});
export type ListLayoutsQuery = z.infer<typeof ListLayoutsQuery>;

export const LayoutPreviewBody = z.looseObject({
  controlValues: JsonObject.optional(),
  previewPayload: z.looseObject({ subscriber: JsonObject.optional() }).optional(),
});
export type LayoutPreviewBody = z.infer<typeof LayoutPreviewBody>;

export const Layout = z.looseObject({
  _id: z.string(),
  layoutId: z.string(),
  slug: z.string(),
  name: z.string(),
  isDefault: z.boolean(),
  isTranslationEnabled: z.boolean(),
  updatedAt: IsoDate,
  updatedBy: z.looseObject({ _id: z.string() }).nullable().optional(),
  createdAt: IsoDate,
  origin: Origin,
  type: z.enum(['REGULAR', 'ECHO', 'BRIDGE']),
  variables: JsonObject.nullable().optional(),
  controls: z.looseObject({ dataSchema: JsonObject.optional(), uiSchema: JsonObject.optional(), values: LayoutControlValues }),
});
export type Layout = z.infer<typeof Layout>;

export const ListLayoutsResponse = z.looseObject({ layouts: z.array(Layout), totalCount: z.number() });
export type ListLayoutsResponse = z.infer<typeof ListLayoutsResponse>;

export const LayoutPreviewResponse = z.looseObject({
  previewPayloadExample: JsonObject,
  schema: JsonObject.nullable().optional(),
  result: z.looseObject({ type: z.literal('email'), preview: z.looseObject({ body: z.string() }).optional() }),
});
export type LayoutPreviewResponse = z.infer<typeof LayoutPreviewResponse>;

export const LayoutUsage = z.looseObject({ workflows: z.array(z.looseObject({ name: z.string(), workflowId: z.string() })) });
export type LayoutUsage = z.infer<typeof LayoutUsage>;
