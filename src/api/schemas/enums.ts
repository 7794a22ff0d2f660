// zod enums of the API (api-spec.md, "Enumerations").
// The value lists live in enum-values.ts, which has no zod, so the command tree can use them for
// choices and completion without loading zod at start-up.
import { z } from 'zod';
import {
  CHANNELS,
  STEP_TYPES,
  TIME_UNITS,
  SEVERITIES,
  ORDER_DIRECTIONS,
  CHANNEL_ENDPOINT_TYPES,
  CONNECTION_MODES,
  MARK_AS,
  PROVIDER_IDS,
  CHAT_PUSH_PROVIDER_IDS,
  JOB_STATUSES,
  TRIGGER_STATUSES,
  CONTROL_ISSUE_TYPES,
  INTEGRATION_ISSUE_TYPES,
  FILTER_OPERATORS,
  HTTP_METHODS,
} from '../enum-values.js';

export {
  CHANNELS,
  SEVERITIES,
} from '../enum-values.js';

export const Channel = z.enum(CHANNELS);
export type Channel = z.infer<typeof Channel>;

export const StepType = z.enum(STEP_TYPES);
export type StepType = z.infer<typeof StepType>;

export const Origin = z.enum(['svc-cloud', 'svc-cloud-v1', 'external']);
export const TimeUnit = z.enum(TIME_UNITS);
export type TimeUnit = z.infer<typeof TimeUnit>;
export const Severity = z.enum(SEVERITIES);
export const OrderDirection = z.enum(ORDER_DIRECTIONS);
export const RedirectTarget = z.enum(['_self', '_blank', '_parent', '_top', '_unfencedTop']);
export const IntegrationKind = z.enum(['delivery', 'agent']);
export const ChannelEndpointType = z.enum(CHANNEL_ENDPOINT_TYPES);
export const ConnectionMode = z.enum(CONNECTION_MODES);
export const MarkAs = z.enum(MARK_AS);
export type MarkAs = z.infer<typeof MarkAs>;

export const ProviderId = z.enum(PROVIDER_IDS);
export type ProviderId = z.infer<typeof ProviderId>;

export const ChatPushProviderId = z.enum(CHAT_PUSH_PROVIDER_IDS);

/** Job statuses of the activity feed (ground truth, "Activity feed"). */
export const JobStatus = z.enum(JOB_STATUSES);
export type JobStatus = z.infer<typeof JobStatus>;

export const ExecutionDetailStatus = z.enum(['Success', 'Warning', 'Failed', 'Pending', 'Queued', 'ReadConfirmation']);
export type ExecutionDetailStatus = z.infer<typeof ExecutionDetailStatus>;
export const ExecutionDetailSource = z.enum(['Credentials', 'Internal', 'Payload', 'Webhook']);
export type ExecutionDetailSource = z.infer<typeof ExecutionDetailSource>;

export const TriggerStatus = z.enum(TRIGGER_STATUSES);
export type TriggerStatus = z.infer<typeof TriggerStatus>;

export const WorkflowStatus = z.enum(['ACTIVE', 'INACTIVE', 'ERROR']);
export const MessageStatus = z.enum(['sent', 'error', 'warning']);

export const ControlIssueType = z.enum(CONTROL_ISSUE_TYPES);
export const IntegrationIssueType = z.enum(INTEGRATION_ISSUE_TYPES);

export const FilterOperator = z.enum(FILTER_OPERATORS);
export const HttpMethod = z.enum(HTTP_METHODS);
