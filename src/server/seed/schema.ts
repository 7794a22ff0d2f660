// The seed file (`--seed FILE`, JSON or YAML): records to load into the default environment, and
// more environments with their own keys and records. Unknown keys are errors, so a typo is named.
import { z } from 'zod';
import { JsonObject } from '../../api/schemas/common.js';
import { Channel, ProviderId } from '../../api/schemas/enums.js';
import { StepFilter } from '../../api/schemas/resources.js';
import { CreateContextBody, SubscriberRecipient } from '../../api/schemas/requests.js';
import { CreateWorkflowBody } from '../../api/schemas/workflow.js';
import { fieldErrors, ServiceInputError } from '../errors.js';

const SeedIntegration = z.strictObject({
  name: z.string().min(1).optional(),
  identifier: z.string().min(1),
  providerId: ProviderId,
  channel: Channel,
  active: z.boolean().default(true),
  primary: z.boolean().default(false),
  credentials: JsonObject.optional(),
  /** Step-filter groups on subscriber and payload: the integration is used only when one matches. */
  conditions: z.array(StepFilter).optional(),
});

const SeedTopic = z.strictObject({
  key: z.string().min(1),
  name: z.string().optional(),
  /** Subscriber ids; each must be a subscriber of the same seed or already in the store. */
  subscribers: z.array(z.string().min(1)).default([]),
});

const SeedTenant = z.strictObject({ identifier: z.string().min(1), name: z.string().optional(), data: JsonObject.optional() });

const content = {
  workflows: z.array(CreateWorkflowBody).default([]),
  integrations: z.array(SeedIntegration).default([]),
  subscribers: z.array(SubscriberRecipient).default([]),
  contexts: z.array(CreateContextBody).default([]),
  tenants: z.array(SeedTenant).default([]),
  topics: z.array(SeedTopic).default([]),
};

export const SeedContent = z.strictObject(content);
export type SeedContent = z.output<typeof SeedContent>;

const SeedEnvironment = z.strictObject({
  name: z.string().min(1),
  apiKey: z.string().min(8, 'must be at least 8 characters').optional(),
  ...content,
});

export const SeedFile = z.strictObject({ ...content, environments: z.array(SeedEnvironment).default([]) });
export type SeedFile = z.output<typeof SeedFile>;

/** A seed's content checked by the schema; its problems name `source`. */
export function parseSeed(data: unknown, source: string): SeedFile {
  const r = SeedFile.safeParse(data ?? {});
  if (r.success) return r.data;
  const problems = Object.entries(fieldErrors(r.error, data)).map(([field, e]) => `${field}: ${e.messages.join('; ')}`);
  const shown = problems.slice(0, 3).join('; ') + (problems.length > 3 ? ` (and ${problems.length - 3} more)` : '');
  throw new ServiceInputError(`--seed: ${source} is invalid: ${shown}`);
}
