// Enumerations of the API (api-spec.md, "Enumerations"). The word `svc` replaces the service's own
// name in the values that carry it.
import { z } from 'zod';

export const CHANNELS = ['in_app', 'email', 'sms', 'chat', 'push'] as const;
export const Channel = z.enum(CHANNELS);
export type Channel = z.infer<typeof Channel>;

export const STEP_TYPES = [
  'in_app', 'email', 'sms', 'chat', 'push', 'digest', 'trigger', 'delay', 'throttle', 'custom', 'http_request',
] as const;
export const StepType = z.enum(STEP_TYPES);
export type StepType = z.infer<typeof StepType>;

export const Origin = z.enum(['svc-cloud', 'svc-cloud-v1', 'external']);
export const TIME_UNITS = ['seconds', 'minutes', 'hours', 'days', 'weeks', 'months'] as const;
export const TimeUnit = z.enum(TIME_UNITS);
export type TimeUnit = z.infer<typeof TimeUnit>;
export const SEVERITIES = ['high', 'medium', 'low', 'none'] as const;
export const Severity = z.enum(SEVERITIES);
export const ORDER_DIRECTIONS = ['ASC', 'DESC'] as const;
export const OrderDirection = z.enum(ORDER_DIRECTIONS);
export const RedirectTarget = z.enum(['_self', '_blank', '_parent', '_top', '_unfencedTop']);
export const IntegrationKind = z.enum(['delivery', 'agent']);
export const CHANNEL_ENDPOINT_TYPES = [
  'slack_channel', 'slack_user', 'webhook', 'phone', 'ms_teams_channel', 'ms_teams_user',
] as const;
export const ChannelEndpointType = z.enum(CHANNEL_ENDPOINT_TYPES);
export const CONNECTION_MODES = ['subscriber', 'shared'] as const;
export const ConnectionMode = z.enum(CONNECTION_MODES);
export const MARK_AS = ['read', 'seen', 'unread', 'unseen'] as const;
export const MarkAs = z.enum(MARK_AS);
export type MarkAs = z.infer<typeof MarkAs>;

export const PROVIDER_IDS = [
  'emailjs', 'mailgun', 'mailjet', 'mandrill', 'nodemailer', 'postmark', 'sendgrid', 'sendinblue', 'ses', 'netcore',
  'infobip-email', 'resend', 'plunk', 'mailersend', 'mailtrap', 'clickatell', 'outlook365', 'svc-email', 'sparkpost',
  'email-webhook', 'braze', 'svc-email-agent', 'nexmo', 'plivo', 'sms77', 'sms-central', 'sns', 'telnyx', 'twilio',
  'gupshup', 'firetext', 'infobip-sms', 'burst-sms', 'bulk-sms', 'isend-sms', 'forty-six-elks', 'kannel', 'maqsam',
  'termii', 'africas-talking', 'svc-sms', 'sendchamp', 'generic-sms', 'clicksend', 'bandwidth', 'messagebird',
  'simpletexting', 'azure-sms', 'ring-central', 'brevo-sms', 'eazy-sms', 'mobishastra', 'afro-message', 'unifonic',
  'smsmode', 'imedia', 'sinch', 'isendpro-sms', 'cm-telecom', 'fcm', 'apns', 'expo', 'one-signal', 'pushpad',
  'push-webhook', 'pusher-beams', 'appio', 'svc', 'slack', 'discord', 'msteams', 'mattermost', 'ryver', 'zulip',
  'grafana-on-call', 'getstream', 'rocket-chat', 'whatsapp-business', 'chat-webhook', 'svc-slack', 'anthropic',
] as const;
export const ProviderId = z.enum(PROVIDER_IDS);
export type ProviderId = z.infer<typeof ProviderId>;

export const CHAT_PUSH_PROVIDER_IDS = [
  'slack', 'discord', 'msteams', 'mattermost', 'ryver', 'zulip', 'grafana-on-call', 'getstream', 'rocket-chat',
  'whatsapp-business', 'chat-webhook', 'svc-slack', 'fcm', 'apns', 'expo', 'one-signal', 'pushpad', 'push-webhook',
  'pusher-beams', 'appio',
] as const;
export const ChatPushProviderId = z.enum(CHAT_PUSH_PROVIDER_IDS);

/** Job statuses of the activity feed (ground truth, "Activity feed"). */
export const JOB_STATUSES = [
  'pending', 'queued', 'running', 'completed', 'failed', 'delayed', 'canceled', 'merged', 'skipped',
] as const;
export const JobStatus = z.enum(JOB_STATUSES);
export type JobStatus = z.infer<typeof JobStatus>;
/** A job in one of these states will not change any more. */
export const TERMINAL_JOB_STATUSES: readonly JobStatus[] = ['completed', 'failed', 'canceled', 'merged', 'skipped'];

export const ExecutionDetailStatus = z.enum(['Success', 'Warning', 'Failed', 'Pending', 'Queued', 'ReadConfirmation']);
export type ExecutionDetailStatus = z.infer<typeof ExecutionDetailStatus>;
export const ExecutionDetailSource = z.enum(['Credentials', 'Internal', 'Payload', 'Webhook']);
export type ExecutionDetailSource = z.infer<typeof ExecutionDetailSource>;

export const TRIGGER_STATUSES = [
  'error', 'trigger_not_active', 'no_workflow_active_steps_defined', 'no_workflow_steps_defined', 'processed',
  'no_tenant_found', 'invalid_recipients',
] as const;
export const TriggerStatus = z.enum(TRIGGER_STATUSES);
export type TriggerStatus = z.infer<typeof TriggerStatus>;

export const WorkflowStatus = z.enum(['ACTIVE', 'INACTIVE', 'ERROR']);
export const MessageStatus = z.enum(['sent', 'error', 'warning']);

export const CONTROL_ISSUE_TYPES = [
  'ILLEGAL_VARIABLE_IN_CONTROL_VALUE', 'INVALID_FILTER_ARG_IN_VARIABLE', 'INVALID_URL', 'MISSING_VALUE',
  'TIER_LIMIT_EXCEEDED',
] as const;
export const ControlIssueType = z.enum(CONTROL_ISSUE_TYPES);
export const INTEGRATION_ISSUE_TYPES = ['MISSING_INTEGRATION', 'INBOX_NOT_CONNECTED'] as const;
export const IntegrationIssueType = z.enum(INTEGRATION_ISSUE_TYPES);

export const FILTER_OPERATORS = [
  'LARGER', 'SMALLER', 'LARGER_EQUAL', 'SMALLER_EQUAL', 'EQUAL', 'NOT_EQUAL', 'ALL_IN', 'ANY_IN', 'NOT_IN', 'BETWEEN',
  'NOT_BETWEEN', 'LIKE', 'NOT_LIKE', 'IN',
] as const;
export const FilterOperator = z.enum(FILTER_OPERATORS);
export const HTTP_METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH'] as const;
export const HttpMethod = z.enum(HTTP_METHODS);
