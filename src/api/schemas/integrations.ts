// Integration create (openapi.json CreateIntegrationRequestDto): the body of POST /v1/integrations.
import { z } from 'zod';
import { Channel, IntegrationKind } from './enums.js';
import { StepFilter } from './resources.js';

export const CreateIntegrationBody = z.looseObject({
  name: z.string().min(1, 'must not be empty').optional(),
  /** Generated from the name when absent, as the service does. */
  identifier: z.string().min(1, 'must not be empty').optional(),
  providerId: z.string().min(1, 'must not be empty'),
  channel: Channel.optional(),
  kind: IntegrationKind.optional(),
  credentials: z.record(z.string(), z.unknown()).optional(),
  active: z.boolean().optional(),
  check: z.boolean().optional(),
  conditions: z.array(StepFilter).optional(),
  configurations: z.record(z.string(), z.unknown()).optional(),
});
export type CreateIntegrationBody = z.infer<typeof CreateIntegrationBody>;
